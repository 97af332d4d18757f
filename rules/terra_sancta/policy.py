"""The automatic player: a one-ply search with a threat map.

Each turn it scores every move, attack and shot of its pieces: the chance to kill times the
target's value (a king is worth the game), the expected wound, minus the risk its piece runs on the
square it ends on (from a map of what the enemies can reach), plus a small pull towards the nearest
enemy king and a bonus for squares from which it could hit a king next turn; the longer nobody is
hurt, the bolder it gets. An attack that will most likely only wound is judged from the square it
would land on (the safest free square of its path, the one it then picks; see `safest_landing`).
Attackers of its own king are worth more, and its king only moves to flee. Its extra action hits
the most valuable enemy it may kill (lightning) or heals its most valuable wounded piece.
With two or more enemies left it leans on the leading enemy (attacks, shots and lightning on the
strongest army count double, lightning triple) and the Bots and Thunderbirds, who cannot heal, press
towards the kings three times harder.
The plan is a pure function of the state, so it is cached between the two steps of a turn.
"""

from __future__ import annotations

from functools import cache

from rules.core import Action, Rng
from rules.terra_sancta.board import (
    ALL_DIRECTIONS,
    ORTHOGONAL,
    SQUARES,
    chebyshev,
    offset,
    square_name,
)
from rules.terra_sancta.content import factions_of
from rules.terra_sancta.factions import ability_targets, lightning_damage, shot_die
from rules.terra_sancta.movegen import (
    KNIGHT_PATHS,
    RAYS,
    STEPS_DIAGONAL,
    Move,
    landing_squares,
    move_targets,
    piece_moves,
    shots,
)
from rules.terra_sancta.pieces import KINDS, Piece, attack_die
from rules.terra_sancta.plans import ABILITY_PLANS, LAND, MOVE, SKIP, act_key, piece_key
from rules.terra_sancta.state import TSState

VALUE = {"P": 1.0, "N": 3.0, "B": 3.0, "R": 4.0, "Q": 7.0, "K": 60.0}
RISK_WEIGHT = 0.6
PULL = 0.06
KING_AIM = 0.8
"""Bonus for moving a piece to a square from which it could attack an enemy king next turn."""

LEADER_BONUS = 1.0
"""With two or more enemies left, attacks and shots on the leading enemy count this much extra
(a share of their score), so that the strongest army does not win by letting the others bleed.
Two-player games never have a leader, so these three numbers only change games of three or more."""
LEADER_LIGHTNING = 2.0
"""The same for a lightning strike's expected damage."""
PRESS = 3.0
"""With two or more enemies left, the Bots and Thunderbirds (no healing, so a long war of attrition
is lost) press towards the enemy kings this many times harder."""

_cache: dict[tuple, Move | None] = {}


def leading_enemy(s: TSState, player: str) -> str | None:
    """With two or more enemies left, the strongest one (the most health, weighted by piece value)."""
    strength: dict[str, float] = {}
    for p in s.board.values():
        if p.owner != player and p.kind != "K":
            strength[p.owner] = strength.get(p.owner, 0.0) + VALUE[p.kind] * p.hp / p.max_hp
    enemies = [q for q in s.alive if q != player]
    if len(enemies) < 2:
        return None
    return max(enemies, key=lambda q: (strength.get(q, 0.0), q))


@cache
def _kill_chance(die: int, hp: int) -> float:
    return max(0, die - hp + 1) / die


@cache
def _expected_dealt(die: int, hp: int) -> float:
    return sum(min(r, hp) for r in range(1, die + 1)) / die


_DISTANCE = [[chebyshev(a, b) for b in SQUARES] for a in SQUARES]
"""_DISTANCE[a][b] = chebyshev(a, b), for the inner loop of `score_moves`."""


def threat_map(s: TSState, player: str) -> tuple[dict[int, float], dict[int, set[int]]]:
    """square -> expected damage the enemies could deal there next; square -> the enemy squares
    reaching it."""
    sheets = factions_of(s.content)
    threat: dict[int, float] = {}
    reach: dict[int, set[int]] = {}
    board = s.board
    for sq, p in board.items():
        if p.owner == player:
            continue
        sheet = sheets[s.factions[p.owner]]
        if p.kind == "P":
            targets = set(STEPS_DIAGONAL[sq])
            if sheet.ability.kind == "ranged":
                targets.update(m.to for m in shots(board, sq, sheet))
        else:
            targets = move_targets(board, sq, sheet)
        dmg = (attack_die(p.kind) + 1) / 2
        for t in targets:
            threat[t] = threat.get(t, 0.0) + dmg
            reach.setdefault(t, set()).add(sq)
    return threat, reach


