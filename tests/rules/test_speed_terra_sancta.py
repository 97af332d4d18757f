"""The speed work on Terra Sancta: the threat map from the move tables, the automatic player's
scores written out, single actions built for the land and ability stages, moves found by their
fields, and the hand-made state copy. Each test shows the cheap path is taken and gives the same
answers as the long way."""

from __future__ import annotations

import pytest

from rules.core import Action, IllegalAction, Rng
from rules.core import state as core_state
from rules.core.state import independent_copy
from rules.core.steps import Option
from rules.terra_sancta import GAME as TS
from rules.terra_sancta import policy
from rules.terra_sancta.board import PLAYABLE, SQUARES, parse_square, square_name
from rules.terra_sancta.content import factions_of
from rules.terra_sancta.copying import HOW, copy_state
from rules.terra_sancta.factions import ability_targets, shot_die
from rules.terra_sancta.game import TerraSancta
from rules.terra_sancta.movegen import Move, landing_squares, piece_moves
from rules.terra_sancta.pieces import KIND_NAMES, KINDS, attack_die
from rules.terra_sancta.plans import ABILITY_PLANS, LAND, act_value, find_move, offer
from rules.terra_sancta.policy import (
    _DISTANCE,
    KING_AIM,
    LEADER_BONUS,
    PRESS,
    PULL,
    VALUE,
    _expected_dealt,
    _kill_chance,
    _risk,
    king_aims,
    leading_enemy,
    safest_landing,
    threat_map,
)
from rules.terra_sancta.state import TSState
from rules.terra_sancta.threats import king_attackers, threat_levels
from tests.support.playout import automatic_positions


def _positions(players: int, seeds: range, random_share: int = 0):
    """Every position of these seeded games (random factions), some moves chosen at random."""
    return automatic_positions(TS, players, seeds, 10_000, {"factions": "random"}, random_share)


_POSITIONS = {n: list(_positions(n, range(3), 25)) for n in (2, 4)}


def _all_positions():
    return _POSITIONS[2] + _POSITIONS[4]


def reference_scores(s: TSState, player: str) -> list[tuple[float, Move]]:
    """The automatic player's scores the long way, as `policy.score_moves` was first written
    (with `threat_map`, `leading_enemy` and `king_aims` as they are)."""
    sheet = factions_of(s.content)[s.factions[player]]
    threat, reach = threat_map(s, player)
    board = s.board
    my_king = next((q for q, p in board.items() if p.owner == player and p.kind == "K"), None)
    attackers = reach.get(my_king, set()) if my_king is not None else set()
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
    squares = [q for q in sorted(board) if board[q].owner == player]
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
                value = VALUE[target.kind] + (8.0 if m.to in attackers else 0.0)
                pk = _kill_chance(die, target.hp)
                dealt = _expected_dealt(die, target.hp)
                wound = (dealt / target.max_hp) * value * 0.5
                if m.kind == "attack" and drain and piece.kind != "K":  # it ends healthier, so safer
                    mover = piece._replace(hp=int(min(piece.max_hp, piece.hp + dealt * drain)))
                score += (pk * value + (1 - pk) * wound) * (1 + LEADER_BONUS * (target.owner == leader))
                if m.kind == "shot":
                    end = sq
                elif pk < 0.5:  # most likely a wound: it lands on a free square of its path
                    end = safest_landing(s, player, mover, landing_squares(board, m),
                                         [threat.get(q, 0.0) for q in SQUARES])
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


def _turn_positions(players: int) -> list[tuple[TSState, str]]:
    return [(s, s.turn_player) for s in _POSITIONS[players] if s.stage == "select" and s.turn_player]


# --- the threat map ------------------------------------------------------------------------


def test_threat_levels_and_king_attackers_equal_the_threat_map():
    checked = 0
    for s in _all_positions():
        if s.stage == "faction":
            continue
        for player in s.alive:
            threat, reach = threat_map(s, player)
            assert threat_levels(s, player) == threat
            for q, p in s.board.items():
                if p.kind == "K" and p.owner == player:
                    assert king_attackers(s, q) == reach.get(q, set())
                    checked += 1
    assert checked > 1000


