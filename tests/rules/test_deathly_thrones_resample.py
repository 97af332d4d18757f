"""Deathly Thrones: `Game.resample` deals the hidden parts of a run anew (the order of the two
face-down decks and the generator's seed), and nobody can tell the two states apart."""

from __future__ import annotations

import pytest

import rules
from rules.core import Rng
from rules.deathly_thrones.content import quests

GAME = rules.get_game("deathly-thrones")


def _acts(s, private_too: bool) -> list[tuple[str, str]]:
    return [(a.key, a.label) for a in GAME.legal_actions(s, "p") if private_too or not a.private]


def _check(s, viewer, rng: Rng):
    before = s.model_dump_json()
    r = GAME.resample(s, viewer, rng)
    assert s.model_dump_json() == before, "resample changed its input"
    GAME.check_invariants(r)
    assert r.rng.counter == s.rng.counter and r.rng.seed != s.rng.seed
    assert GAME.view(r, viewer) == GAME.view(s, viewer)
    assert GAME.to_act(r) == GAME.to_act(s)
    assert _acts(r, False) == _acts(s, False)
    assert _acts(r, True) == _acts(s, True)
    # the same cards, only their order hidden
    key = lambda c: (c.suit.value, c.rank)  # noqa: E731
    assert sorted(r.step_deck, key=key) == sorted(s.step_deck, key=key)
    assert sorted(r.battle_deck, key=key) == sorted(s.battle_deck, key=key)
    assert (r.steps_drawn, r.battle_discard, r.battle_table, r.fight) == (
        s.steps_drawn, s.battle_discard, s.battle_table, s.fight)
    return r


@pytest.mark.parametrize("quest", sorted(quests()))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_resample_is_indistinguishable_along_random_runs(quest, seed):
    s = GAME.setup(["p"], {"quest": quest}, seed)
    chooser, rng = Rng(seed=seed + 50), Rng(seed=seed + 99)
    differed = 0
    for _ in range(GAME.max_steps):
        if GAME.result(s) is not None:
            break
        for viewer in (None, "p"):
            r = _check(s, viewer, rng)
            differed += r.step_deck != s.step_deck or r.battle_deck != s.battle_deck
        legal = GAME.legal_actions(s, "p")
        action = chooser.choice(legal) if chooser.randint(0, 1) else GAME.auto_action(s, "p", chooser)
        s = GAME.apply(s, "p", action.key).state
    else:
        pytest.fail("the run did not end")
    assert differed > 0


def test_resample_shuffles_both_decks_and_the_seed():
    s = GAME.setup(["p"], {}, 4)
    r = GAME.resample(s, None, Rng(seed=1))
    assert r.step_deck != s.step_deck and r.battle_deck != s.battle_deck
    assert r.rng.seed != s.rng.seed and r.rng.counter == s.rng.counter
    # the runs drawn from them go their own ways, from views nobody could tell apart
    a = GAME.apply(s, "p", "step").state
    b = GAME.apply(r, "p", "step").state
    assert a.steps_drawn != b.steps_drawn or a.step_deck != b.step_deck
