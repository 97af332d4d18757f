"""The copy `apply` makes of a Terra Sancta state before changing it (it never changes its input).

`rules.core.state.independent_copy` copies any model by asking each value its type; this one
knows the state's fields, so each is copied with one call. The result is the same: a copy equal
to the original that shares nothing mutable with it. Pieces (named tuples), marks, die rolls and
the move being built are immutable, so they are shared. A test checks that every field of
`TSState` is listed here, so a field added later cannot be shared by mistake.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core.state import copy_rng, rebuilt
from rules.terra_sancta.state import TSState

ATOMS = ("content", "stage", "turn_player", "turn", "quiet_turns", "damaged", "building", "attack_from",
         "last_move", "last_attack", "winner", "draw", "king_touched_by_ability")
"""Fields holding immutable values (strings, numbers, frozen models), shared as they are."""
LISTS = ("players", "order", "alive", "landing", "dice")
"""Lists of immutable values, copied with `list`."""
DICTS = ("sides", "factions", "board")
"""Dicts of immutable values, copied with `dict`."""


def _start_rolls(rolls: list[list[int]]) -> list[list[int]]:
    return [list(r) for r in rolls]


HOW: dict[str, Callable[[Any], Any] | None] = {
    **dict.fromkeys(ATOMS), **dict.fromkeys(LISTS, list), **dict.fromkeys(DICTS, dict),
    "start_rolls": _start_rolls, "rng": copy_rng,
}
"""How each field of `TSState` is copied (None: shared)."""


_COPIED = tuple((name, copy) for name, copy in HOW.items() if copy is not None)
"""The fields copied (not shared), with how."""


def copy_state(s: TSState) -> TSState:
    """A copy of `s` sharing nothing mutable with it (its fields in the same order): all its
    fields at once, then each mutable one replaced by its copy, written out field by field
    (`copy_by_table` does the same walking `HOW`; a test compares them, and another that `HOW`
    names every field)."""
    fields = s.__dict__.copy()
    fields["players"] = list(fields["players"])
    fields["order"] = list(fields["order"])
    fields["alive"] = list(fields["alive"])
    fields["landing"] = list(fields["landing"])
    fields["dice"] = list(fields["dice"])
    fields["sides"] = dict(fields["sides"])
    fields["factions"] = dict(fields["factions"])
    fields["board"] = dict(fields["board"])
    fields["start_rolls"] = _start_rolls(fields["start_rolls"])
    fields["rng"] = copy_rng(fields["rng"])
    copied: TSState = rebuilt(s, fields)
    return copied


def copy_by_table(s: TSState) -> TSState:
    """`copy_state` the long way: each field copied as `HOW` says."""
    fields = s.__dict__.copy()
    for name, copy in _COPIED:
        fields[name] = copy(fields[name])
    copied: TSState = rebuilt(s, fields)
    return copied
