"""The third round of speed work on Terra Sancta. Each enemy piece's targets kept under what it
can see (sight.py) and added up as packed weights (threats.threat_table); the automatic player
scoring plain moves without building them (movegen.entries_with, policy.top_move), the distance
to the nearest enemy king kept per set of kings, a king's aims kept under its lines, the
lightning values kept per sheet, and the last best move kept by comparing boards; a move's act
looked up alone (lookup.find_act), a move's steps and the extra action applied without their
plan's `handle`, the extra action's targets told square by square, the Bots' shots along
rays cut once per reach, and the state copied all at once. Each test compares the shortcut with
the long way over many positions and fails if it gives another answer."""

from __future__ import annotations

import pytest

from rules.core import Rng
from rules.terra_sancta import GAME as TS
from rules.terra_sancta import policy, sight
from rules.terra_sancta.board import PLAYABLE, SQUARES, parse_square
from rules.terra_sancta.content import factions_of
from rules.terra_sancta.copying import copy_state
from rules.terra_sancta.factions import (
    ability_targets,
    has_ability_target,
    is_ability_target,
    lightning_damage,
    use_ability,
)
from rules.terra_sancta.lookup import find_act
from rules.terra_sancta.movegen import (
    KNIGHT_PATHS,
    RAYS,
    STEPS_DIAGONAL,
    Move,
    entries_with,
    hooks,
    moves_with,
    piece_moves,
    shot_lines,
    targets_with,
)
from rules.terra_sancta.pieces import Piece
from rules.terra_sancta.plans import ABILITY_PLANS, MOVE
from rules.terra_sancta.policy import LEADER_LIGHTNING, VALUE, leading_enemy, threat_map
from rules.terra_sancta.state import TSState
from rules.terra_sancta.threats import king_attackers, threat_table
from tests.support.playout import automatic_positions


def _positions(players: int, seeds: range, random_share: int) -> list[TSState]:
    return [s for s in automatic_positions(TS, players, seeds, 10_000, {"factions": "random"}, random_share)
            if s.stage != "faction"]


_POSITIONS = _positions(4, range(2), 25) + _positions(2, range(2), 25)
"""Positions of whole games in the order they were played (so that kept answers are looked up
on the boards of the turns after them), with every faction."""


def _targets_the_long_way(s: TSState, sq: int) -> frozenset[int]:
    piece = s.board[sq]
    sheet = factions_of(s.content)[s.factions[piece.owner]]
    if piece.kind == "P":
        shots = shot_lines(s.board, sq, sheet) if hooks(sheet).ranged else []
        return frozenset(STEPS_DIAGONAL[sq]) | {to for to, _ in shots}
    return frozenset(targets_with(s.board, sq, sheet, hooks(sheet)))


def test_the_positions_hold_every_faction_and_kind():
    sheets = factions_of(_POSITIONS[0].content)
    assert {f for s in _POSITIONS for f in s.factions.values()} == set(sheets)
    assert any(hooks(sheet).ranged for sheet in sheets.values())


def test_kept_targets_are_the_move_generators_on_every_board():
    sight.forget()
    kept = checked = 0
    for s in _POSITIONS:
        masks = sight.board_masks(s.board)
        for sq, piece in s.board.items():
            seen = sight.sheet_sight(factions_of(s.content)[s.factions[piece.owner]])
            before = sight._kept
            found = seen.piece_targets(s.board, sq, piece, masks)
            kept += sight._kept == before
            assert found.squares == _targets_the_long_way(s, sq), (sq, piece)
            assert found.weight == sum((9 if piece.kind == "P" else 17) << (16 * q) for q in found.squares)
            checked += 1
    assert checked > 5000 and kept > checked * 0.8  # most answers were kept ones, from other boards


def test_kept_targets_stay_right_when_dropped_and_made_again(monkeypatch):
    monkeypatch.setattr(sight, "LIMIT", 50)
    sight.forget()
    for s in _POSITIONS[:300]:
        masks = sight.board_masks(s.board)
        for sq, piece in s.board.items():
            seen = sight.sheet_sight(factions_of(s.content)[s.factions[piece.owner]])
            assert seen.piece_targets(s.board, sq, piece, masks).squares == _targets_the_long_way(s, sq)
            assert sight._kept <= 50
    assert sum(len(k) for seen in sight._SIGHTS.values() for k in seen.targets.values()) <= 50


