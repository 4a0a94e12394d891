"""The kinds of model items: the collection each goes in, its tag in a model file, and its tool in the app.

The built-in entities register here where they are defined (core.model.entities); an element kind of the
engine can register a new entity with its own registration (core.engine.elements.base.element). Files,
commands and the app read the kinds from here, so a registered kind is loaded, saved, edited and offered in
the Loads menu like a built-in one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

COLLECTIONS = ("bodies", "joints", "gear_pairs", "forces")


@dataclass(frozen=True)
class ItemKind:
    """One kind of model item.

    Parameters
    ----------
    cls : type
        The entity dataclass.
    collection : str
        One of COLLECTIONS.
    tag : str
        Its ``type`` in a model file (collections that hold several kinds); empty for the only kind of one.
    label, tip : str
        The app's tool entry and its tool tip; no tool when empty.
    stem : str
        The stem of new names (``torque`` gives torque1, torque2, ...); the tag when empty.
    """

    cls: type
    collection: str
    tag: str = ""
    label: str = ""
    tip: str = ""
    stem: str = ""


#: collection -> its entity classes, in registration order
ITEM_TYPES: dict[str, tuple[type, ...]] = {c: () for c in COLLECTIONS}
#: entity class -> its kind
KINDS: dict[type, ItemKind] = {}


def register_kind(kind: ItemKind) -> None:
    """Add a kind; ValueError if its class or its tag is taken."""
    if kind.collection not in COLLECTIONS:
        raise ValueError(f"collection: must be one of {', '.join(COLLECTIONS)}, got {kind.collection!r}")
    if kind.cls in KINDS:
        raise ValueError(f"{kind.cls.__name__} is a registered kind already")
    if kind.tag and any(k.tag == kind.tag for k in KINDS.values()):
        raise ValueError(f"tag {kind.tag!r} is taken")
    KINDS[kind.cls] = kind
    ITEM_TYPES[kind.collection] = ITEM_TYPES[kind.collection] + (kind.cls,)


def unregister_kind(cls: type) -> None:
    """Take a kind out (a plug-in or a test that registered one)."""
    kind = KINDS.pop(cls)
    ITEM_TYPES[kind.collection] = tuple(c for c in ITEM_TYPES[kind.collection] if c is not cls)


def registered_kind(cls: type) -> ItemKind | None:
    return KINDS.get(cls)


def kind_title(cls: type) -> str:
    """What an item's kind is called on screen and in messages: its tool's label ('Compliant Mesh'), else its
    class name in words ('Rigid Body')."""
    kind = registered_kind(cls)
    return kind.label if kind is not None and kind.label else re.sub(r"(?<=[a-z])(?=[A-Z])", " ", cls.__name__)


def item_kind(collection: str, tag: str = "", label: str = "", tip: str = "", stem: str = ""):
    """Register the decorated entity class as a kind of `collection`."""

    def register(cls: type) -> type:
        register_kind(ItemKind(cls, collection, tag, label, tip, stem))
        return cls

    return register


def tools(collection: str) -> list[ItemKind]:
    """The kinds of `collection` the app offers as tools (those with a label), in registration order."""
    return [KINDS[c] for c in ITEM_TYPES[collection] if KINDS[c].label]
