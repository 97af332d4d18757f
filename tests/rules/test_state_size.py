"""Saved states stay small: a Gods of Magic state at 8 players is at most 4 KB, with strict
storytelling too (its objections and Recombinations keep undos, not copies of the state)."""

from __future__ import annotations

import pytest

from rules.core import Rng
from rules.gods_of_magic import GAME as GOM
from rules.gods_of_magic.state import GomState
from rules.gods_of_magic.undo import diff, plain, undone

LIMIT = 4096


def _gom_states(players: int, options: dict[str, str], seed: int):
    """The states of one automatic game; under strict storytelling some moves are objected to
    and some Recombinations rearrange a few cards (the automatic players do neither)."""
    names = [f"seat{i + 1}" for i in range(players)]
    s = GOM.setup(names, options, seed)
    chooser = Rng(seed=seed).fork("simulate")
    step = 0
    while GOM.result(s) is None:
        yield s
        p = GOM.to_act(s)[0]
        action = GOM.auto_action(s, p, chooser)
        if s.objection is not None and step % 4 == 0:
            action = next(a for a in GOM.legal_actions(s, p) if a.key == "obj:yes")
        elif s.step == "recombine" and s.objection is None and s.recombine_moves < 3:
            action = next((a for a in GOM.legal_actions(s, p)
                           if a.key != "rc:done" and not a.key.endswith("back")), action)
        s = GOM.apply(s, p, action.key, "a story" if action.text_prompt else None).state
        step += 1


@pytest.mark.parametrize("options", [{}, {"storytelling": "strict"}])
def test_gods_of_magic_states_at_8_players_fit_in_4_kb(options):
    largest = max(len(GOM.dump_state(s).encode()) for seed in range(3) for s in _gom_states(8, options, seed))
    assert largest <= LIMIT


def test_gods_of_magic_an_undo_gives_back_the_earlier_state_exactly():
    states = list(_gom_states(4, {"storytelling": "strict"}, 1))
    assert len(states) > 100
    for a, b in zip(states, states[1:], strict=False):
        before, after = plain(a), plain(b)
        undo = diff(before, after)
        assert undone(after, undo) == before
        assert GomState.model_validate(undone(after, undo)) == GomState.model_validate(before)


def test_gods_of_magic_a_saved_state_reads_back_the_same():
    for s in _gom_states(8, {"storytelling": "strict"}, 2):
        assert GOM.load_state(GOM.dump_state(s)) == s


def test_gods_of_magic_a_domain_is_saved_as_card_ids_and_the_long_form_still_loads():
    s = next(s for s in _gom_states(3, {}, 4) if any(p.descriptors for _o, rs in s.domains.items()
                                                      for r in rs for p in r.cards))
    saved = GOM.dump_state(s)
    assert '"card"' not in saved and '"cards"' not in saved
    long = s.model_dump(mode="json")
    long["domains"] = {o: [{"cards": [{"card": p.card, "descriptors": p.descriptors} for p in r.cards]}
                           for r in rs] for o, rs in s.domains.items()}
    assert GomState.model_validate(long) == s
