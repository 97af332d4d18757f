"""One checked random playout of any game (the checks every registered game passes):
determinism, `apply` never changing its input, the JSON round trip, the invariants at every
step, unique and well-formed keys and labels, no actions outside `to_act`/`may_act`, views for
the table and a player, and an end within `max_steps`. Returns the final state and the
history, for a replay from (seed, actions)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from rules.core import Action, Game, IllegalAction, Rng

KEY = re.compile(r"[A-Za-z0-9_.:\-]{1,64}")

History = list[tuple[str, str, str | None]]


def playout(game: Game, players: list[str], options: dict[str, str], seed: int,
            chooser_seed: int | None = None) -> tuple[Any, History]:
    opening = game.start(players, options, seed)
    state = game.setup(players, options, seed)
    assert opening.state == state, "start and setup make the same game"
    assert all(e.text for e in opening.events)
    chooser = Rng(seed=seed * 7919 + len(players) if chooser_seed is None else chooser_seed)
    history: History = []
    for _step in range(game.max_steps):
        game.check_invariants(state)
        assert state.model_validate_json(state.model_dump_json()) == state
        assert game.load_state(game.dump_state(state)) == state
        if game.result(state) is not None:
            return state, history
        game.view(state, None)
        game.view(state, players[-1])
        required = game.to_act(state)
        assert required, "a running game must wait for someone"
        acting = game.acting(state)
        player = chooser.choice(acting)
        legal = game.legal_actions(state, player)
        assert legal, f"{player} is to act but has no legal action"
        keys = [a.key for a in legal]
        assert len(set(keys)) == len(keys), f"duplicate action keys: {keys}"
        assert all(KEY.fullmatch(k) for k in keys), keys
        labels = [a.label for a in legal]
        assert len(set(labels)) == len(labels), f"duplicate labels: {labels}"
        assert all(len(x) <= 80 for x in labels), labels
        assert all(a.description is None or len(a.description) <= 100 for a in legal)
        for other in players:
            if other not in acting:  # only required players and those who may react have actions
                assert game.legal_actions(state, other) == [], f"{other} is not to act but has actions"
        before = state.model_dump_json()
        with pytest.raises(IllegalAction):  # an illegal key changes nothing
            game.apply(state, player, "no-such-action")
        assert state.model_dump_json() == before
        # mostly the automatic player, sometimes a random legal action; a reaction when it wants
        action: Action | None
        if player in required:
            action = game.auto_action(state, player, chooser) if chooser.randint(0, 2) else chooser.choice(legal)
        else:
            action = game.auto_reaction(state, player, chooser)
            if action is None:
                if chooser.randint(0, 3):
                    player = chooser.choice(required)
                    legal = game.legal_actions(state, player)
                    keys = [a.key for a in legal]
                    action = game.auto_action(state, player, chooser)
                else:
                    action = chooser.choice(legal)
        assert action.key in keys
        text = "A line of story." if action.text_prompt else None
        out1 = game.apply(state, player, action.key, text)
        out2 = game.apply(state, player, action.key, text)
        assert state.model_dump_json() == before, "apply changed its input"
        assert out1.state == out2.state and out1.events == out2.events, "apply is not deterministic"
        assert all(e.text for e in out1.events)
        history.append((player, action.key, text))
        state = out1.state
    pytest.fail(f"{game.id} did not end within {game.max_steps} actions")


def replay(game: Game, players: list[str], options: dict[str, str], seed: int, history: History) -> Any:
    state = game.setup(players, options, seed)
    for player, key, text in history:
        state = game.apply(state, player, key, text).state
    return state


def automatic_positions(game: Game, players: int, seeds: range | list[int], steps: int,
                        options: dict[str, str] | None = None, random_share: int = 0) -> Iterator[Any]:
    """Every state of seeded games played by the automatic players (each seed's chooser is
    `Rng(seed=seed)`; a form's line is "..."), at most `steps` per game, the final one excluded;
    with `random_share` (percent), that share of the moves is chosen at random instead."""
    names = [f"p{i}" for i in range(players)]
    for seed in seeds:
        s = game.setup(names, options or {}, seed)
        chooser = Rng(seed=seed)
        for _ in range(steps):
            if game.result(s) is not None:
                break
            yield s
            p = game.to_act(s)[0]
            if random_share and chooser.randint(0, 99) < random_share:
                action = chooser.choice(game.legal_actions(s, p))
            else:
                action = game.auto_action(s, p, chooser)
            s = game.apply(s, p, action.key, "..." if action.text_prompt else None).state
