"""The model's own properties (its name and description), shown in the Properties dock when no item is selected.

An example's description says what it models and how to run it; the name heads what the analyses write about
the model. Each finished entry is one undoable command (core.commands.SetModelInfo).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFormLayout, QLabel, QLineEdit, QPlainTextEdit, QVBoxLayout, QWidget

from core.commands import SetModelInfo
from core.errors import ModelError


class DescriptionEdit(QPlainTextEdit):
    """A text box that says when the user leaves it (`finished`), as a line edit's editingFinished does."""

    finished = Signal()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.finished.emit()


class ModelInfoPanel(QWidget):
    """Name and description of `document`'s model; `report(message)` shows a refused entry."""

    def __init__(self, document, report, parent=None):
        super().__init__(parent)
        self.document, self.report = document, report
        model = document.model
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("<b>Model</b>"))
        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.WrapLongRows)
        self.name = QLineEdit(model.name)
        self.name.setObjectName("model_name")
        self.name.editingFinished.connect(self._commit)
        form.addRow("Name", self.name)
        self.description = DescriptionEdit(model.description)
        self.description.setObjectName("model_description")
        self.description.setPlaceholderText("What the model is, its sources, how to run it")
        self.description.setMinimumHeight(120)
        self.description.finished.connect(self._commit)
        form.addRow("Description", self.description)
        lay.addLayout(form)
        hint = QLabel("Select an item in the model tree or the 3-D view to edit it.")
        hint.setWordWrap(True)
        lay.addWidget(hint)
        lay.addStretch(1)

    def shows_model(self) -> bool:
        """Whether the entries hold the model's name and description as they are."""
        model = self.document.model
        return (self.name.text().strip(), self.description.toPlainText()) == (model.name, model.description)

    def _commit(self) -> None:
        model = self.document.model
        name, text = self.name.text().strip(), self.description.toPlainText()
        if (name, text) == (model.name, model.description):
            return
        try:
            self.document.apply(SetModelInfo(model, name, text))
        except ModelError as exc:
            self.report(str(exc))
            self.name.setText(model.name)
