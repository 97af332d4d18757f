"""What the enemies of a player could hit next: the automatic player's threat map, computed
straight from the move tables.

`threat_levels` is the `threat` half of `policy.threat_map` (square -> expected damage the
enemies could deal there), built from each enemy piece's targets as `sight` keeps them;
`threat_table` is the same as a list by square (each enemy's share kept between calls and
brought up to date, see `EnemyThreat`), with the attackers of one king; `threat_lanes` the same
doubled, as ints, which the automatic player reads (halving a square only when it needs the
threat itself, `Halved`).
`king_attackers` is the `reach` half asked about one king, found by looking outwards from the
king instead of from every enemy piece. Tests check them against `policy.threat_map` over many
positions.

The expected damage of one piece is 4.5 (a d8) or 8.5 (a d16), so every sum is exact in floating
point whatever the order of the pieces.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from typing import Protocol

from rules.terra_sancta.board import ORTHOGONAL, SQUARES
from rules.terra_sancta.content import FactionSheet, factions_of
from rules.terra_sancta.movegen import (
    KNIGHT_PATHS,
    RAYS,
    STEPS_ALL,
    STEPS_DIAGONAL,
    hooks,
)
from rules.terra_sancta.pieces import Piece
from rules.terra_sancta.sight import (
    BIT,
    LANE,
    BoardMasks,
    SheetSight,
    Targets,
    board_masks,
    sheet_sight,
)
from rules.terra_sancta.state import TSState

assert LANE == 16  # read back as unsigned shorts


def enemy_sheets(s: TSState, player: str) -> dict[str, FactionSheet]:
    """owner -> faction sheet, for every other player with a faction."""
    sheets = factions_of(s.content)
    return {p: sheets[f] for p, f in s.factions.items() if p != player}


def threat_levels(s: TSState, player: str) -> dict[int, float]:
    """square -> the expected damage the enemies of `player` could deal there next (the squares
    no enemy reaches are left out), as `policy.threat_map` counts it: `threat_table` as a dict."""
    table = threat_table(s, player, None, board_masks(s.board))[0]
    return {q: v for q, v in enumerate(table) if v}


_HALF = [v / 2 for v in range(17 * 64)]
"""_HALF[v] = v / 2: a threat from its lane (twice the expected damage; below 17 * 64, as 48
pieces at most could threaten one square, each weighing 17 at most)."""
_BYTES = LANE // 8 * len(SQUARES)


def threat_table(s: TSState, player: str, king: int | None,
                 masks: BoardMasks) -> tuple[list[float], set[int]]:
    """`threat_lanes` with each square's threat halved, as a float: the threat itself."""
    doubled, attackers = threat_lanes(s, player, king, masks)
    return list(map(_HALF.__getitem__, doubled)), attackers


class ThreatTable(Protocol):
    """What reads a threat table by square takes: a `threat_table` or a `Halved`."""

    def __getitem__(self, q: int, /) -> float: ...


class Halved:
    """A threat table read square by square from `threat_lanes`' doubled threats:
    `Halved(doubled)[q] == threat_table(...)[0][q]`, halving only the squares read."""

    __slots__ = ("doubled",)

    def __init__(self, doubled: list[int]) -> None:
        self.doubled = doubled

    def __getitem__(self, q: int, /) -> float:
        return _HALF[self.doubled[q]]

    def __len__(self) -> int:
        return len(self.doubled)


def threat_lanes(s: TSState, player: str, king: int | None, masks: BoardMasks,
                 enemies: Sequence[tuple[str, EnemyThreat]] | None = None) -> tuple[list[int], set[int]]:
    """Twice threat[square], an int (0 where no enemy reaches; twice the values of
    `threat_levels`), and `king_attackers(s, king)` (an empty set when `king` is None), `king` being the square of
    `player`'s king and `masks` `sight.board_masks(s.board)`. Each enemy piece's targets come
    from `sight` (kept between turns) with their weights, which add up lane by lane to twice the
    threat on each square: the weights are the expected damage of a d8 or a d16 (4.5, 8.5)
    doubled, so every sum is exact, as it always was. Each enemy's sum is kept from one call to
    the next and brought up to date (`EnemyThreat`). The king's attackers are looked for
    (`king_attackers`) only when some enemy threatens its square. `enemies` are (owner, its
    `enemy_threat`) of every other player with a faction in the order of `TSState.factions`
    (`seats.Seat.enemies`), looked up here when not given."""
    board = s.board
    taken, kings, owners = masks
    if enemies is None:
        enemies = enemy_threats(s, player)
    total = 0
    for owner, kept in enemies:
        own = owners.get(owner)
        if own is not None:  # (an enemy with no piece left threatens nothing)
            total += kept.update(board, taken, own, kings)
    doubled = memoryview(total.to_bytes(_BYTES, sys.byteorder)).cast("H").tolist()
    return doubled, king_attackers(s, king) if king is not None and doubled[king] else set()