def test_king_aims_are_the_squares_attacking_the_king_the_long_way():
    from rules.terra_sancta.board import ALL_DIRECTIONS, chebyshev, offset
    from rules.terra_sancta.movegen import KNIGHT_PATHS

    for s in _POSITIONS[4][::20]:
        for k, p in s.board.items():
            if p.kind != "K":
                continue
            aims = king_aims(s.board, k)
            diag = aims["B"]
            assert aims["K"] == {q for q in (offset(k, df, dr) for df, dr in ALL_DIRECTIONS) if q is not None}
            assert aims["N"] == {t for t, _ in KNIGHT_PATHS[k]}
            assert aims["P"] == {q for q in diag if chebyshev(q, k) == 1}


# --- the automatic player's scores -----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_score_moves_gives_the_very_same_scores_as_the_long_way(players):
    checked = 0
    for s, player in _turn_positions(players):
        assert policy.score_moves(s, player) == reference_scores(s, player)
        checked += 1
    assert checked > 300


def test_the_automatic_player_never_builds_the_full_threat_map(monkeypatch):
    positions = [s for s in _POSITIONS[4] if s.stage in ("select", "land", "ability")][:400]
    assert {s.stage for s in positions} == {"select", "land", "ability"}
    expected = [TS.auto_action(s, s.turn_player, Rng(seed=1)) for s in positions]
    policy._cache.clear()
    fail = lambda *a: pytest.fail("the long way was taken")  # noqa: E731
    monkeypatch.setattr(policy, "threat_map", fail)
    monkeypatch.setattr(TerraSancta, "legal_actions", fail)
    for s, action in zip(positions, expected, strict=True):
        if s.stage == "select" and s.building is None and action.key == "pass":
            continue  # nobody can act: Pass is the only legal action
        assert TS.auto_action(s, s.turn_player, Rng(seed=1)) == action


# --- single actions for the land and ability stages -------------------------------------------


def _land_the_long_way(s: TSState) -> list:
    """The landing actions as `legal_actions` first made them, through the plan's `offer`."""
    return offer(LAND, None, lambda a, c: [
        Option(value=square_name(q), label=f"Land on {square_name(q)}") for q in s.landing])


def _ability_the_long_way(s: TSState, p: str) -> list:
    """The extra actions as `legal_actions` first made them, through the plan's `offer`."""
    sheet = TS.sheet(s, p)
    verb = "Lightning at" if sheet.ability.kind == "lightning" else "Regrow"
    return offer(ABILITY_PLANS[sheet.ability.kind], None, lambda a, c: [
        Option(value=square_name(q), label=f"{verb} {KIND_NAMES[s.board[q].kind]} {square_name(q)} "
                                           f"({s.board[q].hp}/{s.board[q].max_hp})", style="primary")
        for q in ability_targets(s, p, sheet)], group=sheet.ability.name)


def test_land_and_ability_actions_are_the_plans_own():
    land = ability = 0
    for s in _all_positions():
        p = s.turn_player
        if s.stage == "land" and p is not None:
            assert [TS.land_action(q) for q in s.landing] == _land_the_long_way(s) == TS.legal_actions(s, p)
            land += 1
        elif s.stage == "ability" and p is not None:
            sheet = TS.sheet(s, p)
            long_way = _ability_the_long_way(s, p)
            assert [TS.ability_action(s, q, sheet) for q in ability_targets(s, p, sheet)] == long_way
            assert TS.legal_actions(s, p) == [*long_way, Action(key="skip", label="Skip")]
            ability += 1
    assert land > 5 and ability > 50


def test_land_and_ability_keys_are_found_without_every_legal_action(monkeypatch):
    positions = [s for s in _all_positions() if s.stage in ("land", "ability")]
    expected = {id(s): TS.legal_actions(s, s.turn_player) for s in positions}
    monkeypatch.setattr(TerraSancta, "legal_actions", lambda *a: pytest.fail("legal_actions regenerated"))
    for s in positions:
        for action in expected[id(s)]:
            assert TS.find_action(s, s.turn_player, action.key) == action


