"""Model tree dock: Rigid Bodies, Joints, Gear Pairs, Forces."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDockWidget, QTreeWidget, QTreeWidgetItem

SECTIONS = (("bodies", "Rigid Bodies"), ("joints", "Joints"), ("gear_pairs", "Gear Pairs"), ("forces", "Forces"))


class ModelTreeDock(QDockWidget):
    """Lists the model's items; `selected` carries the chosen item's name ('' for none)."""

    selected = Signal(str)

    def __init__(self, parent=None):
        super().__init__("Model", parent)
        self.setObjectName("model_tree_dock")
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setObjectName("model_tree")
        self.setWidget(self.tree)
        self.items: dict[str, QTreeWidgetItem] = {}
        self.tree.itemSelectionChanged.connect(self._emit)

    def show_model(self, model) -> None:
        current = self.current()
        self.tree.blockSignals(True)
        self.tree.clear()
        self.items = {}
        for coll, title in SECTIONS:
            top = QTreeWidgetItem([f"{title} ({len(model.collection(coll))})"])
            top.setFlags(top.flags() & ~Qt.ItemIsSelectable)
            self.tree.addTopLevelItem(top)
            for item in model.collection(coll).values():
                node = QTreeWidgetItem([item.name])
                node.setData(0, Qt.UserRole, item.name)
                node.setToolTip(0, type(item).__name__)
                top.addChild(node)
                self.items[item.name] = node
            top.setExpanded(True)
        self.tree.blockSignals(False)
        if current in self.items:
            self.select(current)

    def current(self) -> str:
        sel = self.tree.selectedItems()
        return sel[0].data(0, Qt.UserRole) if sel else ""

    def select(self, name: str) -> None:
        node = self.items.get(name)
        self.tree.clearSelection()
        if node is not None:
            node.setSelected(True)
            self.tree.scrollToItem(node)

    def _emit(self) -> None:
        self.selected.emit(self.current() or "")
