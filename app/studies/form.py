"""The left side of the Parameter Study window: the parameters and the results asked for, the run's end time,
step and integrator, and the study they make (core.studies.study_file's dict).

`StudyForm` is a mixin of app.studies.window.StudyWindow, which holds the tables `params` (field, unit,
values) and `outputs` (channel, reduction), the entries `t_end`, `step`, `combine`, `integrator`, and `doc`.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QTableWidgetItem

from core.dynamics.run import prepare
from core.errors import ModelError
from core.studies.parameters import current_value, first_parameter, numeric_paths, path_range
from core.studies.reductions import REDUCTIONS

UNIT, VALUES = 1, 2  # the parameters table's columns after the field
OFFERED = Qt.UserRole  # a Values cell's text as the form put it there (a field's value now), None when given


def parse_values(text: str, path: str, rng=None) -> dict:
    """'10 20 30' -> values; '1:5:3' -> grid (start, stop, count); typed in the field's display unit (mm,
    deg: `rng`, a core.ranges.Range), returned in SI; errors name the parameter."""
    text = text.strip()
    si = rng.from_display if rng is not None else float
    try:
        if ":" in text:
            start, stop, count = text.split(":")
            return {"grid": {"start": si(float(start)), "stop": si(float(stop)), "count": int(count)}}
        values = [si(float(v)) for v in text.replace(",", " ").split()]
    except ValueError:
        raise ModelError(path, f"values must be numbers separated by spaces, or start:stop:count, "
                               f"got {text[:40]!r}") from None
    if not values:
        raise ModelError(path, "give at least one value")
    return {"values": values}


#: the form's entries for the study file's fields (core.studies.study_file) that an error may name
LABELS = {"combine": "Combine", "analysis.t_end": "End time", "analysis.step": "Time step",
          "analysis.output_step": "Time step", "analysis.integrator": "Integrator"}


def form_label(path: str) -> str:
    """Where the form shows the study file's field `path`: 'Result 1, channel' for analysis.outputs[0].channel,
    'Parameter 2' for parameters[1].path ('Parameter 2, grid.count' for its grid's count), the entry's label for
    the analysis settings; other paths (a model's field, which a Field cell shows as it is) unchanged."""
    match = re.fullmatch(r"analysis\.outputs\[(\d+)\](\.channel)?", path)
    if match:
        return f"Result {int(match[1]) + 1}" + (", channel" if match[2] else "")
    match = re.fullmatch(r"parameters\[(\d+)\](?:\.(.+))?", path)
    if match:
        return f"Parameter {int(match[1]) + 1}" + (f", {match[2]}" if match[2] not in (None, "path") else "")
    return LABELS.get(path, path)


def first_force(names: list[str]) -> str:
    """The first tangential tooth force among channel `names` (a study's usual result), or ''."""
    return next((n for n in names if n.endswith(".Ft")), "")


def form_message(exc: ModelError) -> str:
    """The error's problems, one a line, each naming the form's entry (`form_label`)."""
    return "\n".join(f"{form_label(path)}: {detail}" if path else detail for path, detail in exc.problems)


def whole_names(combo: QComboBox) -> None:
    """Let the combo's list be as wide as its longest entry: in a table column it elided field paths in the middle
    ('forces.driv...w.amplitude')."""
    view = combo.view()
    view.setMinimumWidth(view.sizeHintForColumn(0) + view.verticalScrollBar().sizeHint().width() + 8)


def name_combo(object_name: str, names: list[str], current: str) -> QComboBox:
    """An editable list of whole names (fields or channels) showing `current`."""
    combo = QComboBox()
    combo.setEditable(True)
    combo.setObjectName(object_name)
    combo.addItems(names)
    whole_names(combo)
    combo.setCurrentText(current)
    return combo


def remove_row(table) -> None:
    """Remove the table's current row, or its last when none is current."""
    if table.rowCount():
        table.removeRow(table.currentRow() if table.currentRow() >= 0 else table.rowCount() - 1)


class StudyForm:
    """The parameters, results and run settings of a study (see the module docstring)."""

    def start_form(self) -> None:
        """The form on the open model: its end time, step and integrator, one parameter (its first numeric
        field, at its value now) and one result (a tooth force, where it has one)."""
        st = self.doc.model.settings
        self.t_end.setText(f"{st.t_end:g}")
        self.step.setText(f"{st.step:g}")
        self.integrator.setCurrentText(st.integrator)
        self.params.setRowCount(0)
        self.outputs.setRowCount(0)
        self.add_parameter()
        self.add_output()

    def add_parameter(self, path: str = "", values: str = "") -> None:
        r = self.params.rowCount()
        self.params.insertRow(r)
        combo = name_combo(f"parameter_path_{r}", numeric_paths(self.doc.model),
                           path or first_parameter(self.doc.model))
        self.params.setCellWidget(r, 0, combo)
        unit = QTableWidgetItem("")
        unit.setFlags(unit.flags() & ~Qt.ItemIsEditable)
        self.params.setItem(r, UNIT, unit)
        cell = QTableWidgetItem(values or self._now(combo.currentText()))
        self.params.setItem(r, VALUES, cell)
        combo.currentTextChanged.connect(lambda text, item=unit, cell=cell: self._field_chosen(text, item, cell))
        unit.setText(self._unit(combo.currentText()))
        cell.setData(OFFERED, None if values else cell.text())

    def _field_chosen(self, path: str, unit, cell) -> None:
        """A field chosen for a parameter row: its unit, and its value now in the Values cell unless values were
        typed there (they stay)."""
        unit.setText(self._unit(path))
        if cell.text() in ("", cell.data(OFFERED)):
            cell.setText(self._now(path))
            cell.setData(OFFERED, cell.text())

    def _now(self, path: str) -> str:
        """The field's value in the model now, in the unit its values are typed in ('' where it names none): a
        study starts from the model as it is."""
        value = current_value(self.doc.model, path.strip())
        if value is None:
            return ""
        rng = path_range(self.doc.model, path.strip())
        return f"{rng.to_display(value) if rng is not None else value:.6g}"

    def _unit(self, path: str) -> str:
        """The unit a parameter's values are typed in: the dialogs' (mm, deg), SI where the field has none."""
        rng = path_range(self.doc.model, path.strip())
        return rng.shown_unit if rng is not None else "SI"

    def remove_parameter(self) -> None:
        remove_row(self.params)

    def channel_names(self) -> list[str]:
        """The channels a run of the model gives (from its last run, or from the assembled system)."""
        run = getattr(self.doc, "current", None)
        res = getattr(run, "results", None) if run is not None else None
        if res is None:
            try:
                res = prepare(self.doc.model.copy(), keep=False).results
            except Exception:  # noqa: BLE001  (a model that cannot run yet: the names are typed instead)
                return []
        return [c.name for c in res.channels]

    def add_output(self, channel: str = "", how: str = "max_abs") -> None:
        r = self.outputs.rowCount()
        self.outputs.insertRow(r)
        names = self.channel_names()
        combo = name_combo(f"output_channel_{r}", names, channel or first_force(names))
        self.outputs.setCellWidget(r, 0, combo)
        red = QComboBox()
        red.setObjectName(f"output_reduce_{r}")
        red.addItems(list(REDUCTIONS))
        red.setCurrentText(how)
        self.outputs.setCellWidget(r, 1, red)

    def remove_output(self) -> None:
        remove_row(self.outputs)

    # ------------------------------------------------------------------ study

    def study_dict(self) -> dict:
        """The study as a study file holds it (base: the open model's file name, or 'model')."""
        params = []
        for r in range(self.params.rowCount()):
            path = self.params.cellWidget(r, 0).currentText().strip()
            item = self.params.item(r, VALUES)
            params.append({"path": path, **parse_values(item.text() if item else "", path or f"parameter {r + 1}",
                                                        path_range(self.doc.model, path))})
        outputs = [{"channel": self.outputs.cellWidget(r, 0).currentText().strip(),
                    "reduce": self.outputs.cellWidget(r, 1).currentText()} for r in range(self.outputs.rowCount())]
        blank = [r for r, o in enumerate(outputs) if not o["channel"]]
        if blank:  # the study file's own message can only name another model's channel as an example
            names = self.channel_names()
            raise ModelError(f"analysis.outputs[{blank[0]}].channel",
                             f"choose one of the model's channels, such as {first_force(names) or names[0]}"
                             if names else "the model gives no channels yet: it cannot run (Messages says why); "
                                           "choose one once it can")
        try:
            t_end, step = float(self.t_end.text()), float(self.step.text())
        except ValueError:
            raise ModelError("End time, Time step: must be numbers in seconds") from None
        base = Path(self.doc.path).name if getattr(self.doc, "path", None) else "model"
        return {"base": base, "parameters": params, "combine": self.combine.currentText(),
                "analysis": {"kind": "simulation", "t_end": t_end, "step": step, "output_step": step,
                             "integrator": self.integrator.currentText(), "outputs": outputs}}
