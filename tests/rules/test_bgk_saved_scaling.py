"""A By Gods and Kings battle saved before enemies were scaled anew to small parties loads with
no enemy above its maximum HP (issue 29 review)."""

from __future__ import annotations

import rules
from rules.by_gods_and_kings.stats import max_hp
from rules.core import Rng


def _in_battle(party: str):
    game = rules.get_game("by-gods-and-kings")
    state = game.setup(["p1"], game.resolve_options({"party": party, "attempts": "1"}), 3)
    for i in range(400):
        if state.battle is not None and state.battle.foes:
            return game, state
        pid = game.to_act(state)[0]
        state = game.apply(state, pid, game.auto_action(state, pid, Rng(seed=i)).key).state
    raise AssertionError("no battle reached")


def test_an_enemy_saved_above_its_maximum_is_capped_at_load():
    game, state = _in_battle("2")
    foe = state.battle.foes[0]
    top = max_hp(state, foe)
    foe.hp = top + 6  # as the old share (45% instead of 38%) left it
    loaded = game.load_state(game.dump_state(state))
    assert [f.hp for f in loaded.battle.foes][0] == top
    assert all(f.hp <= max_hp(loaded, f) for f in loaded.battle.foes)


def test_an_enemy_within_its_maximum_loads_unchanged():
    game, state = _in_battle("1")
    loaded = game.load_state(game.dump_state(state))
    assert [f.hp for f in loaded.battle.foes] == [f.hp for f in state.battle.foes]
