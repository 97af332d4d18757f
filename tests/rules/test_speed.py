"""The speed work of the simulator: shared move generation, the cheap StepPlan options, and
`rules.simulate --jobs` (the same figures whatever the number of processes)."""

from __future__ import annotations

import pytest

from rules.core import Rng
from rules.core.steps import Option, StepPlan
from rules.gods_of_magic import GAME as GOM
from rules.gods_of_magic.game import GodsOfMagic
from rules.gods_of_magic.state import GomState, Placed, Realm
from rules.simulate import simulate
from rules.terra_sancta import GAME as TS
from rules.terra_sancta import game as ts_game
from rules.terra_sancta.game import TerraSancta
from rules.terra_sancta.movegen import can_act, move_targets, piece_moves
from tests.support.playout import automatic_positions


def _ts_positions(players: int, seeds: range, steps: int = 400):
    return automatic_positions(TS, players, seeds, steps, {"factions": "random"})


def test_terra_sancta_can_act_and_move_targets_agree_with_the_full_move_list():
    checked = 0
    for s in _ts_positions(4, range(2), 150):
        for sq, piece in s.board.items():
            sheet = TS.sheet(s, piece.owner)
            moves = piece_moves(s.board, sq, sheet)
            assert can_act(s.board, sq, sheet) == bool(moves)
            assert move_targets(s.board, sq, sheet) == {m.to for m in moves}
            checked += 1
    assert checked > 1000


def test_terra_sancta_movable_stops_at_the_first_move(monkeypatch):
    s = TS.setup(["a", "b"], {"factions": "random"}, 3)
    expected = TS.movable(s, s.turn_player)
    monkeypatch.setattr(ts_game, "piece_moves", lambda *a: pytest.fail("movable built a whole move list"))
    assert TS.movable(s, s.turn_player) == expected and expected


def test_terra_sancta_a_move_step_is_found_without_every_legal_action(monkeypatch):
    positions = [s for s in _ts_positions(2, range(2), 120) if s.stage == "select"]
    expected = {id(s): TS.legal_actions(s, s.turn_player) for s in positions}
    monkeypatch.setattr(TerraSancta, "legal_actions", lambda *a: pytest.fail("legal_actions regenerated"))
    for s in positions:
        for action in expected[id(s)]:
            if action.key != "pass":
                assert TS.find_action(s, s.turn_player, action.key) == action
        p = s.turn_player
        TS.apply(s, p, TS.auto_action(s, p, Rng(seed=1)).key)  # chooses and applies on its own


def test_gods_of_magic_applies_the_automatic_choice_without_regenerating_the_actions(monkeypatch):
    s = GOM.setup(["a", "b", "c"], {}, 5)
    chooser = Rng(seed=5)
    calls = []
    real = GodsOfMagic._raw_actions
    monkeypatch.setattr(GodsOfMagic, "_raw_actions", lambda self, *a: calls.append(1) or real(self, *a))
    for _ in range(60):
        p = GOM.to_act(s)[0]
        action = GOM.auto_action(s, p, chooser)
        before = len(calls)
        s = GOM.apply(s, p, action.key, "..." if action.text_prompt else None).state
        assert len(calls) == before, "apply generated the legal actions again"


def test_gods_of_magic_a_state_changed_after_the_choice_is_checked_again():
    s = GOM.setup(["a", "b"], {}, 2)
    p = GOM.to_act(s)[0]
    action = GOM.auto_action(s, p, Rng(seed=2))
    s.phase = "roll"  # the state changed under the kept actions: they must not be used
    with pytest.raises(Exception, match="not possible"):
        GOM.apply(s, p, action.key)


def test_step_options_carry_their_menu_and_copy_like_models():
    plan = StepPlan("play", ["card"], prompts={"card": "Play a card"})
    one = plan.actions(None, lambda a, c: [Option(value="x", label="X")])
    assert one[0].group is None  # alone: a button of its own
    menu = plan.actions(None, lambda a, c: [Option(value="x", label="X", group="Hand", cost=2)])
    assert menu[0].group == "Hand" and menu[0].description == "costs 2"
    o = Option(value="x", label="X")
    assert o.model_copy(update={"label": "Y"}) == Option(value="x", label="Y") and o.label == "X"


def test_simulate_gives_the_same_figures_whatever_the_number_of_processes():
    one = simulate("deathly-thrones", 7, 1, {}, seed=11, jobs=1)
    two = simulate("deathly-thrones", 7, 1, {}, seed=11, jobs=2)
    for report in (one, two):
        report.pop("seconds_per_game")
        report.pop("jobs")
    assert one == two
    three = simulate("gods-of-magic", 3, 2, {}, seed=4, jobs=3)
    three.pop("seconds_per_game"), three.pop("jobs")
    alone = simulate("gods-of-magic", 3, 2, {}, seed=4)
    alone.pop("seconds_per_game"), alone.pop("jobs")
    assert three == alone


def _gom_states(players: int, seed: int, steps: int = 300):
    return automatic_positions(GOM, players, [seed], steps, {"storytelling": "strict"})


def test_gods_of_magic_apply_copies_the_domains_by_hand(monkeypatch):
    from rules.core import state as core_state

    real = core_state._copy

    def generic(value):
        assert not isinstance(value, (GomState, Realm, Placed)), "the generic copy walked the domains"
        return real(value)

    monkeypatch.setattr(core_state, "_copy", generic)
    states = list(_gom_states(4, 3, 120))
    assert len(states) == 120


def test_gods_of_magic_the_hand_made_copy_is_equal_and_shares_nothing_mutable():
    from rules.core.state import independent_copy
    from rules.gods_of_magic.copying import copy_state
    from tests.support.sharing import mutables

    checked = 0
    for s in [*_gom_states(5, 4, 250), *_gom_states(3, 1, 250)]:
        c = copy_state(s)
        assert c == s == independent_copy(s) and c.model_dump_json() == s.model_dump_json()
        assert c.__pydantic_fields_set__ == s.__pydantic_fields_set__
        ours = {id(v) for v in mutables(s, [])}
        assert not any(id(v) in ours for v in mutables(c, []))
        checked += 1
    assert checked > 100
