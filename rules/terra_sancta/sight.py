"""What each piece threatens, kept and looked up by what the piece can see.

The squares a piece threatens (the automatic player's threat map, see `threats`) depend only on
its square, its kind, its faction sheet and the contents of a few squares around it: the ones it
could move to, attack or shoot along (its *sight*). Of those it only matters which are taken,
which hold its own side's pieces and, for the Bots' shots (never at a king), which hold kings.
Two turns in a row mostly leave a piece's sight as it was, so the answers are kept under those
bit masks of its sight (the board's masks, `BoardMasks`, cut to it) and looked up instead of
worked out again. Each kept answer is the move generator's own (`movegen.targets_with`,
`shot_lines`), so nothing changes but the time taken. They are dropped all at once when there
are `LIMIT` of them, so memory stays bounded.

An answer also tells which squares the move generator actually read to find it (`Targets.depends`:
a slider's lines up to the first piece on them, not beyond): while none of them changes what it
holds, nor the piece's kind, the answer stays right (`threats.EnemyThreat` relies on it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rules.terra_sancta.board import SQUARES
from rules.terra_sancta.content import FactionSheet
from rules.terra_sancta.movegen import (
    _SLIDES,
    KNIGHT_PATHS,
    RAYS,
    STEPS_ALL,
    STEPS_DIAGONAL,
    _Hooks,
    _shot_rays,
    hooks,
    shot_lines,
    targets_with,
)
from rules.terra_sancta.pieces import KINDS, Piece, attack_die

BIT = [1 << q for q in SQUARES]
"""BIT[square]: that square's bit in a board mask."""

LIMIT = 20_000
"""Kept answers (over every sheet) after which they are all dropped: about a kilobyte each
(mostly the packed weight), so some 20 MB at most; the answers of one game are mostly looked up
again within it (a 4-player game keeps about 550)."""

LANE = 16
"""Bits per square in a packed threat (see `Targets.weight`)."""


class BoardMasks(NamedTuple):
    """A board as bit masks: the taken squares, the kings' squares and each owner's squares."""

    taken: int
    kings: int
    owners: dict[str, int]


def board_masks(board: dict[int, Piece]) -> BoardMasks:
    taken = kings = 0
    owners: dict[str, int] = {}
    get = owners.get
    for q, p in board.items():
        bit = BIT[q]
        taken |= bit
        owner = p.owner
        owners[owner] = get(owner, 0) | bit
        if p.kind == "K":
            kings |= bit
    return BoardMasks(taken, kings, owners)


def _mask(squares: Iterable[int]) -> int:
    out = 0
    for q in squares:
        out |= BIT[q]
    return out


def sight(sheet: FactionSheet, kind: str, sq: int) -> int:
    """The squares whose contents decide what a `kind` on `sq` threatens (0 for a pawn that
    cannot shoot: it always threatens its diagonal steps)."""
    found = hooks(sheet)
    rays = RAYS[sq]
    if kind == "P":
        out = 0
    elif kind == "K":
        return _mask(STEPS_ALL[sq])  # a king never shoots
    elif kind == "N":
        out = _mask(t for t, _ in KNIGHT_PATHS[sq])
    else:
        reach = found.reach[kind]
        out = 0
        for d in _SLIDES[kind]:
            out |= _mask(rays[d][:reach])
    if found.ranged:
        shot_reach = sheet.ability.pawn_range if kind == "P" else sheet.ability.large_range
        for ray in rays.values():
            out |= _mask(ray[:shot_reach])
    return out


def examined(board: dict[int, Piece], sq: int, kind: str, sheet: FactionSheet, found: _Hooks) -> int:
    """The mask of `sq` and of the squares whose contents the move generator reads to find what
    a `kind` on `sq` (whose sheet is `sheet`, `found` its hooks) threatens (`SheetSight.new_targets`):
    its sight (`sight`) but for the squares of a line beyond the first piece on it (a slider's
    moves, a shot), which it never reads. The answer is the same on any board whose examined
    squares hold the same things (taken or not, the piece's owner's or not, a king or not)."""
    out = BIT[sq]
    if kind == "K":
        return out | _mask(STEPS_ALL[sq])  # a king never shoots
    if kind == "N":
        out |= _mask(t for t, _ in KNIGHT_PATHS[sq])
    elif kind != "P":  # (a pawn threatens its diagonal steps whatever stands there)
        for ray in found.slides[kind][sq]:
            for to in ray:
                out |= BIT[to]
                if to in board:
                    break
    if found.ranged:  # as `movegen.shot_lines` reads the lines
        for ray in _shot_rays(sheet.ability.pawn_range if kind == "P" else sheet.ability.large_range)[sq]:
            out |= BIT[ray[0]]
            if ray[0] in board:  # a piece next to it blocks the line
                continue
            for to in ray[1:]:
                out |= BIT[to]
                if to in board:
                    break
    return out