def _risk(piece: Piece, threat: float) -> float:
    if not threat:
        return 0.0
    return min(1.0, threat / piece.hp) * VALUE[piece.kind] * RISK_WEIGHT


def safest_landing(s: TSState, player: str, piece: Piece, options: list[int], threat: dict[int, float]) -> int:
    """Where a wounding attacker should land among `options`: the square it risks least on, then
    the least threatened, then the nearest to an enemy king (to keep the pressure on)."""
    if len(options) == 1:
        return options[0]
    kings = [q for q, p in s.board.items() if p.kind == "K" and p.owner != player]
    return min(options, key=lambda q: (_risk(piece, threat.get(q, 0.0)), threat.get(q, 0.0),
                                       min((_DISTANCE[k][q] for k in kings), default=99), q))


def king_aims(board: dict[int, Piece], king: int) -> dict[str, set[int]]:
    """kind -> the squares from which a piece of that kind could attack the king on `king`."""
    orth: set[int] = set()
    diag: set[int] = set()
    for d, ray in RAYS[king].items():
        into = orth if d in ORTHOGONAL else diag
        for q in ray:
            into.add(q)
            if q in board:
                break
    ring = {q for q in (offset(king, df, dr) for df, dr in ALL_DIRECTIONS) if q is not None}
    return {"R": orth, "B": diag, "Q": orth | diag, "N": {t for t, _ in KNIGHT_PATHS[king]},
            "P": {q for q in diag if chebyshev(q, king) == 1}, "K": ring}


def score_moves(s: TSState, player: str, only: int | None = None) -> list[tuple[float, Move]]:
    """Every move of `player` (or of the piece on `only`) with its score, best first."""
    sheet = factions_of(s.content)[s.factions[player]]
    threat, reach = threat_map(s, player)
    board = s.board
    my_king = next((q for q, p in board.items() if p.owner == player and p.kind == "K"), None)
    king_attackers = reach.get(my_king, set()) if my_king is not None else set()
    enemy_kings = [q for q, p in board.items() if p.kind == "K" and p.owner != player]
    aims = [king_aims(board, k) for k in enemy_kings]
    counts: dict[str, int] = {}
    for p in board.values():
        counts[p.owner] = counts.get(p.owner, 0) + 1
    hunt = 4.0 if any(counts.get(board[k].owner) == 1 for k in enemy_kings) else 1.0
    # the longer nothing happens, the bolder it plays (to break a standoff before the draw)
    boldness = 1.0 + max(s.quiet_turns, 0) / 8
    hunt *= boldness
    if sheet.ability.kind in ("ranged", "lightning") and len(s.alive) > 2:
        hunt *= PRESS
    leader = leading_enemy(s, player)
    drain = sheet.ability.drain_percent / 100 if sheet.ability.kind == "drain" else 0.0
    scored: list[tuple[float, Move]] = []
    squares = [only] if only is not None else [q for q in sorted(board) if board[q].owner == player]
    reach_limits = {k: sheet.piece(k).range or 11 for k in KINDS}
    tie_base = s.turn * 7 + s.rng.seed
    for sq in squares:
        piece = board[sq]
        here_risk = _risk(piece, threat.get(sq, 0.0))
        dist_here = min((_DISTANCE[sq][k] for k in enemy_kings), default=0)
        for m in piece_moves(board, sq, sheet):
            score = 0.0
            end = m.to
            mover = piece
            if m.kind != "move":
                target = board[m.to]
                die = shot_die(sheet, piece.kind) if m.kind == "shot" else attack_die(piece.kind)
                value = VALUE[target.kind] + (8.0 if m.to in king_attackers else 0.0)
                pk = _kill_chance(die, target.hp)
                dealt = _expected_dealt(die, target.hp)
                wound = (dealt / target.max_hp) * value * 0.5
                if m.kind == "attack" and drain and piece.kind != "K":  # it ends healthier, so safer
                    mover = piece._replace(hp=int(min(piece.max_hp, piece.hp + dealt * drain)))
                score += (pk * value + (1 - pk) * wound) * (1 + LEADER_BONUS * (target.owner == leader))
                if m.kind == "shot":
                    end = sq
                elif pk < 0.5:  # most likely a wound: it lands on a free square of its path
                    end = safest_landing(s, player, mover, landing_squares(board, m), threat)
                if target.kind == "K":
                    score += 2.0  # pressing a king is always worth it
            end_threat = threat.get(end, 0.0)
            if piece.kind == "K":
                score -= 0.3 if m.kind == "move" and not here_risk else 0.0
            score += (here_risk - _risk(mover, end_threat)) / boldness
            if piece.kind != "K" and enemy_kings:
                distances = _DISTANCE[end]
                dist_end = min(distances[k] for k in enemy_kings)
                score += hunt * PULL * (dist_here - dist_end) * (0.5 if piece.kind == "P" else 1.0)
                if m.kind == "move":
                    reach_limit = reach_limits[piece.kind]
                    for k, aim in zip(enemy_kings, aims, strict=True):
                        if end in aim[piece.kind] and distances[k] <= reach_limit:
                            score += KING_AIM * hunt
                            break
            # a deterministic tie-break that still varies between games and turns
            score += ((m.frm * 131 + m.to * 17 + tie_base) % 97) * 1e-5
            scored.append((score, m))
    scored.sort(key=lambda x: -x[0])
    return scored


