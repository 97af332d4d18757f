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

from collections.abc import Set as AbstractSet
from functools import cache

from rules.core import Action, Rng
from rules.terra_sancta.board import (
    ORTHOGONAL,
    SQUARES,
    chebyshev,
)
from rules.terra_sancta.content import FactionSheet, factions_of
from rules.terra_sancta.factions import ability_targets, lightning_damage, shot_die
from rules.terra_sancta.movegen import (
    KNIGHT_PATHS,
    RAYS,
    STEPS_ALL,
    STEPS_DIAGONAL,
    Move,
    hooks,
    landing_squares,
    move_targets,
    moves_with,
    shots,
)
from rules.terra_sancta.pieces import KINDS, Piece, attack_die, max_health
from rules.terra_sancta.plans import ABILITY_PLANS, MOVE, SKIP, act_key, piece_key
from rules.terra_sancta.state import TSState
from rules.terra_sancta.threats import king_attackers, threat_levels

VALUE = {"P": 1.0, "N": 3.0, "B": 3.0, "R": 4.0, "Q": 7.0, "K": 60.0}
_MAX_HP = {k: max_health(k) for k in KINDS}
"""`Piece.max_hp` by kind, read without the property in the hot loops."""
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
_MISSING = Move("move", -1, -1)
"""Stands for a key not in `_cache` (None is a cached answer)."""


def leading_enemy(s: TSState, player: str) -> str | None:
    """With two or more enemies left, the strongest one (the most health, weighted by piece value)."""
    strength: dict[str, float] = {}
    for p in s.board.values():
        if p.owner != player and p.kind != "K":
            strength[p.owner] = strength.get(p.owner, 0.0) + VALUE[p.kind] * p.hp / _MAX_HP[p.kind]
    return strongest(s, player, strength)


def strongest(s: TSState, player: str, strength: dict[str, float]) -> str | None:
    """The leading enemy (`leading_enemy`) given each enemy's strength."""
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


_KNIGHT_TARGETS = [frozenset(t for t, _ in paths) for paths in KNIGHT_PATHS]
"""_KNIGHT_TARGETS[square]: the squares a knight reaches from there."""
_PAWN_AIMS = [frozenset(steps) for steps in STEPS_DIAGONAL]
_KING_AIMS = [frozenset(steps) for steps in STEPS_ALL]
"""The squares from which a pawn or a king attacks a king there: fixed, so shared, not copied."""


def king_aims(board: dict[int, Piece], king: int) -> dict[str, AbstractSet[int]]:
    """kind -> the squares from which a piece of that kind could attack the king on `king`."""
    orth: set[int] = set()
    diag: set[int] = set()
    for d, ray in RAYS[king].items():
        into = orth if d in ORTHOGONAL else diag
        for q in ray:
            into.add(q)
            if q in board:
                break
    return {"R": orth, "B": diag, "Q": orth | diag, "N": _KNIGHT_TARGETS[king],
            "P": _PAWN_AIMS[king], "K": _KING_AIMS[king]}


def score_moves(s: TSState, player: str, only: int | None = None) -> list[tuple[float, Move]]:
    """Every move of `player` (or of the piece on `only`) with its score, best first (of equal
    scores, the first generated first)."""
    scored = scored_moves(s, player, only)
    scored.sort(key=lambda x: -x[0])
    return scored


def top_move(s: TSState, player: str, only: int | None = None) -> Move | None:
    """`score_moves(s, player, only)[0][1]` (None when there is no move) without sorting them
    all: the first move with the highest score, which the stable sort would put first."""
    scored = scored_moves(s, player, only)
    return max(scored, key=_score)[1] if scored else None


def _score(item: tuple[float, Move]) -> float:
    return item[0]


_REACH: dict[int, tuple[FactionSheet, dict[str, int]]] = {}


def _reach_limits(sheet: FactionSheet) -> dict[str, int]:
    """kind -> how far a piece of that kind reaches (11: the whole board), read once per sheet."""
    found = _REACH.get(id(sheet))
    if found is not None and found[0] is sheet:
        return found[1]
    made = {k: sheet.piece(k).range or 11 for k in KINDS}
    _REACH[id(sheet)] = (sheet, made)  # the sheet is kept alive with it, so its id stays its own
    return made