_WEIGHTS = {die: [(die + 1) << (LANE * q) for q in SQUARES] for die in (8, 16)}
"""_WEIGHTS[die][square]: the weight (see `Targets`) of one piece with that attack die there."""


class Targets(NamedTuple):
    """What one piece threatens (see `SheetSight`)."""

    squares: frozenset[int]
    weight: int
    """Twice its expected damage (its die's sides plus one) in each threatened square's lane of
    `LANE` bits (square q: bits q * LANE and up), so that the weights of many pieces add up to
    twice the threat on every square with one addition each."""
    depends: int
    """The mask of the squares the answer depends on (`examined`)."""


Key = tuple[int, int, int, int]


class SheetSight:
    """The sights of every kind and square for one faction sheet (`seen`; `kings_seen` the same
    where a king changes the answer, that is where a shot could aim, else 0), and the answers
    kept for it (`targets`, by kind), each under the key `(square, taken & seen, own & seen,
    kings & kings_seen)`, `own` being the squares of the piece's owner."""

    def __init__(self, sheet: FactionSheet) -> None:
        self.sheet = sheet
        self.hooks = hooks(sheet)
        self.seen = {kind: [sight(sheet, kind, sq) for sq in SQUARES] for kind in KINDS}
        self.kings_seen = {kind: seen if self.hooks.ranged and kind != "K" else [0] * len(SQUARES)
                           for kind, seen in self.seen.items()}
        self.targets: dict[str, dict[Key, Targets]] = {kind: {} for kind in KINDS}

    def key(self, sq: int, kind: str, masks: BoardMasks, owner: str) -> Key:
        seen = self.seen[kind][sq]
        return sq, masks.taken & seen, masks.owners[owner] & seen, masks.kings & self.kings_seen[kind][sq]

    def piece_targets(self, board: dict[int, Piece], sq: int, piece: Piece, masks: BoardMasks) -> Targets:
        """The squares the piece on `sq` threatens, as `threats.threat_levels` counts them (a
        pawn its diagonal steps, taken or not, and its shots; any other piece
        `movegen.targets_with`), `masks` being `board_masks(board)`."""
        key = self.key(sq, piece.kind, masks, piece.owner)
        found = self.targets[piece.kind].get(key)
        return found if found is not None else self.new_targets(board, sq, piece, key)

    def new_targets(self, board: dict[int, Piece], sq: int, piece: Piece, key: Key) -> Targets:
        """`piece_targets` worked out (`key` being `self.key(...)` for the piece), and kept."""
        kind = piece.kind
        if kind == "P":
            squares = frozenset(STEPS_DIAGONAL[sq])
            if self.hooks.ranged:
                squares = squares.union(to for to, _ in shot_lines(board, sq, self.sheet))
        else:
            squares = frozenset(targets_with(board, sq, self.sheet, self.hooks))
        made = self.targets[kind][key] = Targets(squares, sum(map(_WEIGHTS[attack_die(kind)].__getitem__, squares)),
                                                 examined(board, sq, kind, self.sheet, self.hooks))
        _count()
        return made

    def clear(self) -> None:
        for kept in self.targets.values():
            kept.clear()


_SIGHTS: dict[int, SheetSight] = {}


def sheet_sight(sheet: FactionSheet) -> SheetSight:
    """The `SheetSight` of `sheet` (made once per sheet and kept)."""
    found = _SIGHTS.get(id(sheet))
    if found is not None and found.sheet is sheet:
        return found
    made = _SIGHTS[id(sheet)] = SheetSight(sheet)  # it keeps the sheet alive, so the id stays its own
    return made


_kept = 0
"""How many answers are kept now, over every sheet."""


def _count() -> None:
    global _kept
    _kept += 1
    if _kept > LIMIT:
        forget()


def forget() -> None:
    """Drop every kept answer."""
    global _kept
    for kept in _SIGHTS.values():
        kept.clear()
    _kept = 0
