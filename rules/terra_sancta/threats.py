"""What the enemies of a player could hit next: the automatic player's threat map, computed
straight from the move tables.

`threat_levels` is the `threat` half of `policy.threat_map` (square -> expected damage the
enemies could deal there), built from each enemy piece's targets as `sight` keeps them;
`threat_table` is the same as a list by square, with the attackers of one king found on the way.
`king_attackers` is the `reach` half asked about one king, found by looking outwards from the
king instead of from every enemy piece. Tests check them against `policy.threat_map` over many
positions.

The expected damage of one piece is 4.5 (a d8) or 8.5 (a d16), so every sum is exact in floating
point whatever the order of the pieces.
"""

from __future__ import annotations

import sys

from rules.terra_sancta.board import ORTHOGONAL, SQUARES
from rules.terra_sancta.content import FactionSheet, factions_of
from rules.terra_sancta.movegen import (
    KNIGHT_PATHS,
    RAYS,
    STEPS_ALL,
    STEPS_DIAGONAL,
    hooks,
)
from rules.terra_sancta.sight import LANE, BoardMasks, board_masks, sheet_sight
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
    """threat[square] (0.0 where no enemy reaches; the values of `threat_levels`) and
    `king_attackers(s, king)` (an empty set when `king` is None), `king` being the square of
    `player`'s king and `masks` `sight.board_masks(s.board)`: the enemy pieces that threaten
    the king's square are its attackers (a pawn threatens its diagonal steps, and no shot aims at
    a king). Each piece's targets come from `sight` (kept between turns) with their weights,
    which add up lane by lane to twice the threat on each square: the weights are the expected
    damage of a d8 or a d16 (4.5, 8.5) doubled, so every sum is exact, as it always was."""
    board = s.board
    sights = {owner: sheet_sight(sheet) for owner, sheet in enemy_sheets(s, player).items()}
    taken, kings, owners = masks
    total = 0
    attackers: set[int] = set()
    for sq, p in board.items():
        owner = p.owner
        if owner == player:
            continue
        sight = sights[owner]
        kind = p.kind
        seen = sight.seen[kind][sq]
        key = (sq, taken & seen, owners[owner] & seen, kings & sight.kings_seen[kind][sq])
        found = sight.targets[kind].get(key)
        if found is None:
            found = sight.new_targets(board, sq, p, key)
        total += found.weight
        if king in found.squares:
            attackers.add(sq)
    lanes = memoryview(total.to_bytes(_BYTES, sys.byteorder)).cast("H")
    return list(map(_HALF.__getitem__, lanes)), attackers


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
