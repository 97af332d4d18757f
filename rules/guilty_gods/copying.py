"""The copy of a Guilty Gods state that `apply` changes (it never changes its input), and of a
move being built.

`rules.core.state.independent_copy` copies any model field by field, asking each value its type;
most of a Guilty Gods state is the two seats' lists of card ids (the deck alone holds up to 52),
so the seats and the moves are copied here by hand, knowing their shape: a list of card ids is
copied flat, without a look at each id. The copies share nothing mutable with the original,
exactly like `independent_copy` (a test checks both, and the shapes assumed)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from rules.core.state import ATOMS, copy_fields, copy_rng, independent_copy, rebuilt
from rules.guilty_gods.state import GgState, Move, Placed, Seat

SEAT_LISTS = ("deck", "hand", "played", "hidden")
"""The fields of a seat that are lists of card ids; the others are atoms."""



def copy_seat(seat: Seat) -> Seat:
    fields = seat.__dict__.copy()
    for name in SEAT_LISTS:
        fields[name] = fields[name][:]
    return rebuilt(seat, fields)


def _placed(p: Placed) -> Placed:
    return rebuilt(p, p.__dict__.copy())  # atoms only


def copy_move(move: Move) -> Move:
    """A copy of a move sharing nothing mutable with it: its row (cards with atoms only) and its
    steps copied, the rest atoms."""
    fields = move.__dict__.copy()
    fields["row"] = [_placed(p) for p in fields["row"]]
    fields["steps"] = fields["steps"][:]
    return rebuilt(move, fields)


def _seats(v: dict[str, Seat]) -> dict[str, Seat]:
    return {p: copy_seat(seat) for p, seat in v.items()}


def _move(v: Move | None) -> Move | None:
    return None if v is None else copy_move(v)


_BY_FIELD: dict[str, Callable[[Any], Any]] = {
    "seats": _seats, "rng": copy_rng, "players": list.copy, "options": dict.copy,
    "draft": _move, "attack": _move, "defense": _move,
}
"""How the fields whose type is known are copied; any other (the tally, the step under way, the
winners) goes through `independent_copy`'s way."""


def _value(v: Any) -> Any:
    """Any other field: a model copied as `independent_copy` does, a list of atoms (the winners)
    copied flat."""
    if isinstance(v, BaseModel):
        return independent_copy(v)
    assert type(v) is list and all(type(x) in ATOMS for x in v), f"cannot copy {v!r}"
    return v[:]


def copy_state(s: GgState) -> GgState:
    """A copy of `s` sharing nothing mutable with it (the catalogue is pinned, not copied)."""
    return copy_fields(s, _BY_FIELD, _value)
