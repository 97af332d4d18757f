"""The one state copy every game uses before changing a state."""

from __future__ import annotations

from typing import NamedTuple

import pytest
from pydantic import BaseModel, ConfigDict

from rules.core import Rng
from rules.core.state import independent_copy


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str


class Piece(NamedTuple):
    owner: str
    hp: int


class Inner(BaseModel):
    items: list[str]


class State(BaseModel):
    hands: dict[str, list[str]]
    board: dict[int, Piece]
    cards: list[Frozen]
    inner: Inner
    seen: set[str]
    rng: Rng
    note: str | None = None


def test_nothing_mutable_is_shared_and_what_cannot_change_is():
    s = State(hands={"a": ["x"]}, board={1: Piece("a", 3)}, cards=[Frozen(name="c")],
              inner=Inner(items=["i"]), seen={"q"}, rng=Rng(seed=1).script(4))
    c = independent_copy(s)
    assert c == s and c is not s
    c.hands["a"].append("y")
    c.board[2] = Piece("b", 1)
    c.inner.items.append("j")
    c.seen.add("r")
    assert c.rng.roll(6) == 4 and s.rng.counter == 0
    assert s.hands == {"a": ["x"]} and 2 not in s.board and s.inner.items == ["i"] and s.seen == {"q"}
    assert c.cards[0] is s.cards[0] and c.board[1] is s.board[1]  # frozen values are shared


def test_an_unknown_mutable_value_is_refused():
    class Odd(BaseModel):
        model_config = ConfigDict(arbitrary_types_allowed=True)
        thing: object

    with pytest.raises(TypeError):
        independent_copy(Odd(thing=bytearray(b"x")))
