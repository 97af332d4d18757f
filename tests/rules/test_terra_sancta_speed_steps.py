"""The later speed work on Terra Sancta: moves built as whole tuples, `apply` checking a move's
step without building its action, numbers kept per sheet and kind (reach, lightning damage), and the kept best move read
with one lookup. Each test fails if the shortcut gives another answer. (The hooks looked up once
per call are covered by the threat-map and score tests of test_speed_terra_sancta.py.)"""

from __future__ import annotations

import pytest

from rules.core import IllegalAction
from rules.terra_sancta import GAME as TS
from rules.terra_sancta import policy, seats
from rules.terra_sancta.board import PLAYABLE, SQUARE_NAMES
from rules.terra_sancta.content import factions_of
from rules.terra_sancta.factions import lightning_damage
from rules.terra_sancta.movegen import Move, move_targets, piece_moves
from rules.terra_sancta.pieces import KINDS, Piece
from rules.terra_sancta.plans import act_key, piece_key
from tests.support.playout import automatic_positions


def _positions(players: int, seeds: range, random_share: int = 0):
    """Every position of these seeded games (random factions), some moves chosen at random."""
    return automatic_positions(TS, players, seeds, 10_000, {"factions": "random"}, random_share)


_POSITIONS = list(_positions(4, range(2), 25)) + list(_positions(2, range(2), 25))


def _select_positions():
    return [s for s in _POSITIONS if s.stage == "select"]


def test_moves_built_whole_are_the_named_tuples_the_fields_name():
    """`piece_moves` builds each Move from a full tuple: every field must sit in its place."""
    checked = 0
    for s in _select_positions()[::4]:
        sheets = factions_of(s.content)
        for sq, piece in s.board.items():
            sheet = sheets[s.factions[piece.owner]]
            targets = move_targets(s.board, sq, sheet)
            for m in piece_moves(s.board, sq, sheet):
                assert type(m) is Move and Move(*m) == m
                assert m.kind in ("move", "attack", "shot") and m.frm == sq and m.to in targets
                assert isinstance(m.path, tuple) and all(q in PLAYABLE for q in m.path)
                assert m.via is None or (m.kind == "attack" and piece.kind == "N" and m.via in PLAYABLE)
                other = s.board.get(m.to)
                if m.kind == "move":
                    assert other is None and m.path == () and m.via is None
                else:
                    assert other is not None and other.owner != piece.owner
                checked += 1
    assert checked > 1000


def test_the_kept_numbers_are_the_sheets_and_pieces_own():
    for sheet in factions_of(_POSITIONS[0].content).values():
        assert seats.reach_limits(sheet) == {k: sheet.piece(k).range or 11 for k in KINDS}
        if sheet.ability.kind == "lightning":
            assert policy._lightning_damages(sheet) == [lightning_damage(sheet, v)
                                                        for v in range(1, sheet.ability.die + 1)]
    for kind in KINDS:
        assert policy._MAX_HP[kind] == Piece("p0", kind, 1).max_hp


def test_apply_takes_exactly_the_move_steps_on_offer():
    """`apply` checks a move's step itself (without building the action): it must accept the
    keys `legal_actions` offers, make the same move as with the action, and refuse the rest."""
    checked = refused = 0
    for s in _select_positions()[::3]:
        p = s.turn_player
        offered = {a.key for a in TS.legal_actions(s, p)}
        if s.building is None:
            keys = [piece_key(q) for q in sorted(PLAYABLE)]
        else:
            frm = s.selected
            keys = [act_key(m) for m in piece_moves(s.board, frm, factions_of(s.content)[s.factions[p]])]
            keys += [f"move.act:move.{name}" for name in list(SQUARE_NAMES)[::7]]
            keys += [k.upper() for k in keys[:2]]
        for key in keys:
            if key not in offered:
                with pytest.raises(IllegalAction):
                    TS.apply(s, p, key)
                refused += 1
                continue
            expected = TS.find_action(s, p, key)
            by_key = TS.apply(s, p, key)
            by_action = TS.apply(s, p, expected)
            assert TS.dump_state(by_key.state) == TS.dump_state(by_action.state)
            assert by_key.state.building == by_action.state.building
            assert [e.model_dump() for e in by_key.events] == [e.model_dump() for e in by_action.events]
            checked += 1
    assert checked > 300 and refused > 300


def test_a_kept_answer_of_no_move_is_not_looked_for_again(monkeypatch):
    """The kept best move is read with one lookup: a kept None is an answer, not a miss."""
    s = next(s for s in _select_positions() if s.building is None)
    calls = []

    def none(*a, **k):
        calls.append(a)
        return None

    monkeypatch.setattr(policy, "top_move", none)
    policy._cache.clear()
    assert policy.best_move(s, s.turn_player) is None
    assert policy.best_move(s, s.turn_player) is None
    assert len(calls) == 1
    policy._cache.clear()