def scored_moves(s: TSState, player: str, only: int | None = None) -> list[tuple[float, Move]]:
    """Every move of `player` (or of the piece on `only`) with its score, in the order the moves
    are generated (see `score_moves`).

    The threat map comes from `threats` (the same numbers as `threat_map`), and every score is
    computed with the same operations in the same order as the formula always was (written out
    for speed), so the same moves come out with the very same scores."""
    sheet = factions_of(s.content)[s.factions[player]]
    threat = threat_levels(s, player)
    board = s.board
    my_king = None
    enemy_kings: list[int] = []
    counts: dict[str, int] = {}
    strength: dict[str, float] = {}  # as leading_enemy sums it, in the same order
    mine: list[int] = []
    for q, p in board.items():
        owner = p.owner
        counts[owner] = counts.get(owner, 0) + 1
        if owner == player:
            mine.append(q)
        if p.kind == "K":
            if owner == player:
                if my_king is None:
                    my_king = q
            else:
                enemy_kings.append(q)
        elif owner != player:
            strength[owner] = strength.get(owner, 0.0) + VALUE[p.kind] * p.hp / _MAX_HP[p.kind]
    attackers_of_king = king_attackers(s, my_king) if my_king is not None else set()
    aims = [king_aims(board, k) for k in enemy_kings]
    hunt = 4.0 if any(counts.get(board[k].owner) == 1 for k in enemy_kings) else 1.0
    # the longer nothing happens, the bolder it plays (to break a standoff before the draw)
    boldness = 1.0 + max(s.quiet_turns, 0) / 8
    hunt *= boldness
    if sheet.ability.kind in ("ranged", "lightning") and len(s.alive) > 2:
        hunt *= PRESS
    hunt_pull = hunt * PULL
    aim_bonus = KING_AIM * hunt
    leader = strongest(s, player, strength)
    drain = sheet.ability.drain_percent / 100 if sheet.ability.kind == "drain" else 0.0
    scored: list[tuple[float, Move]] = []
    squares = [only] if only is not None else sorted(mine)
    reach_limits = _reach_limits(sheet)
    tie_base = s.turn * 7 + s.rng.seed
    threat_at = threat.get
    aims_of_kind: dict[str, list[tuple[int, AbstractSet[int]]]] = {}
    sheet_hooks = hooks(sheet)
    for sq in squares:
        moves = moves_with(board, sq, sheet, sheet_hooks)
        if not moves:
            continue
        piece = board[sq]
        kind = piece.kind
        hp = piece.hp
        worth = VALUE[kind]
        here_threat = threat_at(sq, 0.0)
        here_risk = min(1.0, here_threat / hp) * worth * RISK_WEIGHT if here_threat else 0.0
        dist_here = min(map(_DISTANCE[sq].__getitem__, enemy_kings)) if enemy_kings else 0
        is_king = kind == "K"
        hunts = not is_king and bool(enemy_kings)
        pull_share = 0.5 if kind == "P" else 1.0
        reach_limit = reach_limits[kind]
        kind_aims = aims_of_kind.get(kind)
        if kind_aims is None:
            kind_aims = aims_of_kind[kind] = [(k, aim[kind]) for k, aim in zip(enemy_kings, aims, strict=True)]
        tie_here = sq * 131 + tie_base
        for m in moves:
            end = m.to
            plain = m.kind == "move"
            if plain:
                score = 0.0
                if is_king and not here_risk:
                    score = -0.3
                end_threat = threat_at(end, 0.0)
                end_risk = min(1.0, end_threat / hp) * worth * RISK_WEIGHT if end_threat else 0.0
            else:
                score, end, mover = _attack_score(s, player, m, piece, sheet, threat, attackers_of_king,
                                                  leader, drain)
                end_risk = _risk(mover, threat_at(end, 0.0))
            score += (here_risk - end_risk) / boldness
            if hunts:
                distances = _DISTANCE[end]
                dist_end = min(map(distances.__getitem__, enemy_kings))
                score += hunt_pull * (dist_here - dist_end) * pull_share
                if plain:
                    for k, aim in kind_aims:
                        if end in aim and distances[k] <= reach_limit:
                            score += aim_bonus
                            break
            # a deterministic tie-break that still varies between games and turns
            score += ((tie_here + m.to * 17) % 97) * 1e-5
            scored.append((score, m))
    return scored