def best_move(s: TSState, player: str) -> Move | None:
    key = (s.rng.seed, s.rng.counter, s.turn, player, len(s.board))
    if key in _cache:
        return _cache[key]
    scored = score_moves(s, player)
    move = scored[0][1] if scored else None
    if len(_cache) > 256:
        _cache.clear()
    _cache[key] = move
    return move


def _ability_choice(s: TSState, player: str) -> int | None:
    sheet = factions_of(s.content)[s.factions[player]]
    targets = ability_targets(s, player, sheet)
    if not targets:
        return None
    if sheet.ability.kind == "regrowth":
        return max(targets, key=lambda q: (VALUE[s.board[q].kind] * (s.board[q].max_hp - s.board[q].hp), -q))
    # lightning: expected value of the strike on each target
    die = sheet.ability.die
    threat, reach = threat_map(s, player)
    my_king = next((q for q, p in s.board.items() if p.owner == player and p.kind == "K"), None)
    attackers = reach.get(my_king, set()) if my_king is not None else set()
    leader = leading_enemy(s, player)

    damages = [lightning_damage(sheet, v) for v in range(1, die + 1)]

    def worth(q: int) -> float:
        p = s.board[q]
        total = 0.0
        for dmg in damages:
            total += VALUE[p.kind] if dmg >= p.hp else dmg / p.max_hp * VALUE[p.kind] * 0.5
        return total / die * (1 + LEADER_LIGHTNING * (p.owner == leader)) + (3.0 if q in attackers else 0.0)

    return max(targets, key=lambda q: (worth(q), -q))


def choose(game, state: TSState, player: str, rng: Rng) -> Action:
    """The automatic player's action for the current step. A move's step is looked up alone
    (`game.find_action`), not among every legal action."""
    s = state
    if s.stage == "select" and s.building is not None:  # the piece is chosen: its act
        move = best_move(s, player)
        if move is None or move.frm != s.selected:
            scored = score_moves(s, player, only=s.selected)
            move = scored[0][1] if scored else None
        return game.find_action(s, player, act_key(move) if move is not None else MOVE.back_key)
    if s.stage == "select":
        move = best_move(s, player)
        if move is None:
            return game.legal_actions(s, player)[0]
        return game.find_action(s, player, piece_key(move.frm))
    legal = game.legal_actions(s, player)
    by_key = {a.key: a for a in legal}
    if s.stage == "faction":
        return rng.choice(legal)
    if s.stage == "land":
        threat, _ = threat_map(s, player)
        assert s.attack_from is not None  # the land stage always follows a wounding attack
        best = safest_landing(s, player, s.board[s.attack_from], s.landing, threat)
        return by_key[LAND.step_key("square", square_name(best))]
    if s.stage == "ability":
        target = _ability_choice(s, player)
        plan = ABILITY_PLANS.get(factions_of(s.content)[s.factions[player]].ability.kind)
        if target is None or plan is None:
            return by_key[SKIP]
        return by_key.get(plan.step_key("target", square_name(target)), by_key[SKIP])
    return legal[0]
