"""Simulation settings: run length, steps, the integrator and its own options, formulation, Baumgarte, equilibrium."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QFormLayout

from app.dialogs.entity_form import EntityForm
from app.dialogs.fields import FieldError, finish_form
from core.dynamics.integrators import METHODS
from core.model.entities import INTEGRATOR_OPTIONS, STEP_LABELS, SimulationSettings

OPTION_FIELDS = sorted({o for opts in INTEGRATOR_OPTIONS.values() for o in opts})
TOLERANCES = ("rtol", "atol")


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
        self._options_for(self.integrator.currentText(), chosen=False)  # the model's own tolerances, as saved
        self.settings = None
        entry = getattr(self.form.widgets.get(field), "edit", None)  # the field a finding was about, to be typed in
        if entry is not None:
            entry.setFocus()
            entry.selectAll()

    def _options_for(self, integrator: str, chosen: bool = True) -> None:
        """Show only the options the integrator uses, and name the step as it uses it. Where the user has just
        `chosen` it, a tolerance that is some integrator's own default, not a value the user typed, becomes the
        chosen one's: a second-order method's steps shrink about as rtol^(1/3), and dopri5's 1e-8 would ask
        generalized_alpha_adaptive for 25 times the steps of its own 1e-4 (the compliant pair example's 0.1 s:
        1.1 million steps, 42 s)."""
        for name in OPTION_FIELDS:
            self.form.set_visible(name, name in INTEGRATOR_OPTIONS.get(integrator, ()))
        for name in TOLERANCES if chosen else ():
            own = METHODS[integrator].OPTIONS.get(name)  # the combo holds METHODS' keys
            field = self.form.widgets[name]
            try:
                value = field.value()
            except FieldError:  # half typed: the user's
                continue
            if own is not None and value != own and value in {m.OPTIONS.get(name) for m in METHODS.values()}:
                field.set_si(own)
        self.form.form.labelForField(self.form.widgets["step"]).setText(STEP_LABELS.get(integrator, "Time step"))

    def accept(self) -> None:
        try:
            settings = self.form.value()
        except FieldError as exc:
            self.message.setText(str(exc))
            return
        self.settings = settings
        super().accept()