def test_the_threat_table_is_the_threat_map_and_its_attackers_the_kings():
    sight.forget()
    checked = 0
    for s in _POSITIONS:
        masks = sight.board_masks(s.board)
        for player in s.alive:
            threat, reach = threat_map(s, player)
            king = next(q for q, p in s.board.items() if p.owner == player and p.kind == "K")
            table, attackers = threat_table(s, player, king, masks)
            assert table == [threat.get(q, 0.0) for q in SQUARES]
            assert attackers == reach.get(king, set()) == king_attackers(s, king)
            assert threat_table(s, player, None, masks)[1] == set()
            checked += 1
    assert checked > 1000


def test_entries_are_the_moves_with_plain_moves_as_their_squares():
    checked = plain = 0
    for s in _POSITIONS[::2]:
        for sq, piece in s.board.items():
            sheet = factions_of(s.content)[s.factions[piece.owner]]
            moves = moves_with(s.board, sq, sheet, hooks(sheet))
            entries = entries_with(s.board, sq, sheet, hooks(sheet))
            assert entries == [m.to if m.kind == "move" else m for m in moves]
            assert all((type(e) is int) == (m.kind == "move") for e, m in zip(entries, moves, strict=True))
            plain += sum(type(e) is int for e in entries)
            checked += 1
    assert checked > 3000 and plain > 10_000


def test_the_top_move_is_the_first_best_of_every_scored_move():
    checked = 0
    for s in _POSITIONS:
        if s.stage != "select" or s.turn_player is None:
            continue
        scored = policy.scored_moves(s, s.turn_player)
        best = max(scored, key=lambda x: x[0])[1] if scored else None
        assert policy.top_move(s, s.turn_player) == best
        checked += 1
    assert checked > 500


def test_the_nearest_king_is_the_nearest_of_the_kings():
    policy._NEAREST.clear()
    for kings in ([55], [55, 20], [20, 55], [137, 4, 70], [4, 70, 137]):
        assert policy._nearest_king(kings) == [min(policy._DISTANCE[q][k] for k in kings) for q in SQUARES]
    assert len(policy._NEAREST) == 3  # the same kings in another order share one table


def _ability_choice_the_long_way(s: TSState, player: str) -> int | None:
    """The automatic player's extra action as it was first written."""
    sheet = factions_of(s.content)[s.factions[player]]
    targets = ability_targets(s, player, sheet)
    if not targets:
        return None
    if sheet.ability.kind == "regrowth":
        return max(targets, key=lambda q: (VALUE[s.board[q].kind] * (s.board[q].max_hp - s.board[q].hp), -q))
    die = sheet.ability.die
    my_king = next((q for q, p in s.board.items() if p.owner == player and p.kind == "K"), None)
    attackers = king_attackers(s, my_king) if my_king is not None else set()
    leader = leading_enemy(s, player)

    def worth(q: int) -> float:
        p = s.board[q]
        total = 0.0
        for v in range(1, die + 1):
            dmg = lightning_damage(sheet, v)
            total += VALUE[p.kind] if dmg >= p.hp else dmg / p.max_hp * VALUE[p.kind] * 0.5
        return total / die * (1 + LEADER_LIGHTNING * (p.owner == leader)) + (3.0 if q in attackers else 0.0)

    return max(targets, key=lambda q: (worth(q), -q))


@pytest.mark.parametrize("ability", ["lightning", "regrowth"])
def test_the_extra_action_is_chosen_as_the_long_way_chooses_it(ability):
    policy._TOTALS.clear()
    checked = 0
    for s in _POSITIONS:
        for player in s.alive:
            if factions_of(s.content)[s.factions[player]].ability.kind == ability:
                assert policy._ability_choice(s, player) == _ability_choice_the_long_way(s, player)
                checked += 1
    assert checked > 300


def _automatic_keys(seed: int, forget: bool) -> list[str]:
    names = ["p0", "p1", "p2", "p3"]
    s = TS.setup(names, {"factions": "random"}, seed)
    chooser = Rng(seed=seed)
    keys = []
    while TS.result(s) is None and len(keys) < 300:
        if forget:
            sight.forget()
            policy._NEAREST.clear()
            policy._TOTALS.clear()
        p = TS.to_act(s)[0]
        keys.append(TS.auto_action(s, p, chooser).key)
        s = TS.apply(s, p, keys[-1]).state
    return keys


def test_the_automatic_games_are_the_same_with_nothing_kept():
    """A game whose kept answers are dropped before each step (so each is worked out on its own
    board) is the game played with them kept from turn to turn."""
    sight.forget()
    assert _automatic_keys(3, forget=False) == _automatic_keys(3, forget=True)


