"""Loss-table editor of a gear pair: rows [|w_a|, eta_mf1, eta_mf2, tau_bf1, tau_bf2], checked as they are typed.

The columns are those of the model (|w_a| in rad/s, torques in N m), so the
messages speak of what is shown; a row is added after the last one at a
higher speed. Every change is checked with
the model's own rules (core.model.entities.loss_table_problems and the pair's
problems), the bad cells are marked and the messages name row and column;
"Apply" is one undoable edit of the pair and is offered only when the table
holds.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from core.gearing.pair_gears import table_takes_over
from core.model.entities import LOSS_COLUMNS, GearPair
from core.wording import counted

HEADERS = LOSS_COLUMNS
TIPS = ("Speed of gear 1 relative to the carrier; rows ordered by speed, interpolated linearly between rows and "
        "held beyond the first and last rows (so an efficiency never leaves 0 to 1)",
        "Mesh efficiency when gear 1 drives (power flows from gear 1), 0 < eta <= 1",
        "Mesh efficiency when gear 2 drives, 0 < eta <= 1",
        "Bearing friction referred to gear 1 when gear 1 drives, >= 0",
        "Bearing friction referred to gear 1 when gear 2 drives, >= 0")
BAD = QBrush(QColor("#f8d7da"))


class LossTableEditor(QGroupBox):
    """Edits `pair.loss_table`; `apply_requested(rows)` carries the SI rows to commit."""

    apply_requested = Signal(tuple)

    def __init__(self, pair: GearPair, parent=None):
        super().__init__("Loss table (Modelica LossyGear)", parent)
        self.setObjectName("loss_table_editor")
        self.pair = pair
        self.table = QTableWidget(0, len(HEADERS))
        self.table.setObjectName("loss_table")
        self.table.setHorizontalHeaderLabels([h.replace(" [", "\n[") for h in HEADERS])  # narrow docks
        for c, tip in enumerate(TIPS):
            self.table.horizontalHeaderItem(c).setToolTip(tip)
        # every header read whole (a narrow dock scrolls the table sideways); a wide one gives the rest to the last
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setMinimumHeight(110)
        self.add = QPushButton("Add")  # short words: the three buttons fit a 300 px dock side by side
        self.add.setObjectName("add_loss_row")
        self.add.setToolTip("Add a row to the table")
        self.remove = QPushButton("Remove")
        self.remove.setObjectName("remove_loss_row")
        self.remove.setToolTip("Remove the selected rows")
        self.apply = QPushButton("Apply")
        self.apply.setObjectName("apply_loss_table")
        self.apply.setToolTip("Store the table in the pair (one undoable edit); an empty table makes the pair lossless "
                              "(or leaves the constant efficiency above)")
        self.status = QLabel("")
        self.status.setObjectName("loss_table_status")
        self.status.setWordWrap(True)
        buttons = QHBoxLayout()
        for b in (self.add, self.remove, self.apply):
            b.setMinimumWidth(b.fontMetrics().horizontalAdvance(b.text()) + 24)  # below the style's 80 px
            buttons.addWidget(b)
        lay = QVBoxLayout(self)
        lay.addWidget(self.table)
        lay.addLayout(buttons)
        lay.addWidget(self.status)
        for row in pair.loss_table:
            self._append(row)
        self.add.clicked.connect(self.add_row)
        self.remove.clicked.connect(self.remove_row)
        self.apply.clicked.connect(self._apply)
        self.table.itemChanged.connect(lambda *_: self.check())
        self.check()

    # ------------------------------------------------------------------ rows

    def _append(self, row) -> None:
        self.table.blockSignals(True)
        r = self.table.rowCount()
        self.table.insertRow(r)
        for c, v in enumerate(row):
            self.table.setItem(r, c, QTableWidgetItem(f"{v:.10g}"))
        self.table.blockSignals(False)

    def add_row(self) -> None:
        """A new last row: the last row's values 10 rad/s faster (the first row: the pair's constant efficiency
        and bearing friction as a row, so the table starts with the losses the pair has; lossless without)."""
        try:
            rows = self.rows()
        except ValueError:
            rows = []
        if rows:
            last = rows[-1]
            self._append((last[0] + 10.0, *last[1:]))
        else:
            self._append((self.pair.loss_rows() or ((0.0, 1.0, 1.0, 0.0, 0.0),))[0])
        self.check()

    def remove_row(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True) or [self.table.rowCount() - 1]
        for r in rows:
            if r >= 0:
                self.table.removeRow(r)
        self.check()

    def rows(self) -> tuple:
        """The table as entered; ValueError naming the row and column of a cell that is not a number."""
        out = []
        for r in range(self.table.rowCount()):
            row = []
            for c in range(len(HEADERS)):
                item = self.table.item(r, c)
                text = item.text().strip() if item is not None else ""
                try:
                    v = float(text)
                except ValueError:
                    raise ValueError(f"row {r + 1}, {HEADERS[c]}: must be a number, got {text!r}") from None
                row.append(v)
            out.append(tuple(row))
        return tuple(out)

    # ------------------------------------------------------------------ checks

    def problems(self) -> list[str]:
        """Messages for the table as entered (empty when it holds), and the cells they are about are marked."""
        self.table.blockSignals(True)
        for r in range(self.table.rowCount()):
            for c in range(len(HEADERS)):
                item = self.table.item(r, c)
                if item is not None:
                    item.setBackground(QBrush())
        self.table.blockSignals(False)
        try:
            rows = self.rows()
        except ValueError as exc:
            return [str(exc)]
        found = []
        # the rows as the edit takes them: in place of the pair's constant efficiency (core.gearing.pair_gears)
        for field, message in dataclasses.replace(self.pair, **table_takes_over({"loss_table": rows})).problems():
            if field.startswith("loss_table"):
                self._mark(field)
                found.append(message)
        return found

    def _mark(self, field: str) -> None:
        parts = [int(p.rstrip("]")) for p in field.split("[")[1:]]
        cells = [(parts[0], parts[1])] if len(parts) == 2 else [(parts[0], c) for c in range(len(HEADERS))]
        self.table.blockSignals(True)
        for r, c in cells:
            item = self.table.item(r, c)
            if item is not None:
                item.setBackground(BAD)
        self.table.blockSignals(False)

    def check(self) -> bool:
        found = self.problems()
        ok = not found
        self.apply.setEnabled(ok)
        if ok:
            n = self.table.rowCount()
            self.status.setText("No rows: the pair is lossless, or uses the constant efficiency above." if not n else
                                f"{counted(n, 'row')} hold: mesh efficiency and bearing friction are simulated, "
                                "with stuck phases.")
            self.status.setStyleSheet("color: #1b7f3a")
        else:
            self.status.setText("\n".join(found))
            self.status.setStyleSheet("color: #b00020")
        return ok

    def _apply(self) -> None:
        if self.check():
            self.apply_requested.emit(self.rows())
