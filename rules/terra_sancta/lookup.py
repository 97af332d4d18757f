"""One move of a piece looked up by its fields (kind, target, turn square), without generating
the piece's other moves: `find_act` answers as `plans.find_move(piece_moves(...), value)` does
(a test compares them for every piece, kind and square), so that a move's key is checked, once
when the action is found and again when it is applied, by walking only the squares it crosses."""

from __future__ import annotations

from rules.terra_sancta.board import ALL_DIRECTIONS, SQUARES
from rules.terra_sancta.content import FactionSheet
from rules.terra_sancta.movegen import (
    _SLIDES,
    KNIGHT_PATHS,
    RAYS,
    STEPS_ALL,
    STEPS_DIAGONAL,
    Move,
    hooks,
    shot_lines,
)
from rules.terra_sancta.pieces import Piece

_move = tuple.__new__
"""Builds a `Move` from all its fields at once (as `movegen` does)."""

_LINES: list[dict[int, tuple[tuple[int, int], int]]] = [
    {q: (d, i) for d in ALL_DIRECTIONS for i, q in enumerate(RAYS[sq][d])} for sq in SQUARES
]
"""_LINES[square][other]: the direction from `square` to `other` on a straight line and how many
squares lie between them."""

_KNIGHT_PATHS = [dict(paths) for paths in KNIGHT_PATHS]
"""_KNIGHT_PATHS[square][target]: the L's to that target, as `KNIGHT_PATHS` lists them."""


def find_act(board: dict[int, Piece], frm: int, sheet: FactionSheet, kind: str, to: int,
             via: int | None) -> Move | None:
    """The move of kind `kind` ('move', 'attack', 'shot') to `to` (by `via`, a knight's attack)
    of the piece on `frm`, or None when it has no such move."""
    piece = board[frm]
    found = hooks(sheet)
    if kind == "shot":
        if via is None and found.ranged:
            for target, crossed in shot_lines(board, frm, sheet):
                if target == to:
                    return _move(Move, ("shot", frm, to, crossed, None))
        return None
    other = board.get(to)
    if kind == "move":
        if other is not None:
            return None
    elif kind != "attack" or other is None or other.owner == piece.owner:
        return None
    mover = piece.kind
    if mover == "N":
        paths = _KNIGHT_PATHS[frm].get(to)
        if paths is None:
            return None
        if kind == "move":
            return _move(Move, ("move", frm, to, (), None)) if via is None else None
        for turn, squares in paths:
            if turn == via:
                return _move(Move, ("attack", frm, to, squares, turn))
        return None
    if via is not None:
        return None
    if mover == "P":
        steps = found.pawn_steps[frm] if kind == "move" else STEPS_DIAGONAL[frm]
        return _move(Move, (kind, frm, to, (), None)) if to in steps else None
    if mover == "K":
        return _move(Move, (kind, frm, to, (), None)) if to in STEPS_ALL[frm] else None
    line = _LINES[frm].get(to)
    if line is None:
        return None
    d, between = line
    if d not in _SLIDES[mover] or between >= found.reach[mover]:
        return None
    crossed = RAYS[frm][d][:between]
    for q in crossed:
        if q in board:
            return None
    return _move(Move, (kind, frm, to, () if kind == "move" else crossed, None))
