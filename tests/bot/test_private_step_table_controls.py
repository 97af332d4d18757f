"""A private step with public effects (Guilty Gods: a starting hand shown and redrawn in the DM) spends the
mover's table controls: the table's "Keep this starting hand", drawn before, is refused (issue 28 item 5 review)."""
from __future__ import annotations

import pytest

from bot.sessions import SessionService, StaleVersion
from bot.store import Store
from rules.core.rng import Rng
from tests.support.clock import Clock

ANN, BOB = 10, 11


async def test_keep_on_the_table_after_a_redraw_in_the_dm(tmp_path):
    store = await Store.open(tmp_path / "p.db")
    svc = SessionService(store, clock=Clock(), seed_source=lambda: 12345)
    try:
        s = await svc.open_lobby(guild_id=1, channel_id=5, game_id="guilty-gods", host_id=ANN,
                                 host_name="Ann", options=None)
        s = await svc.join(s.id, BOB, "Bob")
        await svc.start(s.id, ANN)
        s = await svc.get(s.id)
        game = s.game()
        for i in range(50):
            st = s.state()
            if st.phase == "hand":
                break
            pid = game.to_act(st)[0]
            uid = s.seat(pid).user_id
            await svc.act(s.id, uid, game.auto_action(st, pid, Rng(seed=i)).key, version=None)
            s = await svc.get(s.id)
        st = s.state()
        assert st.phase == "hand", st.phase
        ann = s.seat_of_user(ANN).player_id
        st2 = st.model_copy(deep=True)
        seat = st2.seats[ann]
        pool = seat.hand + seat.deck
        kind = max({st2.cards[c].kind for c in pool}, key=lambda k: sum(st2.cards[c].kind == k for c in pool))
        same = [c for c in pool if st2.cards[c].kind == kind][:7]
        rest = [c for c in pool if c not in same]
        assert len(same) == 7
        seat.hand, seat.deck = same, rest
        s.set_state(st2)
        await svc._save(s, s.version, seats=False)
        s = await svc.get(s.id)
        keys = {a.key: a.private for a in s.legal_actions(ann)}
        assert keys.get("hand:redraw") is True and keys.get("hand:keep") is False
        v = s.version
        await svc.act(s.id, ANN, "hand:redraw", version=v)  # in the DM
        # the table's "Keep this starting hand", rendered at v (before the new hand was seen)
        with pytest.raises(StaleVersion):
            await svc.act(s.id, ANN, "hand:keep", version=v)
    finally:
        await store.close()
