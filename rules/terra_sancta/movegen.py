"""One move generator for every faction, with the faction's small hooks (slide range, pawn
diagonal steps, the Bots' shots), in the way python-chess handles variants.

A `Move` is a plain move, a melee attack or a shot. Attacks carry the path the attacker took, which
decides where it may land when the target survives.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.terra_sancta.board import (
    ALL_DIRECTIONS,
    DIAGONAL,
    KNIGHT_JUMPS,
    ORTHOGONAL,
    SQUARES,
    offset,
)
from rules.terra_sancta.content import FactionSheet
from rules.terra_sancta.pieces import Piece


class Move(NamedTuple):
    kind: str
    """'move', 'attack' (melee) or 'shot' (the Bots' ranged fire: the shooter stays)."""
    frm: int
    to: int
    path: tuple[int, ...] = ()
    """Squares crossed between `frm` and `to`, in order from `frm` (a knight: its chosen L). After a
    wound the attacker lands on one of them (see `landing_squares`)."""
    via: int | None = None
    """A knight attack: the square where its L turns, naming the path."""


def _ray(sq: int, df: int, dr: int) -> tuple[int, ...]:
    out = []
    cur = offset(sq, df, dr)
    while cur is not None:
        out.append(cur)
        cur = offset(cur, df, dr)
    return tuple(out)


RAYS: list[dict[tuple[int, int], tuple[int, ...]]] = [
    {d: _ray(sq, *d) for d in ALL_DIRECTIONS} for sq in SQUARES
]
"""RAYS[square][direction]: the squares in that direction up to the edge."""


def _knight_paths(sq: int) -> list[tuple[int, list[tuple[int, tuple[int, int]]]]]:
    """(target, [(turn square, (first, second) crossed squares)]) for every L from `sq`."""
    out: list[tuple[int, list[tuple[int, tuple[int, int]]]]] = []
    for df, dr in KNIGHT_JUMPS:
        target = offset(sq, df, dr)
        if target is None:
            continue
        paths: list[tuple[int, tuple[int, int]]] = []
        sf, sr = (1 if df > 0 else -1), (1 if dr > 0 else -1)
        if abs(df) == 2:
            long_first = (offset(sq, sf, 0), offset(sq, 2 * sf, 0))
            short_first = (offset(sq, 0, sr), offset(sq, sf, sr))
            turns = (long_first[1], short_first[0])
        else:
            long_first = (offset(sq, 0, sr), offset(sq, 0, 2 * sr))
            short_first = (offset(sq, sf, 0), offset(sq, sf, sr))
            turns = (long_first[1], short_first[0])
        for turn, (first, second) in zip(turns, (long_first, short_first), strict=True):
            if turn is not None and first is not None and second is not None:
                paths.append((turn, (first, second)))
        if paths:  # an L must stay on the board
            out.append((target, paths))
    return out


KNIGHT_PATHS = [_knight_paths(sq) for sq in SQUARES]


def _steps(sq: int, dirs: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    return tuple(t for t in (offset(sq, df, dr) for df, dr in dirs) if t is not None)


STEPS_ORTHOGONAL = [_steps(sq, ORTHOGONAL) for sq in SQUARES]
STEPS_DIAGONAL = [_steps(sq, DIAGONAL) for sq in SQUARES]
STEPS_ALL = [_steps(sq, ALL_DIRECTIONS) for sq in SQUARES]
"""STEPS_*[square]: the squares one step away in those directions (in their order), on the board."""
_SLIDES = {"R": ORTHOGONAL, "B": DIAGONAL, "Q": ALL_DIRECTIONS}


class _Hooks(NamedTuple):
    """What a faction sheet changes in the move generator, read once per sheet."""

    pawn_steps: list[tuple[int, ...]]
    reach: dict[str, int]
    ranged: bool
    slides: dict[str, list[list[tuple[int, ...]]]]
    """slides[kind][square]: a slider's rays from there (in `_SLIDES[kind]` order), each cut to
    its reach: `[RAYS[square][d][:reach[kind]] for d in _SLIDES[kind]]`, cut once per sheet."""


_HOOKS: dict[int, tuple[FactionSheet, _Hooks]] = {}


def hooks(sheet: FactionSheet) -> _Hooks:
    """What `sheet` changes in the move generator (read once per sheet and kept)."""
    found = _HOOKS.get(id(sheet))
    if found is not None and found[0] is sheet:
        return found[1]
    reach = {k: sheet.piece(k).range or 11 for k in _SLIDES}
    made = _Hooks(STEPS_ALL if sheet.piece("P").diagonal_step else STEPS_ORTHOGONAL, reach,
                   sheet.ability.kind == "ranged",
                   {k: [[RAYS[sq][d][:reach[k]] for d in dirs] for sq in SQUARES] for k, dirs in _SLIDES.items()})
    _HOOKS[id(sheet)] = (sheet, made)  # the sheet is kept alive with it, so its id stays its own
    return made


_move = tuple.__new__
"""Builds a `Move` from all its fields at once, skipping the named tuple's own `__new__` (the
hot loop of `piece_moves` makes thousands a game)."""


def piece_moves(board: dict[int, Piece], sq: int, sheet: FactionSheet) -> list[Move]:
    """Every move and attack of the piece on `sq` (whose faction sheet is `sheet`)."""
    return moves_with(board, sq, sheet, hooks(sheet))


def moves_with(board: dict[int, Piece], sq: int, sheet: FactionSheet, found: _Hooks) -> list[Move]:
    """`piece_moves` given `hooks(sheet)`, for callers that look them up once for many pieces:
    `entries_with`, each plain move made a Move."""
    return [entry if isinstance(entry, Move) else _move(Move, ("move", sq, entry, (), None))
            for entry in entries_with(board, sq, sheet, found)]


def entries_with(board: dict[int, Piece], sq: int, sheet: FactionSheet, found: _Hooks) -> list[Move | int]:
    """The piece's moves in `piece_moves` order, for the automatic player, which builds no Move it
    will not keep: each plain move is only its target square (an int), each attack or shot its
    Move."""
    piece = board[sq]
    kind = piece.kind
    owner = piece.owner
    out: list[Move | int] = []
    if kind == "P":
        for to in found.pawn_steps[sq]:
            if to not in board:
                out.append(to)
        for to in STEPS_DIAGONAL[sq]:
            other = board.get(to)
            if other is not None and other.owner != owner:
                out.append(_move(Move, ("attack", sq, to, (), None)))
    elif kind == "K":
        for to in STEPS_ALL[sq]:
            other = board.get(to)
            if other is None:
                out.append(to)
            elif other.owner != owner:
                out.append(_move(Move, ("attack", sq, to, (), None)))
    elif kind == "N":
        for target, paths in KNIGHT_PATHS[sq]:
            other = board.get(target)
            if other is None:
                out.append(target)
            elif other.owner != owner:
                for turn, squares in paths:
                    out.append(_move(Move, ("attack", sq, target, squares, turn)))
    else:
        for ray in found.slides[kind][sq]:
            for i, to in enumerate(ray):
                other = board.get(to)
                if other is None:
                    out.append(to)
                    continue
                if other.owner != owner:
                    out.append(_move(Move, ("attack", sq, to, ray[:i], None)))
                break
    if found.ranged:
        out.extend(shots(board, sq, sheet))
    return out


def can_act(board: dict[int, Piece], sq: int, sheet: FactionSheet) -> bool:
    """`bool(piece_moves(board, sq, sheet))`, stopping at the first move found."""
    piece = board[sq]
    kind = piece.kind
    owner = piece.owner
    found = hooks(sheet)
    if kind == "P":
        for to in found.pawn_steps[sq]:
            if to not in board:
                return True
        for to in STEPS_DIAGONAL[sq]:
            other = board.get(to)
            if other is not None and other.owner != owner:
                return True
    elif kind == "K":
        for to in STEPS_ALL[sq]:
            other = board.get(to)
            if other is None or other.owner != owner:
                return True
    elif kind == "N":
        for target, _ in KNIGHT_PATHS[sq]:
            other = board.get(target)
            if other is None or other.owner != owner:
                return True
    else:
        rays = RAYS[sq]
        for d in _SLIDES[kind]:
            ray = rays[d]
            if ray:  # the first square of the ray decides (every reach is at least 1)
                other = board.get(ray[0])
                if other is None or other.owner != owner:
                    return True
    return found.ranged and bool(shots(board, sq, sheet))


def move_targets(board: dict[int, Piece], sq: int, sheet: FactionSheet) -> set[int]:
    """`{m.to for m in piece_moves(board, sq, sheet)}` without building the moves (the threat map)."""
    return targets_with(board, sq, sheet, hooks(sheet))


def targets_with(board: dict[int, Piece], sq: int, sheet: FactionSheet, found: _Hooks) -> set[int]:
    """`move_targets` given `hooks(sheet)`, for callers that look them up once for many pieces."""
    piece = board[sq]
    kind = piece.kind
    owner = piece.owner
    out: set[int] = set()
    if kind == "P":
        for to in found.pawn_steps[sq]:
            if to not in board:
                out.add(to)
        for to in STEPS_DIAGONAL[sq]:
            other = board.get(to)
            if other is not None and other.owner != owner:
                out.add(to)
    elif kind == "K":
        for to in STEPS_ALL[sq]:
            other = board.get(to)
            if other is None or other.owner != owner:
                out.add(to)
    elif kind == "N":
        for target, _ in KNIGHT_PATHS[sq]:
            other = board.get(target)
            if other is None or other.owner != owner:
                out.add(target)
    else:
        for ray in found.slides[kind][sq]:
            for to in ray:
                other = board.get(to)
                if other is None:
                    out.add(to)
                    continue
                if other.owner != owner:
                    out.add(to)
                break
    if found.ranged:
        out.update(m.to for m in shots(board, sq, sheet))
    return out


def shots(board: dict[int, Piece], sq: int, sheet: FactionSheet) -> list[Move]:
    """The Bots' hook: shots along a clear straight line at an enemy 2+ squares away, never a king."""
    return [_move(Move, ("shot", sq, to, crossed, None)) for to, crossed in shot_lines(board, sq, sheet)]


_SHOT_RAYS: dict[int, list[list[tuple[int, ...]]]] = {}


def _shot_rays(reach: int) -> list[list[tuple[int, ...]]]:
    """_shot_rays(reach)[square]: the rays from there (in `RAYS` order) cut to `reach` squares,
    leaving out those shorter than two squares, along which no shot can be (kept per reach)."""
    found = _SHOT_RAYS.get(reach)
    if found is None:
        found = _SHOT_RAYS[reach] = [[ray[:reach] for ray in RAYS[sq].values() if len(ray[:reach]) >= 2]
                                     for sq in SQUARES]
    return found


def shot_lines(board: dict[int, Piece], sq: int, sheet: FactionSheet) -> list[tuple[int, tuple[int, ...]]]:
    """(target, the empty squares crossed) of each shot the piece on `sq` has (see `shots`): along
    each line, the first piece met, if it is two or more squares away, within reach, an enemy and
    not a king."""
    piece = board[sq]
    kind = piece.kind
    if kind == "K":
        return []
    owner = piece.owner
    out = []
    for ray in _shot_rays(sheet.ability.pawn_range if kind == "P" else sheet.ability.large_range)[sq]:
        if ray[0] in board:  # a piece next to it blocks the line
            continue
        for i in range(1, len(ray)):
            other = board.get(ray[i])
            if other is not None:
                if other.owner != owner and other.kind != "K":
                    out.append((ray[i], ray[:i]))
                break
    return out


def landing_squares(board: dict[int, Piece], move: Move) -> list[int]:
    """Where the attacker may end after wounding (the target survives), `board` being the board
    after the blow.

    A slider (or any piece with a path) must leave its start for a free square of the path it
    took, the player's choice; a knight backs along its L from the target to the first free
    square. Only when the path has no free square (an adjacent target, or a knight whose L is
    blocked on both squares) does the attacker stay where it was. A Bot's shot never moves."""
    if move.kind == "shot":
        return [move.frm]
    free = [sq for sq in move.path if sq not in board]
    if not free:
        return [move.frm]
    if move.via is not None:
        return [free[-1]]
    return free


def legal_moves(board: dict[int, Piece], player: str, sheet: FactionSheet) -> list[Move]:
    """Every move of every piece of `player`, in board order."""
    out: list[Move] = []
    for sq in sorted(board):
        if board[sq].owner == player:
            out.extend(piece_moves(board, sq, sheet))
    return out
