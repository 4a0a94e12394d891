"""The channel browser: every channel of the results, grouped by kind of item and item, with units and a filter.

Gear-pair forces come first. Channels are picked (several at once), dragged
onto a plot, or double-clicked into the current plot.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.plot_axis import shown_unit
from core.dynamics.results import GROUPS

MIME = "application/x-geardyn-channels"
GROUP_TITLES = {"gear pair": "Gear pairs", "body": "Bodies", "joint": "Joints", "force": "Forces", "mesh": "Meshes",
                "energy": "Energy", "derived": "Derived"}


DESCRIPTION = Qt.UserRole + 1  # a leaf's channel description, which the filter searches too


class _ChannelTree(QTreeWidget):
    def mimeData(self, items):
        data = QMimeData()
        names = [it.data(0, Qt.UserRole) for it in items if it.data(0, Qt.UserRole)]
        data.setData(MIME, "\n".join(names).encode("utf-8"))
        data.setText("\n".join(names))
        return data

    def mimeTypes(self):
        return [MIME]


class ChannelBrowser(QWidget):
    """`add_requested(names)`: channels to add to the current plot (double-click or Enter)."""

    add_requested = Signal(list)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.filter = QLineEdit()
        self.filter.setObjectName("channel_filter")
        self.filter.setPlaceholderText("Filter channels (e.g. Ft, sun, DTE)")
        self.filter.setToolTip("Words that begin parts of the channels' names (Ft, sun_joint), or else words of their "
                               "descriptions (transmission error)")
        self.filter.setClearButtonEnabled(True)
        self.tree = _ChannelTree()
        self.tree.setObjectName("channel_tree")
        self.tree.setHeaderLabels(["Channel", "Unit"])
        self.tree.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.tree.setDragEnabled(True)
        self.tree.setDragDropMode(QAbstractItemView.DragOnly)
        self.tree.setColumnWidth(0, 200)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.filter)
        lay.addWidget(self.tree)
        self.filter.textChanged.connect(self._apply_filter)
        self.tree.itemDoubleClicked.connect(self._double_clicked)
        self.items: dict[str, QTreeWidgetItem] = {}
        self._shown: tuple = ()

    def show_channels(self, channels) -> None:
        """Fill the tree from channel records (kept when the same channels come again, e.g. as a run grows)."""
        key = tuple(c.label for c in channels)
        if key == self._shown:
            return
        self._shown = key
        self.tree.clear()
        self.items = {}
        groups: dict[str, QTreeWidgetItem] = {}
        owners: dict[tuple, QTreeWidgetItem] = {}
        order = {g: k for k, g in enumerate(GROUPS)}
        for c in sorted(channels, key=lambda c: order.get(c.group, len(order))):
            top = groups.get(c.group)
            if top is None:
                top = groups[c.group] = QTreeWidgetItem([GROUP_TITLES.get(c.group, c.group)])
                top.setFlags(top.flags() & ~Qt.ItemIsDragEnabled & ~Qt.ItemIsSelectable)
                self.tree.addTopLevelItem(top)
            owner = owners.get((c.group, c.item))
            if owner is None:
                owner = owners[(c.group, c.item)] = QTreeWidgetItem([c.item])
                owner.setFlags(owner.flags() & ~Qt.ItemIsDragEnabled & ~Qt.ItemIsSelectable)
                top.addChild(owner)
            leaf = QTreeWidgetItem([c.quantity, shown_unit(c.unit)])
            leaf.setData(0, Qt.UserRole, c.name)
            leaf.setData(0, DESCRIPTION, c.description)
            leaf.setToolTip(0, f"{c.label}: {c.description}" if c.description else c.label)
            owner.addChild(leaf)
            self.items[c.name] = leaf
        first = groups.get("gear pair")
        for top in groups.values():
            top.setExpanded(top is first or len(groups) == 1)
        self._apply_filter(self.filter.text())

    def _apply_filter(self, text: str) -> None:
        """Show the channels whose names the words match; when none does, those whose descriptions (or names) do,
        so 'transmission error' finds mesh.TE while 'Ft' finds only the tangential forces."""
        words = text.lower().split()
        leaves = list(self.items.values())
        shown = {id(leaf) for leaf in leaves if matches(leaf.data(0, Qt.UserRole), words)}
        if not shown:
            shown = {id(leaf) for leaf in leaves
                     if matches(leaf.data(0, Qt.UserRole), words, leaf.data(0, DESCRIPTION) or "")}
        for k in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(k)
            top_visible = False
            for i in range(top.childCount()):
                owner = top.child(i)
                owner_visible = False
                for j in range(owner.childCount()):
                    leaf = owner.child(j)
                    ok = id(leaf) in shown
                    leaf.setHidden(not ok)
                    owner_visible |= ok
                owner.setHidden(not owner_visible)
                owner.setExpanded(bool(words) and owner_visible)
                top_visible |= owner_visible
            top.setHidden(not top_visible)
            if words:
                top.setExpanded(top_visible)

    def selected_names(self) -> list[str]:
        return [it.data(0, Qt.UserRole) for it in self.tree.selectedItems() if it.data(0, Qt.UserRole)]

    def _double_clicked(self, item, _column) -> None:
        name = item.data(0, Qt.UserRole)
        if name:
            names = self.selected_names()
            self.add_requested.emit(names if name in names else [name])


def matches(name: str, words: list[str], description: str = "") -> bool:
    """Whether every word (lower case) stands in the channel's name from the beginning of a part (parts split at
    '.' and '_'), or begins a word of `description`: 'ft' finds sun_planet1.Ft but not drift, 'planet' finds
    sun_planet1 and planet1_ring, an item's whole name, 'sun_joint', finds its channels, and 'transmission error'
    finds mesh.TE by its description."""
    low = name.lower()
    starts = [0] + [m.end() for m in re.finditer(r"[._\s]+", low)]
    said = re.findall(r"[a-z0-9]+", description.lower())
    return all(any(low.startswith(w, s) for s in starts) or any(d.startswith(w) for d in said) for w in words)
