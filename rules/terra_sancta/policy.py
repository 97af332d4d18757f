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
from math import inf

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
    entries_with,
    landing_squares,
    move_targets,
    shots,
)
from rules.terra_sancta.pieces import KINDS, Piece, attack_die, max_health
from rules.terra_sancta.plans import ABILITY_PLANS, MOVE, SKIP
from rules.terra_sancta.seats import seat
from rules.terra_sancta.sight import BIT, BoardMasks, board_masks
from rules.terra_sancta.state import TSState
from rules.terra_sancta.threats import (
    Halved,
    ThreatTable,
    king_attackers,
    threat_lanes,
    threat_table,
)

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

_move = tuple.__new__
"""Builds a `Move` from all its fields at once (as `movegen` does)."""

_LAST = "last"
_cache: dict[str, tuple[tuple, dict[int, Piece], tuple[int, ...], Move | None]] = {}
"""`best_move`'s last answer, under `_LAST`: (the position's numbers and lists, a copy of its
board, its squares in order, the move)."""


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


def safest_landing(s: TSState, player: str, piece: Piece, options: list[int], threat: ThreatTable) -> int:
    """Where a wounding attacker should land among `options`: the square it risks least on, then
    the least threatened, then the nearest to an enemy king (to keep the pressure on). `threat`
    is by square (`threats.threat_table`)."""
    if len(options) == 1:
        return options[0]
    kings = [q for q, p in s.board.items() if p.kind == "K" and p.owner != player]
    return min(options, key=lambda q: (_risk(piece, threat[q]), threat[q],
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


_LINES = [sum(BIT[q] for ray in RAYS[k].values() for q in ray) for k in SQUARES]
"""_LINES[square]: the squares on its eight lines, on which `king_aims` of a king there depends."""
_AIMS: dict[tuple[int, int], dict[str, AbstractSet[int]]] = {}


def kept_aims(board: dict[int, Piece], king: int, taken: int) -> dict[str, AbstractSet[int]]:
    """`king_aims(board, king)` (to be read, never changed), `taken` being the board's taken
    squares (`sight.BoardMasks.taken`): kept under the taken squares on the king's lines, which
    are all it depends on."""
    key = (king, taken & _LINES[king])
    found = _AIMS.get(key)
    if found is None:
        if len(_AIMS) > 4096:
            _AIMS.clear()
        found = _AIMS[key] = king_aims(board, king)
    return found


def score_moves(s: TSState, player: str, only: int | None = None) -> list[tuple[float, Move]]:
    """Every move of `player` (or of the piece on `only`) with its score, best first (of equal
    scores, the first generated first)."""
    scored = scored_moves(s, player, only)
    scored.sort(key=lambda x: -x[0])
    return scored


def top_move(s: TSState, player: str, only: int | None = None) -> Move | None:
    """`score_moves(s, player, only)[0][1]` (None when there is no move) without sorting them
    all, nor keeping them: the first move with the highest score, which the stable sort would
    put first."""
    return _scores(s, player, only, None)


_NEAREST: dict[tuple[int, ...], list[int]] = {}
_NO_KINGS = [0] * len(SQUARES)
"""The distances to the nearest enemy king when there is none (as the score always had them)."""


def _nearest_king(kings: list[int]) -> list[int]:
    """square -> its distance to the nearest of `kings` (at least one; kept, as kings seldom
    move)."""
    key = tuple(sorted(kings))
    found = _NEAREST.get(key)
    if found is None:
        if len(_NEAREST) > 512:
            _NEAREST.clear()
        found = _NEAREST[key] = list(map(min, *(_DISTANCE[k] for k in key))) if len(key) > 1 else _DISTANCE[key[0]]
    return found


def scored_moves(s: TSState, player: str, only: int | None = None) -> list[tuple[float, Move]]:
    """Every move of `player` (or of the piece on `only`) with its score, in the order the moves
    are generated (see `score_moves`)."""
    scored: list[tuple[float, Move]] = []
    _scores(s, player, only, scored)
    return scored


def _scores(s: TSState, player: str, only: int | None, scored: list[tuple[float, Move]] | None) -> Move | None:
    """Score every move of `player` (or of the piece on `only`): into `scored` in the order the
    moves are generated, or (`scored` None) only to return the first move with the highest
    score (None when there is none), building no other plain move.

    The threat map comes from `threats` (the same numbers as `threat_map`), and every score is
    computed with the same operations in the same order as the formula always was (written out
    for speed), so the same moves come out with the very same scores."""
    seen = seat(s, player)
    sheet = seen.sheet
    board = s.board
    my_king = None
    enemy_kings: list[int] = []
    strength: dict[str, float] = {}  # as leading_enemy sums it, in the same order
    leads = sum(q != player for q in s.alive) >= 2  # only then is there a leader (`strongest`)
    mine: list[int] = []
    taken = kings = 0  # the board's masks (sight.board_masks), made on the way
    owners: dict[str, int] = {}
    for q, p in board.items():
        owner = p.owner
        bit = BIT[q]
        taken |= bit
        owners[owner] = owners.get(owner, 0) | bit
        if owner == player:
            mine.append(q)
            if p.kind == "K":
                kings |= bit
                if my_king is None:
                    my_king = q
        elif p.kind == "K":
            kings |= bit
            enemy_kings.append(q)
        elif leads:
            strength[owner] = strength.get(owner, 0.0) + VALUE[p.kind] * p.hp / _MAX_HP[p.kind]
    # the threats doubled (ints): a risk's `threat / hp` is `doubled / (2 * hp)`, the same
    # quotient rounded once, so the same float; `threat` halves a square as it is read
    doubled, attackers_of_king = threat_lanes(s, player, my_king, BoardMasks(taken, kings, owners), seen.enemies)
    threat = Halved(doubled)
    aims = [kept_aims(board, k, taken) for k in enemy_kings]
    # an enemy down to its king alone (its squares: one bit) is hunted harder
    hunt = 4.0 if any(owners[board[k].owner].bit_count() == 1 for k in enemy_kings) else 1.0
    # the longer nothing happens, the bolder it plays (to break a standoff before the draw)
    boldness = 1.0 + max(s.quiet_turns, 0) / 8
    hunt *= boldness
    if sheet.ability.kind in ("ranged", "lightning") and len(s.alive) > 2:
        hunt *= PRESS
    hunt_pull = hunt * PULL
    aim_bonus = KING_AIM * hunt
    leader = strongest(s, player, strength)
    drain = sheet.ability.drain_percent / 100 if sheet.ability.kind == "drain" else 0.0
    squares = [only] if only is not None else sorted(mine)
    reach_limits = seen.reach
    tie_base = s.turn * 7 + s.rng.seed
    aims_of_kind: dict[str, list[tuple[int, AbstractSet[int]]]] = {}
    sheet_hooks = seen.hooks
    nearest = _nearest_king(enemy_kings) if enemy_kings else _NO_KINGS
    best = None
    best_score = -inf
    best_from = -1
    for sq in squares:
        entries = entries_with(board, sq, sheet, sheet_hooks)
        if not entries:
            continue
        piece = board[sq]
        kind = piece.kind
        hp = piece.hp
        worth = VALUE[kind]
        hp2 = hp + hp
        here_threat = doubled[sq]
        here_risk = min(1.0, here_threat / hp2) * worth * RISK_WEIGHT if here_threat else 0.0
        dist_here = nearest[sq]
        is_king = kind == "K"
        hunts = not is_king and bool(enemy_kings)
        pull_share = 0.5 if kind == "P" else 1.0
        reach_limit = reach_limits[kind]
        kind_aims = aims_of_kind.get(kind)
        if kind_aims is None:
            kind_aims = aims_of_kind[kind] = [(k, aim[kind]) for k, aim in zip(enemy_kings, aims, strict=True)]
        start = -0.3 if is_king and not here_risk else 0.0
        tie_here = sq * 131 + tie_base
        for e in entries:
            if e.__class__ is int:  # a plain move to e
                end = e
                score = start
                end_threat = doubled[end]
                end_risk = min(1.0, end_threat / hp2) * worth * RISK_WEIGHT if end_threat else 0.0
                score += (here_risk - end_risk) / boldness
                if hunts:
                    score += hunt_pull * (dist_here - nearest[end]) * pull_share
                    distances = _DISTANCE[end]
                    for k, aim in kind_aims:
                        if end in aim and distances[k] <= reach_limit:
                            score += aim_bonus
                            break
                # a deterministic tie-break that still varies between games and turns
                score += ((tie_here + end * 17) % 97) * 1e-5
            else:
                assert isinstance(e, tuple)
                score, end, mover = _attack_score(s, player, e, piece, sheet, threat, attackers_of_king,
                                                  leader, drain)
                score += (here_risk - _risk(mover, threat[end])) / boldness
                if hunts:
                    score += hunt_pull * (dist_here - nearest[end]) * pull_share
                score += ((tie_here + e.to * 17) % 97) * 1e-5
            if scored is not None:
                scored.append((score, _move(Move, ("move", sq, e, (), None)) if isinstance(e, int) else e))
            elif score > best_score:
                best_score = score
                best = e
                best_from = sq
    if isinstance(best, int):  # a plain move, built now
        return _move(Move, ("move", best_from, best, (), None))
    return best


def _attack_score(s: TSState, player: str, m: Move, piece: Piece, sheet: FactionSheet, threat: ThreatTable,
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
    position): kept with everything `top_move` reads, so another game or position never gets it.
    Only the last position is kept, and its board compared (not hashed): the next step's board
    is a copy holding the very same pieces, which compare at once."""
    facts = (s.content, s.rng.seed, s.rng.counter, s.turn, s.quiet_turns, player, tuple(s.alive),
             tuple(s.factions.items()))
    board = s.board
    kept = _cache.get(_LAST)
    if kept is not None and kept[0] == facts and kept[1] == board and kept[2] == tuple(board):
        return kept[3]  # (the same squares in the same order, holding the same pieces)
    move = top_move(s, player)
    _cache[_LAST] = (facts, dict(board), tuple(board), move)
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


_TOTALS: dict[int, tuple[FactionSheet, dict[tuple[str, int], float]]] = {}


def lightning_total(sheet: FactionSheet, kind: str, hp: int) -> float:
    """The value of a lightning strike on a `kind` with `hp` health, summed over the faces of
    the die (a kill is worth the piece, a wound half its share of the piece's health)."""
    total = 0.0
    for dmg in _lightning_damages(sheet):
        total += VALUE[kind] if dmg >= hp else dmg / _MAX_HP[kind] * VALUE[kind] * 0.5
    return total


def _lightning_totals(sheet: FactionSheet) -> dict[tuple[str, int], float]:
    """(kind, health) -> `lightning_total(sheet, kind, health)`, filled as asked and kept per
    sheet."""
    found = _TOTALS.get(id(sheet))
    if found is not None and found[0] is sheet:
        return found[1]
    made: dict[tuple[str, int], float] = {}
    _TOTALS[id(sheet)] = (sheet, made)  # the sheet is kept alive with it, so its id stays its own
    return made


def _ability_choice(s: TSState, player: str) -> int | None:
    sheet = factions_of(s.content)[s.factions[player]]
    if sheet.ability.kind == "lightning":
        return _lightning_choice(s, player, sheet)
    targets = ability_targets(s, player, sheet)
    if not targets:
        return None
    board = s.board  # regrowth (no other extra action has targets)
    return max(targets, key=lambda q: (VALUE[board[q].kind] * (_MAX_HP[board[q].kind] - board[q].hp), -q))


def _lightning_choice(s: TSState, player: str, sheet: FactionSheet) -> int | None:
    """The lightning's target (`_ability_choice`): the expected value of the strike on each
    target. The targets (`ability_targets`), the player's king and the enemies' strengths
    (`leading_enemy`) are all found in one pass over the board, in its order, as each of them
    finds them in a pass of its own."""
    board = s.board
    targets: list[int] = []
    strength: dict[str, float] = {}
    my_king = None
    for q, p in board.items():
        if p.owner == player:
            if my_king is None and p.kind == "K":
                my_king = q
        elif p.kind != "K":
            targets.append(q)
            strength[p.owner] = strength.get(p.owner, 0.0) + VALUE[p.kind] * p.hp / _MAX_HP[p.kind]
    if not targets:
        return None
    targets.sort()
    die = sheet.ability.die
    attackers = king_attackers(s, my_king) if my_king is not None else set()
    leader = strongest(s, player, strength)
    totals = _lightning_totals(sheet)
    best = -1
    best_key = (-inf, 0)
    for q in targets:  # the first highest (worth, -q), as max() finds it
        p = board[q]
        total = totals.get((p.kind, p.hp))
        if total is None:
            total = totals[p.kind, p.hp] = lightning_total(sheet, p.kind, p.hp)
        key = (total / die * (1 + LEADER_LIGHTNING * (p.owner == leader)) + (3.0 if q in attackers else 0.0), -q)
        if key > best_key:
            best, best_key = q, key
    return best


def choose(game, state: TSState, player: str, rng: Rng) -> Action:
    """The automatic player's action for the current step. Only the chosen action is built, by
    the game's own maker of that action (a move's piece or act, a landing, an extra action),
    not every legal action: the move comes from the move generator on this very board, so its
    key needs no checking (`find_action` would check it), and `apply` on this state takes it
    without checking it again (`TerraSancta.chosen_step`)."""
    s = state
    if s.stage == "select" and s.building is not None:  # the piece is chosen: its act
        move = best_move(s, player)
        if move is None or move.frm != s.selected:
            move = top_move(s, player, only=s.selected)
        if move is None:
            return game.find_action(s, player, MOVE.back_key)
        return game.chosen_step(s, player, move.frm, move, game.sheet(s, player))
    if s.stage == "select":
        move = best_move(s, player)
        if move is None:
            return game.legal_actions(s, player)[0]
        return game.chosen_step(s, player, move.frm, None, game.sheet(s, player))
    if s.stage == "land":
        threat = threat_table(s, player, None, board_masks(s.board))[0]
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
