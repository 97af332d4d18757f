"""The actions of a move's steps made once and kept, for the steps that recur most.

Choosing a piece (`TerraSancta.piece_action`) is a function of the square, the piece's kind and
health and its faction sheet (the piece's name); choosing a plain move as its act
(`act_action`) of the move's two squares and the moving piece's kind alone (its words name the
kind). The same ones come back turn after turn and game after game, and an `Action` is frozen,
so the one made the first time serves every later time. Attacks and shots (their target's health in the text) seldom recur, so they are made
every time.

The pieces' actions name the sheet by its id and keep the sheet with the action, so an id
reused by another sheet is never mistaken for it; they are dropped all at once when there are
`LIMIT` of them. The plain moves' cannot outgrow one per pair of squares and kind.
"""

from __future__ import annotations

from rules.core import Action
from rules.terra_sancta.content import FactionSheet

LIMIT = 8192
"""Kept pieces' actions (over every game) after which they are all dropped."""

_PIECES: dict[tuple[int, str, int, int], tuple[FactionSheet, Action]] = {}
_MOVES: dict[tuple[int, int, str], Action] = {}


def kept_piece_action(q: int, kind: str, hp: int, sheet: FactionSheet) -> Action | None:
    """The action choosing a `kind` with `hp` health on `q` whose sheet is `sheet`, if kept."""
    found = _PIECES.get((q, kind, hp, id(sheet)))
    return found[1] if found is not None and found[0] is sheet else None


def keep_piece_action(q: int, kind: str, hp: int, sheet: FactionSheet, action: Action) -> Action:
    """Keep `action`, the action choosing a `kind` with `hp` health on `q` whose sheet is
    `sheet`, and return it."""
    if len(_PIECES) >= LIMIT:
        _PIECES.clear()
    _PIECES[q, kind, hp, id(sheet)] = (sheet, action)
    return action


def kept_move_action(frm: int, to: int, kind: str) -> Action | None:
    """The action choosing the plain move of a `kind` from `frm` to `to`, if kept."""
    return _MOVES.get((frm, to, kind))


def keep_move_action(frm: int, to: int, kind: str, action: Action) -> Action:
    """Keep `action`, the action choosing the plain move of a `kind` from `frm` to `to`, and
    return it."""
    _MOVES[frm, to, kind] = action
    return action


def forget() -> None:
    """Drop every kept action."""
    _PIECES.clear()
    _MOVES.clear()