def _attack_score(s: TSState, player: str, m: Move, piece: Piece, sheet: FactionSheet, threat: dict[int, float],
                  attackers_of_king: set[int], leader: str | None, drain: float) -> tuple[float, int, Piece]:
    """An attack's or a shot's worth before the risk and the pull (see `score_moves`), the square
    the attacker ends on and the attacker as it ends (healthier after a drain)."""
    board = s.board
    target = board[m.to]
    die = shot_die(sheet, piece.kind) if m.kind == "shot" else attack_die(piece.kind)
    value = VALUE[target.kind] + (8.0 if m.to in attackers_of_king else 0.0)
    pk = _kill_chance(die, target.hp)
    dealt = _expected_dealt(die, target.hp)
    wound = (dealt / target.max_hp) * value * 0.5
    mover = piece
    if m.kind == "attack" and drain and piece.kind != "K":  # it ends healthier, so safer
        mover = piece._replace(hp=int(min(piece.max_hp, piece.hp + dealt * drain)))
    score = 0.0
    score += (pk * value + (1 - pk) * wound) * (1 + LEADER_BONUS * (target.owner == leader))
    end = m.to
    if m.kind == "shot":
        end = m.frm
    elif pk < 0.5:  # most likely a wound: it lands on a free square of its path
        end = safest_landing(s, player, mover, landing_squares(board, m), threat)
    if target.kind == "K":
        score += 2.0  # pressing a king is always worth it
    return score, end, mover


def best_move(s: TSState, player: str) -> Move | None:
    """`top_move`, kept for the turn's next step (choosing the piece, then its act, see the same
    position): keyed on everything `top_move` reads, so another game or position never gets it."""
    key = (s.content, s.rng.seed, s.rng.counter, s.turn, s.quiet_turns, player, tuple(s.alive),
           tuple(s.factions.items()), tuple(s.board.items()))
    move = _cache.get(key, _MISSING)  # one lookup: hashing the key walks the whole board
    if move is not _MISSING:
        return move
    move = top_move(s, player)
    if len(_cache) > 256:
        _cache.clear()
    _cache[key] = move
    return move


_DAMAGES: dict[int, tuple[FactionSheet, list[int]]] = {}


def _lightning_damages(sheet: FactionSheet) -> list[int]:
    """The lightning damage of each face of the die, read once per sheet."""
    found = _DAMAGES.get(id(sheet))
    if found is not None and found[0] is sheet:
        return found[1]
    made = [lightning_damage(sheet, v) for v in range(1, sheet.ability.die + 1)]
    _DAMAGES[id(sheet)] = (sheet, made)  # the sheet is kept alive with it, so its id stays its own
    return made


def _ability_choice(s: TSState, player: str) -> int | None:
    sheet = factions_of(s.content)[s.factions[player]]
    targets = ability_targets(s, player, sheet)
    if not targets:
        return None
    if sheet.ability.kind == "regrowth":
        return max(targets, key=lambda q: (VALUE[s.board[q].kind] * (s.board[q].max_hp - s.board[q].hp), -q))
    # lightning: expected value of the strike on each target
    die = sheet.ability.die
    my_king = next((q for q, p in s.board.items() if p.owner == player and p.kind == "K"), None)
    attackers = king_attackers(s, my_king) if my_king is not None else set()
    leader = leading_enemy(s, player)

    damages = _lightning_damages(sheet)
    totals: dict[tuple[str, int], float] = {}  # (kind, health) -> the value summed over the die's faces

    def worth(q: int) -> float:
        p = s.board[q]
        total = totals.get((p.kind, p.hp))
        if total is None:
            total = 0.0
            for dmg in damages:
                total += VALUE[p.kind] if dmg >= p.hp else dmg / p.max_hp * VALUE[p.kind] * 0.5
            totals[p.kind, p.hp] = total
        return total / die * (1 + LEADER_LIGHTNING * (p.owner == leader)) + (3.0 if q in attackers else 0.0)

    return max(targets, key=lambda q: (worth(q), -q))


def choose(game, state: TSState, player: str, rng: Rng) -> Action:
    """The automatic player's action for the current step. Only the chosen action is built
    (`game.find_action` for a move's step, the game's own makers of a landing or an extra
    action), not every legal action."""
    s = state
    if s.stage == "select" and s.building is not None:  # the piece is chosen: its act
        move = best_move(s, player)
        if move is None or move.frm != s.selected:
            move = top_move(s, player, only=s.selected)
        return game.find_action(s, player, act_key(move) if move is not None else MOVE.back_key)
    if s.stage == "select":
        move = best_move(s, player)
        if move is None:
            return game.legal_actions(s, player)[0]
        return game.find_action(s, player, piece_key(move.frm))
    if s.stage == "land":
        threat = threat_levels(s, player)
        assert s.attack_from is not None  # the land stage always follows a wounding attack
        return game.land_action(safest_landing(s, player, s.board[s.attack_from], s.landing, threat))
    if s.stage == "ability":
        target = _ability_choice(s, player)
        sheet = factions_of(s.content)[s.factions[player]]
        if target is None or ABILITY_PLANS.get(sheet.ability.kind) is None:
            return game.find_action(s, player, SKIP)
        return game.ability_action(s, target, sheet)
    legal = game.legal_actions(s, player)
    if s.stage == "faction":
        return rng.choice(legal)
    return legal[0]
