"""Simulation settings: run length, steps, the integrator and its own options, formulation, Baumgarte, equilibrium."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QFormLayout

from app.dialogs.entity_form import EntityForm
from app.dialogs.fields import FieldError, finish_form
from core.model.entities import INTEGRATOR_OPTIONS, STEP_LABELS, SimulationSettings

OPTION_FIELDS = sorted({o for opts in INTEGRATOR_OPTIONS.values() for o in opts})


class SettingsDialog(QDialog):
    """Edits the model's SimulationSettings (`field`, if given, has the focus); `settings` holds the new value
    after OK."""

    def __init__(self, model, parent=None, field: str = ""):
        super().__init__(parent)
        self.setWindowTitle("Simulation Settings")
        self.setObjectName("settings_dialog")
        self.form = EntityForm(SimulationSettings, model, model.settings)
        self.integrator = self.form.widgets["integrator"]
        self.integrator.currentTextChanged.connect(self._options_for)
        self.message = finish_form(self, QFormLayout(), self.form)
        self._options_for(self.integrator.currentText())
        self.settings = None
        entry = getattr(self.form.widgets.get(field), "edit", None)  # the field a finding was about, to be typed in
        if entry is not None:
            entry.setFocus()
            entry.selectAll()

    def _options_for(self, integrator: str) -> None:
        """Show only the options the chosen integrator uses, and name the step as it uses it."""
        for name in OPTION_FIELDS:
            self.form.set_visible(name, name in INTEGRATOR_OPTIONS.get(integrator, ()))
        self.form.form.labelForField(self.form.widgets["step"]).setText(STEP_LABELS.get(integrator, "Time step"))

    def accept(self) -> None:
        try:
            settings = self.form.value()
        except FieldError as exc:
            self.message.setText(str(exc))
            return
        self.settings = settings
        super().accept()
