"""Model tree dock: Rigid Bodies, Joints, Gear Pairs, Forces; updated item by item as the model changes."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QDockWidget, QTreeWidget, QTreeWidgetItem

from core.model.entities import collection_of

SECTIONS = (("bodies", "Rigid Bodies"), ("joints", "Joints"), ("gear_pairs", "Gear Pairs"), ("forces", "Forces"))
TITLES = dict(SECTIONS)


class ModelTreeDock(QDockWidget):
    """Lists the model's items; `selected` carries the chosen item's name ('' for none), `menu_asked` an item
    right-clicked (it is selected first) and where, on the screen; `section_menu_asked` a section's heading
    right-clicked (its collection: 'bodies', 'joints', 'gear_pairs' or 'forces') and where; `rename_asked` an
    item's name and the one typed over it (F2): the node keeps its name until the model's change renames it."""

    selected = Signal(str)
    menu_asked = Signal(str, QPoint)
    section_menu_asked = Signal(str, QPoint)
    rename_asked = Signal(str, str)

    def __init__(self, parent=None):
        super().__init__("Model", parent)
        self.setObjectName("model_tree_dock")
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setObjectName("model_tree")
        self.tree.setMinimumWidth(170)
        self.setWidget(self.tree)
        self.items: dict[str, QTreeWidgetItem] = {}
        self.sections: dict[str, QTreeWidgetItem] = {}
        self.tree.itemSelectionChanged.connect(self._emit)
        self.tree.setContextMenuPolicy(Qt.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._menu)
        self.tree.setEditTriggers(QAbstractItemView.EditKeyPressed)  # F2 renames; a click only selects
        self.tree.itemChanged.connect(self._typed)

    def show_model(self, model) -> None:
        """Rebuild the whole tree (a model was opened or replaced)."""
        current = self.current()
        self.tree.blockSignals(True)
        self.tree.clear()
        self.items, self.sections = {}, {}
        for coll, title in SECTIONS:
            top = QTreeWidgetItem([title])
            top.setFlags(top.flags() & ~Qt.ItemIsSelectable)
            self.tree.addTopLevelItem(top)
            self.sections[coll] = top
            for item in model.collection(coll).values():
                top.addChild(self._node(item))
            top.setExpanded(True)
        self._counts(model)
        self.tree.blockSignals(False)
        if current in self.items:
            self.select(current)

    def _node(self, item) -> QTreeWidgetItem:
        node = QTreeWidgetItem([item.name])
        node.setFlags(node.flags() | Qt.ItemIsEditable)
        node.setData(0, Qt.UserRole, item.name)
        node.setToolTip(0, type(item).__name__)
        self.items[item.name] = node
        return node

    def _counts(self, model) -> None:
        for coll, top in self.sections.items():
            top.setText(0, f"{TITLES[coll]} ({len(model.collection(coll))})")

    def update_items(self, model, change) -> None:
        """Apply one edit's change: remove, rename or add only the nodes it touched."""
        if change.reset or not self.sections:
            self.show_model(model)
            return
        selected = self.current()
        self.tree.blockSignals(True)
        for name in change.removed:
            node = self.items.pop(name, None)
            if node is not None and node.parent() is not None:
                node.parent().removeChild(node)
        for old, new in change.replaced.items():
            node = self.items.pop(old, None)
            item = model.find(new)
            if node is None or item is None:
                continue
            node.setText(0, new)
            node.setData(0, Qt.UserRole, new)
            node.setToolTip(0, type(item).__name__)
            self.items[new] = node
        for name in change.added:
            item = model.find(name)
            if item is None:
                continue
            coll = collection_of(item)
            index = list(model.collection(coll)).index(name)
            self.sections[coll].insertChild(index, self._node(item))
        self._counts(model)
        self.tree.blockSignals(False)
        selected = change.replaced.get(selected, selected)
        if selected and selected not in self.items:
            self.tree.clearSelection()
            self._emit()

    def current(self) -> str:
        sel = self.tree.selectedItems()
        return sel[0].data(0, Qt.UserRole) if sel else ""

    def select(self, name: str) -> None:
        node = self.items.get(name)
        self.tree.clearSelection()
        if node is not None:
            self.tree.setCurrentItem(node)  # selected and current: F2 renames it, the arrow keys go on from it
            self.tree.scrollToItem(node)

    def _menu(self, pos: QPoint) -> None:
        node = self.tree.itemAt(pos)
        at = self.tree.viewport().mapToGlobal(pos)
        name = node.data(0, Qt.UserRole) if node is not None else None
        section = next((coll for coll, top in self.sections.items() if top is node), None)
        if name:
            self.select(name)
            self.menu_asked.emit(name, at)
        elif section is not None:
            self.section_menu_asked.emit(section, at)

    def _typed(self, node, _column) -> None:
        """A name typed over a node's (F2): put the node's back and ask for the rename."""
        name = node.data(0, Qt.UserRole)
        typed = node.text(0)
        if not name or typed == name:
            return
        self.tree.blockSignals(True)
        node.setText(0, name)
        self.tree.blockSignals(False)
        self.rename_asked.emit(name, typed)

    def _emit(self) -> None:
        self.selected.emit(self.current() or "")

