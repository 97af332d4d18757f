"""Hidden information, checked by construction for every game, present and future.

At many points of seeded playouts, everything a viewer cannot see is dealt anew
(`Game.resample`); what that viewer is shown must not change: their private view as sent
(embeds, buttons, menus, custom ids) and the public table as sent. A difference means
something hidden reached them.
"""

from __future__ import annotations

import hashlib
import json

import pytest

import rules
from bot import table
from bot.models import Seat, Session
from rules.core import Rng

POINTS = 12  # checked positions per playout


def _session(game_id: str, state, players: list[str]) -> Session:
    session = Session(
        id=1, guild_id=10, channel_id=20, game_id=game_id, status="active", host_id=1000,
        options={}, seats=[Seat(position=i, player_id=p, name=f"Player {i + 1}", user_id=1000 + i)
                           for i, p in enumerate(players)],
        state_json=None, version=7, created_at=0.0, updated_at=0.0, table_channel_id=20,
        table_message_id=30)
    session.set_state(state)
    return session


def _as_sent(payload: table.Payload) -> str:
    """The payload as Discord receives it (pictures compared by their bytes)."""
    kwargs = payload.send_kwargs()
    files = kwargs.get("files") or []
    view = kwargs.get("view")
    return json.dumps({
        "content": kwargs.get("content"),
        "embeds": [e.to_dict() for e in kwargs.get("embeds") or []],
        "components": view.to_components() if view is not None else [],
        "files": [(f.filename, hashlib.sha256(f.fp.getvalue()).hexdigest()) for f in files],
    }, sort_keys=True, default=str)


def _player_counts(game) -> list[int]:
    counts = []
    for n in sorted({game.min_players, min(3, game.max_players), game.max_players}):
        try:
            game.check_players(n)
        except Exception:
            continue
        counts.append(n)
    return counts


CASES = [pytest.param(gid, n, seed, id=f"{gid}-{n}p-s{seed}")
         for gid, game in sorted(rules.GAMES.items())
         for n in _player_counts(game) for seed in range(2)]


def _positions(game, n: int, seed: int):
    """Seeded states along a playout by the automatic players (`POINTS` of them, spread out)."""
    players = [f"p{i}" for i in range(n)]
    state = game.setup(players, {}, seed)
    chooser = Rng(seed=seed + 101)
    trail = []
    for _ in range(min(game.max_steps, 400)):
        if game.result(state) is not None:
            break
        trail.append(state)
        player = chooser.choice(game.to_act(state))
        action = game.auto_action(state, player, chooser)
        state = game.apply(state, player, action.key, "A line." if action.text_prompt else None).state
    step = max(1, len(trail) // POINTS)
    return players, trail[::step][:POINTS]


@pytest.mark.parametrize("game_id,n,seed", CASES)
def test_what_a_player_cannot_see_never_changes_what_they_are_shown(game_id, n, seed):
    game = rules.get_game(game_id)
    players, positions = _positions(game, n, seed)
    rng = Rng(seed=seed * 31 + n)
    assert positions
    for state in positions:
        for viewer in [None, *players]:
            other = game.resample(state, viewer, rng)
            game.check_invariants(other)
            a, b = _session(game_id, state, players), _session(game_id, other, players)
            assert _as_sent(table.table_payload(a)) == _as_sent(table.table_payload(b)), (
                f"the public table depends on what {viewer or 'a watcher'} cannot see")
            if viewer is not None:
                assert game.view(state, viewer) == game.view(other, viewer)
                assert _as_sent(table.private_payload(a, viewer)) == \
                    _as_sent(table.private_payload(b, viewer)), (
                    f"{viewer}'s private view depends on what they cannot see")


def test_the_check_catches_a_leak():
    """The guard itself: a game whose table names a card from a hand fails it."""
    from tests.support.highcard import GAME as HIGH_CARD

    class Leaky(type(HIGH_CARD)):
        id = "test-leaky"

        def legal_actions(self, state, player):
            return [a.model_copy(update={"private": False}) for a in super().legal_actions(state, player)]

        def resample(self, state, player, rng):
            s = state.model_copy(deep=True)
            for p in s.players:
                if p != player:
                    s.hands[p] = list(reversed(s.hands[p]))
            return s

    leaky = Leaky()
    rules.GAMES[leaky.id] = leaky
    try:
        players = ["p0", "p1"]
        state = leaky.setup(players, {}, 3)
        other = leaky.resample(state, "p1", Rng(seed=1))
        a, b = _session(leaky.id, state, players), _session(leaky.id, other, players)
        assert _as_sent(table.table_payload(a)) != _as_sent(table.table_payload(b))
    finally:
        del rules.GAMES[leaky.id]