def test_a_king_in_sight_is_told_from_another_piece():
    """The Bots never shoot a king: two boards alike but for a king or a knight in a pawn's
    line of fire get their own answers, the kept one of the first not being the second's."""
    sheet = next(f for f in factions_of(_POSITIONS[0].content).values() if hooks(f).ranged)
    seen = sight.sheet_sight(sheet)
    sight.forget()
    pawn, ahead = 5 * 12 + 5, 7 * 12 + 5  # f6, and two squares up its file: f8
    answers = []
    for kind in ("K", "N", "K"):
        board = {pawn: Piece("bots", "P", 8), ahead: Piece("other", kind, 16)}
        found = seen.piece_targets(board, pawn, board[pawn], sight.board_masks(board))
        assert found.squares == frozenset(STEPS_DIAGONAL[pawn]) | {to for to, _ in shot_lines(board, pawn, sheet)}
        answers.append(ahead in found.squares)
    assert answers == [False, True, False]


def test_a_move_step_is_applied_as_the_plan_handles_it():
    """`apply` takes a move's step itself; the plan's `handle` is the long way."""
    checked = 0
    for s in _POSITIONS[::2]:
        if s.stage != "select" or s.turn_player is None:
            continue
        p = s.turn_player
        for action in TS.legal_actions(s, p):
            if action.key in ("pass", MOVE.back_key):
                continue
            got = TS.apply(s, p, action.key)
            long_way = copy_state(s)
            step = MOVE.handle(long_way.building, action.key)
            assert step is not None
            long_way.building = step.building
            events: list = []
            if step.done is not None:
                TS._do_move(long_way, p, step.done, events)
            assert TS.dump_state(got.state) == TS.dump_state(long_way)
            assert got.state.building == long_way.building
            assert [e.model_dump() for e in got.events] == [e.model_dump() for e in events]
            checked += 1
    assert checked > 3000


def test_an_extra_action_is_had_when_it_has_a_target():
    checked = 0
    for s in _POSITIONS:
        for player in s.alive:
            sheet = factions_of(s.content)[s.factions[player]]
            assert has_ability_target(s, player, sheet) == bool(ability_targets(s, player, sheet))
            checked += has_ability_target(s, player, sheet)
            alone = copy_state(s)  # the enemies down to their kings, the player's pieces unhurt
            alone.board = {q: x._replace(hp=policy._MAX_HP[x.kind]) for q, x in s.board.items()
                           if x.kind == "K" or x.owner == player}
            assert has_ability_target(alone, player, sheet) == bool(ability_targets(alone, player, sheet))
    assert checked > 1000


def test_the_kept_best_move_needs_the_same_board_in_the_same_order(monkeypatch):
    s = next(s for s in _POSITIONS if s.stage == "select" and s.building is None)
    p = s.turn_player
    calls = []
    monkeypatch.setattr(policy, "top_move", lambda s, p: calls.append(s) or Move("move", len(calls), 0))
    policy._cache.clear()
    first = policy.best_move(s, p)
    assert policy.best_move(copy_state(s), p) is first and len(calls) == 1  # the next step's copy
    reordered = copy_state(s)
    reordered.board = dict(reversed(list(s.board.items())))
    hurt = copy_state(s)
    q, piece = next(iter(s.board.items()))
    hurt.board[q] = piece._replace(hp=piece.hp - 1 or 2)
    later = copy_state(s)
    later.rng.counter += 1
    for other in (reordered, hurt, later):
        primed = policy.best_move(s, p)
        kept = len(calls)
        assert policy.best_move(s, p) is primed and len(calls) == kept
        found = policy.best_move(other, p)
        assert found != primed and len(calls) == kept + 1  # looked for again
        assert policy.best_move(other, p) is found and len(calls) == kept + 1
    policy._cache.clear()


def test_kept_king_aims_are_the_kings_own_on_every_board():
    policy._AIMS.clear()
    checked = kept = 0
    for s in _POSITIONS:
        taken = sight.board_masks(s.board).taken
        for q, p in s.board.items():
            if p.kind == "K":
                before = len(policy._AIMS)
                assert policy.kept_aims(s.board, q, taken) == policy.king_aims(s.board, q)
                kept += len(policy._AIMS) == before
                checked += 1
    assert checked > 1000 and kept > checked // 2


