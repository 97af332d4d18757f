"""Copies of a state: `copy_state`, with the same independence as
`rules.core.state.independent_copy`, written out for this game's models so that a list of
card codes is copied with one `list()` instead of element by element; and `copy_for_move`, the
copy `apply` changes, which keeps the very units until the move changes them (cow.py).

Each model's fields are listed here: `ATOMS` are shared as they are (strings, numbers, frozen
models such as a Loadout or a Building), `HOW` says how every other field is copied. A test
checks that the two cover every field of every model, so a field added later cannot be shared
by mistake.

One field is shared on purpose: `BgkState.origin` (the party as it entered the scenario). It
is only ever replaced by a new list of new characters (game.py, flow.py), never changed in
place, so a copy may keep the very same list. A unit's statuses are frozen models, shared too.
The copy for a move also shares a character's gear (`state.GEAR`: its bag, shards, experience
...), which only camp moves and the experience at the end change, each by a new list or dict,
and the state's lists of `_WHOLE`, which moves replace whole too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from rules.by_gods_and_kings import cow
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


UNIT_HOW: dict[str, Callable[[Any], Any]] = {"field": list, "statuses": list}
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


_foe, _npc = cow.foe, cow.npc
"""HOW[Foe] and HOW[Npc] written out (cow.py: a unit is copied when a move first changes it);
`cow.hero` is HOW[Hero] written out but for the gear (`state.GEAR`), which the copy of a
character for a move shares."""


def _hero(x: Hero) -> Hero:
    return _clone(x, HOW[Hero])


def _battle(x: Battle) -> Battle:
    return _clone(x, HOW[Battle])


HOW: dict[type[BaseModel], dict[str, Callable[[Any], Any]]] = {
    Status: {}, Held: {}, Intent: {},
    Hero: {**UNIT_HOW, "hand": list, "bag": list, "shards": list, "equipped": list, "shard_xp": dict,
           "aside": list, "aside_equipped": list, "cleared": dict, "tasks": list, "held": cow.held},
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


# copy_for_move: HOW[BgkState] written out, but units shared (a test checks it covers HOW).
_LISTS = ("deck", "discard", "queue", "party")
_DICTS = ("votes", "buildings")
_WHOLE = ("players", "options", "visited", "stash", "opening", "saving", "ready")
"""Copied by `copy_state`, but shared by the copy for a move: no move changes the seats or the
options, and the others (the areas visited, the loot, the units still opening, the characters
still saving, the seats ready) a move replaces whole, never changing them in place (camp.py,
flow.py; a test checks that no state of played games changes after it was made)."""


_new = cow.remade
"""`rebuilt` for the models of a state, which hold no extra and no private values (cow.py)."""


def copy_for_move(s: BgkState) -> tuple[BgkState, list[Any]]:
    """The copy `apply` changes: `copy_state` written out, but holding the very units and the
    very generator of `s` (also returned: the units, then the generator), which the copy's
    accessors replace by copies of their own when they hand them out during the move (cow.py;
    `BgkState.own_rng`: most moves draw nothing from it), and the very lists of `_WHOLE`,
    which no move changes in place. `party` is a list of its own: a new list of the same
    characters."""
    d = s.__dict__.copy()
    for name in _LISTS:
        d[name] = d[name][:]
    for name in _DICTS:
        d[name] = d[name].copy()
    if d["intent"] is not None:
        d["intent"] = _new(d["intent"], d["intent"].__dict__.copy())
    units: list[Any] = d["party"][:]
    battle = d["battle"]
    if battle is not None:
        b = battle.__dict__.copy()
        b["foes"], b["npcs"], b["order"] = b["foes"][:], b["npcs"][:], b["order"][:]
        b["ties"] = [t[:] for t in b["ties"]]
        d["battle"] = _new(battle, b)
        units += b["foes"]
        units += b["npcs"]
    units.append(d["rng"])
    return _new(s, d), units
