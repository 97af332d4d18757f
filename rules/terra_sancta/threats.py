"""What the enemies of a player could hit next: the automatic player's threat map, computed
straight from the move tables.

`threat_levels` is the `threat` half of `policy.threat_map` (square -> expected damage the
enemies could deal there), built from the move tables (`movegen.move_targets`, `shot_lines`); `king_attackers` is the
`reach` half asked about one king, found by looking outwards from the king instead of from every
enemy piece. Tests check both against `policy.threat_map` over many positions.

The expected damage of one piece is 4.5 (a d8) or 8.5 (a d16), so every sum is exact in floating
point whatever the order of the pieces.
"""

from __future__ import annotations

from collections import Counter

from rules.terra_sancta.board import ORTHOGONAL
from rules.terra_sancta.content import FactionSheet, factions_of
from rules.terra_sancta.movegen import (
    KNIGHT_PATHS,
    RAYS,
    STEPS_ALL,
    STEPS_DIAGONAL,
    hooks,
    shot_lines,
    targets_with,
)
from rules.terra_sancta.pieces import attack_die
from rules.terra_sancta.state import TSState

_SMALL = (attack_die("P") + 1) / 2
_LARGE = (attack_die("K") + 1) / 2


def enemy_sheets(s: TSState, player: str) -> dict[str, FactionSheet]:
    """owner -> faction sheet, for every other player with a faction."""
    sheets = factions_of(s.content)
    return {p: sheets[f] for p, f in s.factions.items() if p != player}


def threat_levels(s: TSState, player: str) -> dict[int, float]:
    """square -> the expected damage the enemies of `player` could deal there next (the squares
    no enemy reaches are left out), as `policy.threat_map` counts it: the targets of the small
    and of the large pieces are listed, counted, and each count weighed by its die."""
    board = s.board
    sheets = enemy_sheets(s, player)
    found = {owner: hooks(sheet) for owner, sheet in sheets.items()}
    small: list[int] = []
    large: list[int] = []
    for sq, p in board.items():
        owner = p.owner
        if owner == player:
            continue
        if p.kind == "P":  # a pawn threatens its diagonal steps, occupied or not
            small.extend(STEPS_DIAGONAL[sq])
            if found[owner].ranged:  # 2+ squares away, one per line: never a diagonal step, never twice
                small.extend(to for to, _ in shot_lines(board, sq, sheets[owner]))
        else:  # a large piece threatens where it could move, attack or shoot
            large.extend(targets_with(board, sq, sheets[owner], found[owner]))
    threat = {t: n * _SMALL for t, n in Counter(small).items()}
    get = threat.get
    for t, n in Counter(large).items():
        threat[t] = get(t, 0.0) + n * _LARGE
    return threat


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