def test_land_and_ability_keys_not_on_offer_are_refused():
    positions = [s for s in _all_positions() if s.stage in ("land", "ability")]
    for s in positions[:60]:
        p = s.turn_player
        offered = {a.key for a in TS.legal_actions(s, p)}
        prefix = "land.square:" if s.stage == "land" else f"{ABILITY_PLANS[TS.sheet(s, p).ability.kind].verb}.target:"
        upper = [k.split(":")[1].upper() for k in offered if k.startswith(prefix)]
        for name in ("a1", "zz", "e5", "f6", "g7", "h8", "e12", " e5", *upper):
            if prefix + name not in offered:
                with pytest.raises(IllegalAction):
                    TS.find_action(s, p, prefix + name)
        if s.stage == "ability":
            assert TS.find_action(s, p, "skip").key == "skip"
        else:
            with pytest.raises(IllegalAction):
                TS.find_action(s, p, "skip")


def test_a_piece_is_chosen_only_by_its_name_as_keys_write_it():
    for s in [s for s in _POSITIONS[2] if s.stage == "select" and s.building is None][:40]:
        for action in TS.legal_actions(s, s.turn_player):
            if action.key.startswith("move.piece:"):
                with pytest.raises(IllegalAction):
                    TS.find_action(s, s.turn_player, action.key.upper().replace("MOVE.PIECE", "move.piece"))


# --- moves found by their fields ---------------------------------------------------------------


def test_find_move_finds_the_move_whose_value_is_written_so():
    checked = 0
    for s in _POSITIONS[4][::3]:
        if s.stage == "faction":
            continue
        for q, piece in s.board.items():
            moves = piece_moves(s.board, q, TS.sheet(s, piece.owner))
            for m in moves:
                value = act_value(m)
                assert find_move(moves, value) == m
                assert find_move(moves, value.upper()) is None
                assert find_move(moves, value + ".x") is None
                checked += 1
            for bad in ("mv", "mv.", "xx.e5", "mv.z9", "at.e5.q1", "sh.e5.e6"):
                assert find_move(moves, bad) == next((m for m in moves if act_value(m) == bad), None)
    assert checked > 1000


# --- the state copy ----------------------------------------------------------------------------


def test_the_copy_lists_every_field_of_the_state():
    assert set(HOW) == set(TSState.model_fields)


def test_the_hand_made_copy_is_equal_and_shares_nothing_mutable():
    for s in _all_positions()[::7]:
        s.rng.scripted = [3, 1]
        c = copy_state(s)
        assert c == independent_copy(s) == s
        assert c.model_dump_json() == s.model_dump_json()
        assert c.__pydantic_fields_set__ == s.__pydantic_fields_set__
        assert list(c.__dict__) == list(s.__dict__)
        for name, value in s.__dict__.items():
            if isinstance(value, (list, dict)) or name == "rng":
                assert c.__dict__[name] is not value, name
        assert c.rng.scripted is not s.rng.scripted and c.rng.scripted == [3, 1]
        assert all(a is not b for a, b in zip(c.start_rolls, s.start_rolls, strict=True))
        s.rng.scripted = []
        c.board.clear()
        c.start_rolls.append([1])
        c.rng.counter += 1
        assert s.board and s.start_rolls != c.start_rolls and s.rng.counter != c.rng.counter


def test_apply_uses_the_hand_made_copy(monkeypatch):
    s = TS.setup(["a", "b"], {"factions": "random"}, 4)
    monkeypatch.setattr(core_state, "_copy", lambda *a: pytest.fail("the generic copy was used"))
    monkeypatch.setattr(core_state, "independent_copy", lambda *a: pytest.fail("the generic copy was used"))
    chooser = Rng(seed=4)
    for _ in range(30):
        p = TS.to_act(s)[0]
        s = TS.apply(s, p, TS.auto_action(s, p, chooser).key).state


# --- the best move without sorting, the move found once per apply -----------------------------


def test_top_move_is_the_first_of_the_sorted_scores():
    checked = 0
    for s in _all_positions():
        if s.stage != "select" or s.turn_player is None:
            continue
        p = s.turn_player
        scored = policy.score_moves(s, p)
        assert policy.top_move(s, p) == (scored[0][1] if scored else None)
        if s.building is not None:
            only = policy.score_moves(s, p, only=s.selected)
            assert policy.top_move(s, p, only=s.selected) == (only[0][1] if only else None)
        checked += 1
    assert checked > 300


