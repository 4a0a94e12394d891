"""The model tree's right-click menus: what can be done to the item clicked, or what adds an item to the section
whose heading is clicked, from the main window's own actions (so each entry does, and is named, what the menus and
toolbars do)."""

from __future__ import annotations

from PySide6.QtWidgets import QMenu

from core.model.entities import GearPair, RevoluteJoint
from core.model.kinds import KINDS


def item_menu(window, name: str) -> QMenu:
    """The menu for item `name` of the window's model (selected): a body's Move / Rotate, Duplicate, Delete and
    the loads that take a body or a joint; a joint's loads; a gear pair's compliant mesh and CHBM Study; a load's
    Duplicate and Delete. Each load starts on the item (core.model.builders.selection_defaults)."""
    model = window.doc.model
    item = model.find(name)
    menu = QMenu()  # no parent: it goes when the caller drops it
    menu.setObjectName("tree_menu")
    if name in model.bodies:
        menu.addAction(window.act_move)
    if name in model.bodies or name in model.forces:
        menu.addAction(window.act_duplicate)
    menu.addAction(window.act_delete)
    takes = {"body", "revolute"} if name in model.bodies or isinstance(item, RevoluteJoint) else \
        {"gear pair"} if isinstance(item, GearPair) else set()
    kind = {k.tag: k.cls for k in KINDS.values()}  # a load action's name is its kind's tag
    loads = [a for a in window.load_actions if takes & set(kind[a.objectName()].REFERENCE_FIELDS.values())]
    if loads:
        menu.addSeparator()
        menu.addActions(loads)
    if isinstance(item, GearPair):
        menu.addSeparator()
        menu.addAction("CHBM Study of this pair", lambda: window.show_chbm().show_pair(name))
    return menu


def section_menu(window, collection: str) -> QMenu:
    """The menu for the heading of `collection` ('bodies', 'joints', 'gear_pairs', 'forces'): the tools that add
    an item there."""
    tools = {"bodies": [window.act_helical, window.act_inner, window.act_bevel, window.act_planetary,
                        window.act_import, window.act_cylinder, window.act_box],
             "joints": [window.act_revolute, *window.joint_actions],
             "gear_pairs": [window.act_pair, window.act_planetary],
             "forces": window.load_actions}[collection]
    menu = QMenu()
    menu.setObjectName("tree_section_menu")
    menu.addActions(tools)
    return menu
