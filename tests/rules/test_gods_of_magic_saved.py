"""Saved Gods of Magic games keep loading and playing on the same way.

The files in tests/rules/data/gom_strict_*_v1.json were written by the code of the time (strict
storytelling: an objection open on a move, a Recombination under way, an objection open on a
Recombination). Each holds the saved state, what an upheld objection restores, and the keys and
event texts of the automatic play that follows; a change of the state's shape must keep them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.core import Rng
from rules.gods_of_magic import GAME as G
from rules.gods_of_magic.content import DECKS
from rules.gods_of_magic.state import GomState
from rules.gods_of_magic.undo import before_objection, recombination_start

DATA = Path(__file__).parent / "data"
REPRESENTATION = ("recombine_snapshot", "recombine_undo", "objection")
"""Fields that say how an undo is kept, not what the game is: left out of the comparisons."""


def _public(s: GomState) -> dict[str, Any]:
    d = s.model_dump(mode="json")
    for k in REPRESENTATION:
        d.pop(k, None)
    return d


def _as_now(saved: dict[str, Any]) -> dict[str, Any]:
    """A state dump of the fixture's time, as the code of now dumps it."""
    return _public(GomState.model_validate(saved))


def _play_on(s: GomState, vote: str | None, steps: int) -> tuple[dict[str, Any], list[str], list[str]]:
    """Everyone votes `vote` on the open objection, then the automatic players go on."""
    keys: list[str] = []
    texts: list[str] = []
    while s.objection is not None:
        assert vote is not None
        out = G.apply(s, G.to_act(s)[0], vote)
        s = out.state
        keys.append(vote)
        texts += [e.text for e in out.events]
    after = _public(s)
    chooser = Rng(seed=99)
    for _ in range(steps):
        if G.result(s) is not None:
            break
        p = G.to_act(s)[0]
        a = G.auto_action(s, p, chooser)
        out = G.apply(s, p, a.key, "a story" if a.text_prompt else None)
        s = out.state
        keys.append(a.key)
        texts += [e.text for e in out.events]
    return after, keys, texts


def _load(name: str) -> dict[str, Any]:
    """A fixture, with the deck version its state names registered (it was kept in the file)."""
    data = json.loads((DATA / name).read_text())
    DECKS.restore(data["content"], (DATA / f"gom_content_{data['content']}.json").read_text())
    return data


@pytest.mark.parametrize("name", ["gom_strict_objection_v1.json", "gom_strict_rc_objection_v1.json"])
def test_a_saved_objection_loads_and_is_upheld_or_rejected_as_before(name):
    data = _load(name)
    s = G.load_state(data["state"])
    G.check_invariants(s)
    assert s.objection is not None
    for vote, part in (("obj:yes", "upheld"), ("obj:no", "rejected")):
        restored, keys, texts = _play_on(s, vote, 60)
        assert restored == _as_now(data[part]["restored"])
        assert keys == data[part]["keys"]
        assert texts == data[part]["texts"]
    upheld = _as_now(data["upheld"]["restored"])
    assert upheld["domains"] == _as_now(data["before"])["domains"]
    assert _public(before_objection(s)) == _as_now(data["before"])
    # saved again by the code of now, it plays on the same way
    again = G.load_state(G.dump_state(s))
    assert _play_on(again, "obj:yes", 60)[1] == data["upheld"]["keys"]


def test_a_saved_recombination_loads_and_plays_on_as_before():
    data = _load("gom_strict_recombine_v1.json")
    s = G.load_state(data["state"])
    G.check_invariants(s)
    assert s.step == "recombine"
    restored, keys, texts = _play_on(s, None, 80)
    assert recombination_start(s).model_dump(mode="json", exclude={"objection", "recombine_undo"}) == \
        _as_now(data["before"])
    assert (restored, keys, texts) == (_as_now(data["continued"]["restored"]), data["continued"]["keys"],
                                       data["continued"]["texts"])


@pytest.mark.parametrize("name", ["gom_strict_recombine_v1.json", "gom_strict_rc_objection_v1.json"])
def test_a_redeal_renames_the_kept_earlier_state_consistently(name):
    s = G.load_state(_load(name)["state"])
    earlier = recombination_start if s.objection is None else before_objection
    for viewer in (None, s.players[1]):
        for seed in range(5):
            r = G.resample(s, viewer, Rng(seed=seed))
            then, real = earlier(r), earlier(s)
            G.check_invariants(then)
            assert then.domains == real.domains and then.scores == real.scores
            assert {p: len(h) for p, h in then.hands.items()} == {p: len(h) for p, h in real.hands.items()}
            if viewer is not None:
                assert then.hands[viewer] == real.hands[viewer]