class EnemyThreat:
    """The weights (`sight.Targets.weight`) of one enemy's pieces added up, kept from one board
    to the next and brought up to date (`update`): a piece is looked up again only when the
    board holds another kind on its square, or when a square its answer depends on
    (`sight.Targets.depends`, its own square among them) changed what it holds (taken, the
    enemy's own, a king). The kept kinds are compared with the board's and the changed squares
    come from the masks, so the sum is right on any board, even one of another game; only the
    time it takes differs."""

    __slots__ = ("sight", "taken", "own", "kings", "pieces", "weight")

    def __init__(self, sight: SheetSight) -> None:
        self.sight = sight
        self.taken = self.own = self.kings = 0
        """The masks of the board it was last brought up to date on (`own`: the enemy's squares)."""
        self.pieces: dict[int, tuple[str, int, Targets]] = {}
        """square -> the kind of the enemy's piece there on that board, the squares its targets
        depend on and its targets."""
        self.weight = 0
        """The sum of the weights of `pieces`."""

    def update(self, board: dict[int, Piece], taken: int, own: int, kings: int) -> int:
        """The enemy's weight on `board` (`taken`, `own`, `kings` being its masks), kept for the
        next board."""
        changed = (taken ^ self.taken) | (own ^ self.own) | (kings ^ self.kings)
        arrived = own & ~self.own
        # (a kept square whose contents did not change still holds a piece: its kind is read)
        stale = [sq for sq, (kind, depends, _) in self.pieces.items() if depends & changed or board[sq].kind != kind]
        for sq in stale:
            self.weight -= self.pieces.pop(sq)[2].weight
            if own & BIT[sq]:
                self._add(board, sq, taken, own, kings)
        while arrived:
            low = arrived & -arrived
            arrived ^= low
            self._add(board, low.bit_length() - 1, taken, own, kings)
        self.taken, self.own, self.kings = taken, own, kings
        return self.weight

    def _add(self, board: dict[int, Piece], sq: int, taken: int, own: int, kings: int) -> None:
        """Keep the enemy's piece on `sq` with its targets, looked up under its sight's key."""
        piece = board[sq]
        sight = self.sight
        kind = piece.kind
        seen = sight.seen[kind][sq]
        key = (sq, taken & seen, own & seen, kings & sight.kings_seen[kind][sq])
        found = sight.targets[kind].get(key)
        if found is None:
            found = sight.new_targets(board, sq, piece, key)
        self.pieces[sq] = (kind, found.depends, found)
        self.weight += found.weight


ENEMY_LIMIT = 64
"""Kept enemies (over every game, per thread) after which they are all dropped, so memory stays
bounded."""


class _KeptEnemies(threading.local):
    """The kept `EnemyThreat`s of one thread: each is brought up to date in place by the game
    that asks for it, so two games played at once in two threads must not share one."""

    def __init__(self) -> None:
        self.enemies: dict[tuple[int, str], EnemyThreat] = {}


_KEPT = _KeptEnemies()


def enemy_threat(sight: SheetSight, owner: str) -> EnemyThreat:
    """The kept `EnemyThreat` of `owner`, whose sheet's sight is `sight` (a new one at first),
    in this thread."""
    kept = _KEPT.enemies
    key = (id(sight), owner)
    found = kept.get(key)
    if found is None or found.sight is not sight:
        if len(kept) >= ENEMY_LIMIT:
            kept.clear()
        found = kept[key] = EnemyThreat(sight)
    return found


def enemy_threats(s: TSState, player: str) -> list[tuple[str, EnemyThreat]]:
    """(owner, its kept `enemy_threat`) of every other player with a faction, in the order of
    `TSState.factions`."""
    return [(owner, enemy_threat(sheet_sight(sheet), owner)) for owner, sheet in enemy_sheets(s, player).items()]


def forget_enemies() -> None:
    """Drop this thread's kept enemies."""
    _KEPT.enemies.clear()


def king_attackers(s: TSState, king: int) -> set[int]:
    """The squares of the enemy pieces that could attack the king on `king` next: the `reach` of
    `policy.threat_map` at that square (a shot never aims at a king)."""
    board = s.board
    owner = board[king].owner
    sheets = enemy_sheets(s, owner)
    out: set[int] = set()
    for q in STEPS_DIAGONAL[king]:  # a pawn attacks one step diagonally
        p = board.get(q)
        if p is not None and p.owner != owner and p.kind == "P":
            out.add(q)
    for q in STEPS_ALL[king]:
        p = board.get(q)
        if p is not None and p.owner != owner and p.kind == "K":
            out.add(q)
    for q, _ in KNIGHT_PATHS[king]:
        p = board.get(q)
        if p is not None and p.owner != owner and p.kind == "N":
            out.add(q)
    for d, ray in RAYS[king].items():
        line = "R" if d in ORTHOGONAL else "B"
        for dist, q in enumerate(ray, start=1):
            p = board.get(q)
            if p is None:
                continue
            if p.owner != owner and (p.kind == line or p.kind == "Q") and dist <= hooks(sheets[p.owner]).reach[p.kind]:
                out.add(q)
            break
    return out
