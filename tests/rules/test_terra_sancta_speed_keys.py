"""The fifth round of speed work on Terra Sancta: what a move's steps are named by made once and
kept instead of at every step: the keys of a move's two steps (plans.piece_key per square,
plans.act_key per kind, target and turn square), the actions choosing a piece and a plain move
(kept_actions.py), a landing's mark made without a model copy (TerraSancta._land), and the
lightning's target found in one pass over the board (policy._lightning_choice, checked against
the long way in test_terra_sancta_speed_kept.py). Each test compares the shortcut with the long
way and fails if they differ."""

from __future__ import annotations

from rules.core import Rng
from rules.terra_sancta import GAME as TS
from rules.terra_sancta import kept_actions, plans
from rules.terra_sancta.board import SQUARES
from rules.terra_sancta.content import factions_of
from rules.terra_sancta.movegen import piece_moves
from rules.terra_sancta.state import TSState
from tests.support.playout import automatic_positions


def _positions() -> list[TSState]:
    return [s for players in (4, 2)
            for s in automatic_positions(TS, players, range(2), 10_000, {"factions": "random"}, 25)
            if s.stage != "faction"]


_POSITIONS = _positions()
"""Positions of whole games in the order they were played, with every faction."""


def test_a_kept_piece_key_is_the_one_made_anew_on_every_square():
    assert [plans.piece_key(q) for q in SQUARES] == [plans.made_piece_key(q) for q in SQUARES]
    assert plans.piece_key(4) == "move.piece:e1"


def test_a_kept_act_key_is_the_one_made_anew_for_every_move():
    """Every move, attack and shot of every piece in whole games with every faction: the kept
    key is the plan's, whether it was kept for another piece's move or made for this one."""
    plans._ACT_KEYS.clear()
    checked = kept = 0
    for s in _POSITIONS[::3]:
        for frm, piece in s.board.items():
            sheet = factions_of(s.content)[s.factions[piece.owner]]
            for m in piece_moves(s.board, frm, sheet):
                before = len(plans._ACT_KEYS)
                assert plans.act_key(m) == plans.made_act_key(m), m
                kept += len(plans._ACT_KEYS) == before
                checked += 1
    kinds = {kind for kind, _, _ in plans._ACT_KEYS}
    vias = sum(via is not None for _, _, via in plans._ACT_KEYS)
    assert checked > 20_000 and kept > checked // 2 and kinds == {"move", "attack", "shot"} and vias > 50
    assert len(plans._ACT_KEYS) <= 3 * len(SQUARES) * (len(SQUARES) + 1)


def _check_actions(positions: list[TSState]) -> tuple[int, int]:
    """Compare the kept actions choosing every movable piece and every move of every piece
    with the ones made anew; (actions compared, of which were kept ones)."""
    checked = kept = 0
    for s in positions:
        p = s.turn_player
        if s.stage != "select" or p is None:
            continue
        sheet = TS.sheet(s, p)
        for q in TS.movable(s, p):
            before = len(kept_actions._PIECES)
            assert TS.piece_action(s, q, sheet) == TS.made_piece_action(s, q, sheet)
            kept += len(kept_actions._PIECES) == before
            for m in piece_moves(s.board, q, sheet):
                before = len(kept_actions._MOVES)
                assert TS.act_action(s, m, sheet) == TS.made_act_action(s, m, sheet), m
                kept += m.kind == "move" and len(kept_actions._MOVES) == before
                checked += 1
            checked += 1
    return checked, kept


def test_kept_actions_are_the_ones_made_anew():
    kept_actions.forget()
    checked, kept = _check_actions(_POSITIONS[::2])
    assert checked > 20_000 and kept > checked // 2
    assert len(kept_actions._MOVES) <= len(SQUARES) ** 2


def test_kept_actions_stay_right_when_dropped_and_made_again(monkeypatch):
    monkeypatch.setattr(kept_actions, "LIMIT", 20)
    kept_actions.forget()
    sizes = []
    for s in _POSITIONS[:400]:
        _check_actions([s])
        sizes.append(len(kept_actions._PIECES))
    assert max(sizes) <= 20 and min(sizes[50:]) < 20  # dropped and filled again
    kept_actions.forget()


def test_the_automatic_games_are_the_same_with_no_action_kept():
    """A game whose kept actions are dropped before each step is the game played with them."""
    def keys(forget: bool) -> list[str]:
        s = TS.setup(["p0", "p1", "p2", "p3"], {"factions": "random"}, 5)
        chooser = Rng(seed=5)
        out: list[str] = []
        while TS.result(s) is None and len(out) < 400:
            if forget:
                kept_actions.forget()
            p = TS.to_act(s)[0]
            action = TS.auto_action(s, p, chooser)
            out.append(f"{action.key}|{action.label}|{action.description}")
            s = TS.apply(s, p, action.key).state
        return out

    assert keys(False) == keys(True)


def test_a_landing_marks_the_attack_as_a_model_copy_would():
    """`_land` makes the last attack's mark with the square landed on directly: the mark
    `model_copy(update={"landed": ...})` makes, field for field, set fields and all."""
    checked = 0
    for s in _POSITIONS:
        p = s.turn_player
        if s.stage != "land" or p is None or s.last_attack is None:
            continue
        for q in s.landing:
            got = TS.apply(s, p, TS.land_action(q).key).state.last_attack
            expected = s.last_attack.model_copy(update={"landed": q})
            assert got == expected and got.model_dump_json() == expected.model_dump_json()
            assert got.__pydantic_fields_set__ == expected.__pydantic_fields_set__
            checked += 1
    assert checked > 20
