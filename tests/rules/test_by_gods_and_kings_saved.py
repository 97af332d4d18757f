"""Saved games keep loading: states written by earlier versions of the code (the fixtures in
tests/rules/data, written before the state was made smaller) load and play on exactly as they
did when they were saved."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from rules.by_gods_and_kings import GAME
from rules.by_gods_and_kings.catalogue import CATALOGUES
from rules.core import Rng

DATA = Path(__file__).parent / "data"
CONTENT = "e0f6fefe57b48ff3"
"""The content version the fixtures play with, kept beside them as the bot keeps it."""


@pytest.mark.parametrize("name", ["bgk_state_v1_battle", "bgk_state_v1_camp"])
def test_a_state_saved_by_an_earlier_version_loads_and_plays_on_the_same_way(name):
    CATALOGUES.restore(CONTENT, (DATA / f"bgk_content_{CONTENT}.json").read_text())
    expected = json.loads((DATA / f"{name}_moves.json").read_text())
    state = GAME.load_state((DATA / f"{name}.json").read_text())
    GAME.check_invariants(state)
    again = GAME.load_state(GAME.dump_state(state))
    assert GAME.dump_state(again) == GAME.dump_state(state)
    chooser = Rng(seed=7)
    moves: list[str] = []
    texts: list[str] = []
    for _ in range(len(expected["moves"])):
        player = GAME.to_act(state)[0]
        key = GAME.auto_action(state, player, chooser).key
        out = GAME.apply(state, player, key)
        moves.append(f"{player} {key}")
        texts.extend(e.text for e in out.events)
        state = out.state
        GAME.check_invariants(state)
    assert moves == expected["moves"]
    assert hashlib.sha256("\n".join(texts).encode()).hexdigest() == expected["events_sha256"]