def test_a_move_looked_up_alone_is_the_one_among_all_the_pieces_moves():
    """`find_act` against `find_move` over every piece's moves, for every kind, target square
    and turn square a knight's L could name (and a few it could not)."""
    checked = found = 0
    for s in _POSITIONS[::50]:
        for frm, piece in s.board.items():
            sheet = factions_of(s.content)[s.factions[piece.owner]]
            moves = piece_moves(s.board, frm, sheet)
            vias = [None, frm, *(turn for paths in KNIGHT_PATHS[frm] for turn, _ in paths[1])]
            for kind in ("move", "attack", "shot"):
                for to in PLAYABLE:
                    for via in vias:
                        expected = next((m for m in moves if (m.kind, m.to, m.via) == (kind, to, via)), None)
                        got = find_act(s.board, frm, sheet, kind, to, via)
                        assert got == expected and type(got) is type(expected), (frm, piece, kind, to, via)
                        found += got is not None
                        checked += 1
    assert checked > 100_000 and found > 1000


def test_an_ability_target_is_told_by_its_square_alone():
    checked = 0
    for s in _POSITIONS[::3]:
        for player in s.alive:
            sheet = factions_of(s.content)[s.factions[player]]
            targets = ability_targets(s, player, sheet)
            assert [q for q in SQUARES if is_ability_target(s, player, sheet, q)] == targets
            checked += len(targets)
    assert checked > 5000


def test_an_extra_action_is_applied_as_its_plan_handles_it():
    checked = 0
    for s in _POSITIONS:
        if s.stage != "ability" or s.turn_player is None:
            continue
        p = s.turn_player
        sheet = factions_of(s.content)[s.factions[p]]
        for action in TS.legal_actions(s, p):
            if action.key == "skip":
                continue
            got = TS.apply(s, p, action.key)
            long_way = copy_state(s)
            step = ABILITY_PLANS[sheet.ability.kind].handle(None, action.key)
            assert step is not None and step.done is not None
            events: list = []
            use_ability(long_way, p, sheet, parse_square(step.done["target"]), events)
            TS._end_turn(long_way, events)
            assert TS.dump_state(got.state) == TS.dump_state(long_way)
            assert [e.model_dump() for e in got.events] == [e.model_dump() for e in events]
            checked += 1
    assert checked > 300


def _shot_lines_the_long_way(board: dict, sq: int, pawn_range: int, large_range: int) -> list:
    """The Bots' shots as first written: along every line, the first piece met within reach."""
    piece = board[sq]
    if piece.kind == "K":
        return []
    reach = pawn_range if piece.kind == "P" else large_range
    out = []
    for ray in RAYS[sq].values():
        for dist, to in enumerate(ray[:reach], start=1):
            other = board.get(to)
            if other is None:
                continue
            if dist >= 2 and other.owner != piece.owner and other.kind != "K":
                out.append((to, ray[:dist - 1]))
            break
    return out


@pytest.mark.parametrize("ranges", [None, (1, 1), (3, 5), (4, 11)])
def test_shot_lines_are_the_first_pieces_met_within_reach(ranges):
    bots = next(f for f in factions_of(_POSITIONS[0].content).values() if hooks(f).ranged)
    if ranges is not None:
        bots = bots.model_copy(update={"ability": bots.ability.model_copy(
            update={"pawn_range": ranges[0], "large_range": ranges[1]})})
    checked = shots = 0
    for s in _POSITIONS[::3]:
        for sq in s.board:
            got = shot_lines(s.board, sq, bots)
            assert got == _shot_lines_the_long_way(s.board, sq, bots.ability.pawn_range, bots.ability.large_range)
            checked += 1
            shots += len(got)
    assert checked > 10_000 and (shots > 1000 or ranges == (1, 1))


def test_the_automatic_player_lists_no_scores_nor_every_move(monkeypatch):
    """The best move is found in one pass over the pieces' entries: neither the scored list nor
    any piece's full list of moves is made (plain moves stay squares)."""
    positions = [s for s in _POSITIONS if s.stage == "select"][:300]
    expected = [TS.auto_action(s, s.turn_player, Rng(seed=1)) for s in positions]
    policy._cache.clear()
    fail = lambda *a, **k: pytest.fail("the long way was taken")  # noqa: E731
    monkeypatch.setattr(policy, "scored_moves", fail)
    from rules.terra_sancta import game as game_module
    monkeypatch.setattr(game_module, "piece_moves", fail)
    for s, action in zip(positions, expected, strict=True):
        assert TS.auto_action(s, s.turn_player, Rng(seed=1)) == action
