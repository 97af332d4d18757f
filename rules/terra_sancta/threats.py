"""What the enemies of a player could hit next: the automatic player's threat map, computed
straight from the move tables.

`threat_levels` is the `threat` half of `policy.threat_map` (square -> expected damage the
enemies could deal there), built without a set of targets per piece; `king_attackers` is the
`reach` half asked about one king, found by looking outwards from the king instead of from every
enemy piece. Tests check both against `policy.threat_map` over many positions.

The expected damage of one piece is 4.5 (a d8) or 8.5 (a d16), so every sum is exact in floating
point whatever the order of the pieces.
"""

from __future__ import annotations

from collections import Counter

from rules.terra_sancta.board import DIAGONAL, ORTHOGONAL
from rules.terra_sancta.content import FactionSheet, factions_of
from rules.terra_sancta.movegen import KNIGHT_PATHS, RAYS, STEPS_ALL, STEPS_DIAGONAL, hooks
from rules.terra_sancta.pieces import Piece, attack_die
from rules.terra_sancta.state import TSState

_SMALL = (attack_die("P") + 1) / 2
_LARGE = (attack_die("K") + 1) / 2
_KNIGHT_TARGETS = [tuple(t for t, _ in paths) for paths in KNIGHT_PATHS]
"""_KNIGHT_TARGETS[square]: the squares a knight reaches from there."""
_SLIDES = {"R": ORTHOGONAL, "B": DIAGONAL, "Q": ORTHOGONAL + DIAGONAL}


def enemy_sheets(s: TSState, player: str) -> dict[str, FactionSheet]:
    """owner -> faction sheet, for every other player with a faction."""
    sheets = factions_of(s.content)
    return {p: sheets[f] for p, f in s.factions.items() if p != player}


def _shot_targets(board: dict[int, Piece], sq: int, piece: Piece, sheet: FactionSheet) -> list[int]:
    """`[m.to for m in movegen.shots(board, sq, sheet)]` without building the moves."""
    if piece.kind == "K":
        return []
    reach = sheet.ability.pawn_range if piece.kind == "P" else sheet.ability.large_range
    out = []
    for ray in RAYS[sq].values():
        for dist, to in enumerate(ray[:reach], start=1):
            other = board.get(to)
            if other is None:
                continue
            if dist >= 2 and other.owner != piece.owner and other.kind != "K":
                out.append(to)
            break
    return out


def threat_levels(s: TSState, player: str) -> dict[int, float]:
    """square -> the expected damage the enemies of `player` could deal there next (the squares
    no enemy reaches are left out), as `policy.threat_map` counts it: the targets of the small
    and of the large pieces are listed, counted, and each count weighed by its die."""
    board = s.board
    sheets = enemy_sheets(s, player)
    found = {owner: (sheet, hooks(sheet)) for owner, sheet in sheets.items()}
    small: list[int] = []
    large: list[int] = []
    for sq, p in board.items():
        owner = p.owner
        if owner == player:
            continue
        kind = p.kind
        sheet, hook = found[owner]
        if kind == "P":
            small.extend(STEPS_DIAGONAL[sq])
            if hook.ranged:  # 2+ squares away, one per line: never a diagonal step, never twice
                small.extend(_shot_targets(board, sq, p, sheet))
            continue
        if kind == "K" or kind == "N":
            around = STEPS_ALL[sq] if kind == "K" else _KNIGHT_TARGETS[sq]
            for t in around:
                other = board.get(t)
                if other is None or other.owner != owner:
                    large.append(t)
            if hook.ranged and kind == "N":  # along a line: never a knight's target
                large.extend(_shot_targets(board, sq, p, sheet))
            continue
        reach = hook.reach[kind]
        rays = RAYS[sq]
        targets: list[int] = []
        for d in _SLIDES[kind]:
            for t in rays[d][:reach]:
                other = board.get(t)
                if other is None:
                    targets.append(t)
                    continue
                if other.owner != owner:
                    targets.append(t)
                break
        if hook.ranged:  # a shot may hit the square its slide attacks: count it once
            targets.extend([t for t in _shot_targets(board, sq, p, sheet) if t not in targets])
        large.extend(targets)
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
