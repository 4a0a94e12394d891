"""Model > Check Model: the model's degrees of freedom, its redundant constraints, its torques referred to its
drive, and every finding, in one place.

The count comes from the assembled equations (core.dynamics.checks.model_freedom), the torques' balance from the
train's ratios (core.analysis.train_ratio), the findings from the model's checks (the document's, kept current
with every edit).
"""

from __future__ import annotations

from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
)

from core.analysis.train_ratio import balance
from core.dynamics.checks import Freedom, model_freedom
from core.wording import counted

COLOURS = {"error": "#b00020", "warning": "#9a6700", "info": "#1f5fa0"}


class CheckDialog(QDialog):
    """What Check Model found on `model` with its `findings`: the count of its motion first, then the findings."""

    def __init__(self, model, findings, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Check Model")
        self.setObjectName("check_dialog")
        count = model_freedom(model)
        self.freedom = count if isinstance(count, Freedom) else None
        self.summary = QLabel(count.describe() if self.freedom else f"The degrees of freedom cannot be counted: "
                                                                    f"{count}")
        self.summary.setObjectName("freedom")
        self.summary.setWordWrap(True)
        self.balance = QLabel(balance(model))
        self.balance.setObjectName("balance")
        self.balance.setWordWrap(True)
        self.balance.setVisible(bool(self.balance.text()))
        tally = {s: sum(f.severity == s for f in findings) for s in COLOURS}
        self.tally = QLabel(", ".join(counted(n, s, s if s == "info" else "") for s, n in tally.items())
                           if findings else "No findings.")
        self.tally.setObjectName("tally")
        self.findings = QListWidget()
        self.findings.setObjectName("findings")
        self.findings.setWordWrap(True)
        for f in findings:
            item = QListWidgetItem(str(f))
            item.setForeground(QColor(COLOURS.get(f.severity, "#000000")))
            self.findings.addItem(item)
        box = QDialogButtonBox(QDialogButtonBox.Ok)
        box.accepted.connect(self.accept)
        layout = QVBoxLayout(self)
        for w in (self.summary, self.balance, self.tally, self.findings, box):
            layout.addWidget(w)
        self.resize(640, 360)
