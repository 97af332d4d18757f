"""Copy on write of the units. The copy `apply` makes (copying.py) keeps the very characters,
enemies and NPCs of the state it came from: most moves change one or two of them, and copying
every unit was a fifth of a move's time. While `apply` runs, the state's accessors
(`BgkState.hero`, `unit`, `living_foes`, ...) hand out a unit only after replacing it by a copy
of its own (`WRITING`), so every unit that code of `apply` holds is safe to change, and no
code holds a unit that is later replaced.

Code of `apply` must therefore reach units through those accessors, never through the raw lists
(`s.party`, `battle.foes`) unless it only reads and keeps nothing (`own_party` gives the
party ready to change).

The state's random generator is shared the same way (most moves draw nothing from it: cards
are drawn from the deck): code of `apply` draws from `BgkState.own_rng()`, never from `s.rng`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

if TYPE_CHECKING:
    from rules.by_gods_and_kings.state import Foe, Held, Hero, Npc

U = TypeVar("U")
M = TypeVar("M", bound=BaseModel)


class Writing(threading.local):
    """The state `apply` is changing, and the ids of the units (and the generator) it still
    shares with the state it was copied from (those objects stay alive in that state while
    `apply` runs, so their ids cannot be taken by new objects). One per thread: moves applied
    at once in two threads never see each other's."""

    def __init__(self) -> None:
        self.state: object | None = None
        self.shared: set[int] = set()

    def begin(self, state: object, units: list[Any]) -> None:
        self.state, self.shared = state, set(map(id, units))

    def end(self) -> None:
        self.state, self.shared = None, set()


WRITING = Writing()


_SET_DICT = BaseModel.__dict__["__dict__"].__set__
_SET_FIELDS_SET = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_SET_EXTRA = BaseModel.__dict__["__pydantic_extra__"].__set__
_SET_PRIVATE = BaseModel.__dict__["__pydantic_private__"].__set__
"""The setters of a model's four slots (BaseModel.__slots__), called directly: a model's own
`__setattr__` validates, and `object.__setattr__` looks each one up by name."""


def remade(model: M, fields: dict[str, Any]) -> M:
    """`rules.core.state.rebuilt` for the models of this game's state, which hold no extra and
    no private values (a test checks): a model of the same class holding `fields`, made
    without validation, with a fields set of its own."""
    out = object.__new__(type(model))
    _SET_DICT(out, fields)
    _SET_FIELDS_SET(out, set(model.__pydantic_fields_set__))
    _SET_EXTRA(out, None)
    _SET_PRIVATE(out, None)
    return out


def built(cls: type[M], fields: dict[str, Any], fields_set: set[str]) -> M:
    """A model of class `cls` holding `fields` (every field, valid) and `fields_set` (its own
    set), made without validation, with no extra and no private values: as `remade`, for a
    model made anew (an event, an outcome; events.py)."""
    out = object.__new__(cls)
    _SET_DICT(out, fields)
    _SET_FIELDS_SET(out, fields_set)
    _SET_EXTRA(out, None)
    _SET_PRIVATE(out, None)
    return out


def changed(model: M, **values: Any) -> M:
    """A copy of the (frozen) model with these values, as pydantic's assignment would set them
    on an unfrozen one: the names join its fields set."""
    out = remade(model, {**model.__dict__, **values})
    out.__pydantic_fields_set__.update(values)
    return out


def held(x: Held) -> Held:
    return remade(x, x.__dict__.copy())


def hero(x: Hero) -> Hero:
    """A character sharing nothing mutable with `x` but its gear, which is only ever replaced
    whole (state.GEAR): copying.HOW[Hero] written out, but for the gear."""
    d = x.__dict__.copy()
    d["field"] = d["field"][:]
    d["statuses"] = d["statuses"][:]  # of frozen statuses
    d["hand"] = d["hand"][:]
    if d["held"] is not None:
        d["held"] = held(d["held"])
    return remade(x, d)


def foe(x: Foe) -> Foe:
    """An enemy sharing nothing mutable with `x` (copying.HOW[Foe] written out)."""
    d = x.__dict__.copy()
    d["field"] = d["field"][:]
    d["statuses"] = d["statuses"][:]
    return remade(x, d)


def npc(x: Npc) -> Npc:
    d = x.__dict__.copy()
    d["field"] = d["field"][:]
    d["hand"] = d["hand"][:]
    d["statuses"] = d["statuses"][:]
    return remade(x, d)


COPY: dict[str, Callable[[Any], Any]] = {"c": hero, "e": foe, "n": npc}
"""The copy of a unit by the first letter of its id."""


def owned(state: object, units: list[U], i: int) -> U:
    """`units[i]` (a list of `state`), first replaced by a copy if `apply` is changing `state`
    and still shares it."""
    unit = units[i]
    shared = WRITING.shared
    if shared and id(unit) in shared and WRITING.state is state:
        shared.discard(id(unit))
        unit = units[i] = COPY[unit.id[0]](unit)  # type: ignore[attr-defined]
    return unit


def all_owned(state: object, units: list[U]) -> list[U]:
    """The list itself, each unit of it owned (see `owned`)."""
    shared = WRITING.shared
    if shared and WRITING.state is state:
        for i, unit in enumerate(units):
            if id(unit) in shared:
                shared.discard(id(unit))
                units[i] = COPY[unit.id[0]](unit)  # type: ignore[attr-defined]
    return units
