"""The copy `apply` makes of a state before changing it: the same independence as
`rules.core.state.independent_copy`, written out for this game's models so that a list of
card codes is copied with one `list()` instead of element by element.

Each model's fields are listed here: `ATOMS` are shared as they are (strings, numbers, frozen
models such as a Loadout or a Building), `HOW` says how every other field is copied. A test
checks that the two cover every field of every model, so a field added later cannot be shared
by mistake.

One field is shared on purpose: `BgkState.origin` (the party as it entered the scenario). It
is only ever replaced by a new list of new characters (game.py, flow.py), never changed in
place, so a copy may keep the very same list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from rules.by_gods_and_kings.state import Battle, BgkState, Foe, Held, Hero, Intent, Npc, Status
from rules.core import Rng
from rules.core.state import rebuilt

M = TypeVar("M", bound=BaseModel)

def _clone(model: M, how: dict[str, Callable[[Any], Any]]) -> M:
    fields = model.__dict__.copy()
    for name, copy in how.items():
        value = fields[name]
        if value is not None:
            fields[name] = copy(value)
    return rebuilt(model, fields)


def _statuses(xs: list[Status]) -> list[Status]:
    return [_clone(x, {}) for x in xs] if xs else []


def _held(x: Held) -> Held:
    return _clone(x, {})


UNIT_HOW: dict[str, Callable[[Any], Any]] = {"field": list, "statuses": _statuses}
ATOMS: dict[type[BaseModel], tuple[str, ...]] = {
    Status: ("kind", "amount", "turns", "source"),
    Held: ("shard", "trigger", "target", "spent"),
    Hero: ("id", "name", "hp", "shield", "miss", "template", "seat", "loadout", "record", "adventures"),
    Foe: ("id", "name", "hp", "shield", "miss", "enemy"),
    Npc: ("id", "name", "hp", "shield", "miss", "npc"),
    Intent: ("foe", "target", "pick", "card", "ability"),
    Battle: ("round", "pos"),
    Rng: ("seed", "counter"),
    BgkState: ("content", "scenario", "area", "step", "attempt", "origin", "decks", "phase", "actor",
               "played", "spent", "outcome", "battles_won"),
}
"""The fields shared as they are (`origin`: see the module's docstring)."""


def _hero(x: Hero) -> Hero:
    """HOW[Hero] written out: the same copies without walking the table (a character is
    copied on every move)."""
    d = x.__dict__.copy()
    d["field"] = d["field"][:]
    d["statuses"] = _statuses(d["statuses"])
    for name in ("hand", "bag", "shards", "equipped", "aside", "aside_equipped"):
        d[name] = d[name][:]
    d["shard_xp"] = d["shard_xp"].copy()
    d["cleared"] = d["cleared"].copy()
    if d["held"] is not None:
        d["held"] = _held(d["held"])
    return rebuilt(x, d)


def _foe(x: Foe) -> Foe:
    """HOW[Foe] written out (see `_hero`)."""
    d = x.__dict__.copy()
    d["field"] = d["field"][:]
    d["statuses"] = _statuses(d["statuses"])
    return rebuilt(x, d)


def _npc(x: Npc) -> Npc:
    return _clone(x, HOW[Npc])


def _battle(x: Battle) -> Battle:
    return _clone(x, HOW[Battle])


HOW: dict[type[BaseModel], dict[str, Callable[[Any], Any]]] = {
    Status: {}, Held: {}, Intent: {},
    Hero: {**UNIT_HOW, "hand": list, "bag": list, "shards": list, "equipped": list, "shard_xp": dict,
           "aside": list, "aside_equipped": list, "cleared": dict, "held": _held},
    Foe: UNIT_HOW,
    Npc: {**UNIT_HOW, "hand": list},
    Battle: {"foes": lambda xs: [_foe(x) for x in xs], "npcs": lambda xs: [_npc(x) for x in xs],
             "order": list, "ties": lambda xs: [list(x) for x in xs]},
    Rng: {"scripted": list},
    BgkState: {"players": list, "options": dict, "rng": lambda r: _clone(r, HOW[Rng]), "visited": list,
               "votes": dict, "party": lambda xs: [_hero(x) for x in xs], "deck": list, "discard": list,
               "stash": list, "battle": _battle, "queue": list, "intent": lambda x: _clone(x, {}),
               "opening": list, "saving": list, "ready": list, "buildings": dict},
}
"""How every other field is copied: lists of strings and dicts of strings with `list` and
`dict`, models field by field (a Building in `buildings` is frozen and shared)."""


def copy_state(s: BgkState) -> BgkState:
    """A copy of the state that shares nothing that a move changes in place."""
    return _clone(s, HOW[BgkState])