def test_top_move_keeps_the_first_of_equal_scores(monkeypatch):
    """Two attacks of the first piece scored alike (targets 97 squares apart share the
    tie-break): the first generated is the top move, as the stable sort of `score_moves` has it."""
    s = next(s for s, _ in _turn_positions(4) if s.building is None)
    p = s.turn_player
    first = min(q for q, x in s.board.items() if x.owner == p)
    twins = [Move("attack", first, 10), Move("attack", first, 107)]
    monkeypatch.setattr(policy, "entries_with", lambda board, sq, *a: list(twins) if sq == first else [])
    monkeypatch.setattr(policy, "_attack_score", lambda s, p, m, piece, *a: (1.0, m.frm, piece))
    scored = policy.scored_moves(s, p)
    assert [m for _, m in scored] == twins and scored[0][0] == scored[1][0]
    assert policy.top_move(s, p) is twins[0]
    assert policy.score_moves(s, p)[0][1] is twins[0]


def test_the_automatic_player_never_sorts_every_move(monkeypatch):
    positions = [s for s in _POSITIONS[4] if s.stage == "select"][:300]
    expected = [TS.auto_action(s, s.turn_player, Rng(seed=1)) for s in positions]
    policy._cache.clear()
    monkeypatch.setattr(policy, "score_moves", lambda *a, **k: pytest.fail("every move was sorted"))
    for s, action in zip(positions, expected, strict=True):
        assert TS.auto_action(s, s.turn_player, Rng(seed=1)) == action


def _act_steps():
    """Positions where the piece is chosen, with the automatic player's act (not kept for
    `apply`, see `TerraSancta.chosen_step`: its key is checked as any other)."""
    from rules.terra_sancta import game as game_module

    for s in _POSITIONS[4][:1500]:
        if s.stage == "select" and s.building is not None:
            key = TS.auto_action(s, s.turn_player, Rng(seed=1)).key
            game_module._CHOSEN.clear()
            yield s, key


def test_apply_generates_none_of_the_pieces_moves(monkeypatch):
    """The act is looked up alone (`lookup.find_act`), not among all the piece's moves."""
    from rules.terra_sancta import game as game_module

    calls = []
    real = game_module.piece_moves

    def counting(*a):
        calls.append(a[1])
        return real(*a)

    monkeypatch.setattr(game_module, "piece_moves", counting)
    checked = 0
    for s, key in _act_steps():
        if key == "move.back":
            continue
        calls.clear()
        TS.apply(s, s.turn_player, key)
        assert calls == []
        checked += 1
    assert checked > 100


def test_the_move_found_is_the_move_looked_up_again(monkeypatch):
    real = TerraSancta._make_move
    checked = 0
    for s, key in _act_steps():
        if key == "move.back":
            continue
        assert s.building is not None

        def looked_up(self, s2, p, m, sheet, e, piece=s.building.args["piece"]):
            sheet = TS.sheet(s2, p)  # the sheet, and the move among the piece's moves by its act
            found = find_move(piece_moves(s2.board, parse_square(piece), sheet), act_value(m))
            assert found == m
            real(self, s2, p, found, sheet, e)

        monkeypatch.setattr(TerraSancta, "_make_move", looked_up)
        expected = TS.apply(s, s.turn_player, key)  # the move looked up among the piece's moves
        monkeypatch.undo()
        got = TS.apply(s, s.turn_player, key)
        assert TS.dump_state(got.state) == TS.dump_state(expected.state)
        assert [e.model_dump() for e in got.events] == [e.model_dump() for e in expected.events]
        checked += 1
    assert checked > 100


def test_the_kept_best_move_belongs_to_its_own_position():
    """The best move is kept for the turn's next step; a position of another game with the same
    seed, turn and number of pieces (the key once was only those) gets its own best move."""
    s = TS.setup(["p0", "p1"], {"factions": "random"}, 0)
    p = s.turn_player
    kept = policy.best_move(s, p)
    assert kept is not None
    other = copy_state(s)  # the piece that would move stands elsewhere: that move is gone
    free = next(q for q in sorted(PLAYABLE) if q not in s.board)
    other.board[free] = other.board.pop(kept.frm)
    assert (len(other.board), other.turn, other.rng.seed) == (len(s.board), s.turn, s.rng.seed)
    assert policy.best_move(other, p) == policy.top_move(other, p) != kept
