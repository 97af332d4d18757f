"""A spectator turning a page of the table's menu after a private step is not told "out of date" (which would
tell that a step was made; issue 28 item 5 review)."""
from __future__ import annotations

from pydantic import BaseModel

import rules
from bot.ui import ids
from rules.core import Action, Event, Game, Outcome, Result, RulesPage, who
from tests.bot.e2e import ALICE, BOB, CHANNEL, component_for, make_bot, open_table
from tests.support.discord_harness import DEFAULT_MEMBERS, DiscordHarness

SPECTATOR = 1009


class PState(BaseModel):
    players: list[str]
    marks: dict[str, list[int]]
    votes: dict[str, int | None]


class PView(BaseModel):
    players: list[str]
    voted: dict[str, bool]
    marks: list[int] | None = None


class Pager(Game):
    """Both players act at once: private marks (a hidden choice) and a public vote among 30."""
    id = "test-rev-pager"
    name = "Pager (test)"
    summary = "x"
    min_players = 2
    max_players = 2
    state_type = PState
    options = []

    def setup(self, players, options, seed):
        return PState(players=list(players), marks={p: [] for p in players}, votes={p: None for p in players})

    def to_act(self, s):
        return [p for p in s.players if s.votes[p] is None]

    def legal_actions(self, s, player):
        if s.votes.get(player) is not None:
            return []
        acts = [Action(key=f"mark:{i}", label=f"Mark {i}", private=True, group="Mark")
                for i in range(3) if i not in s.marks[player]]
        acts += [Action(key=f"vote:{i}", label=f"Vote {i}", group="Vote") for i in range(30)]
        return acts

    def apply(self, s, player, action, text=None):
        act = self.find_action(s, player, action)
        s = s.model_copy(deep=True)
        if act.key.startswith("mark:"):
            s.marks[player].append(int(act.key.split(":")[1]))
            return Outcome(state=s, events=[Event(kind="mark", text="marked", visible_to=[player])])
        s.votes[player] = int(act.key.split(":")[1])
        return Outcome(state=s, events=[Event(kind="vote", text=f"{who(player)} votes.")])

    def view(self, s, player):
        return PView(players=s.players, voted={p: v is not None for p, v in s.votes.items()},
                     marks=s.marks.get(player) if player else None)

    def result(self, s):
        if any(v is None for v in s.votes.values()):
            return None
        return Result(winners=[s.players[0]], scores={}, summary="done")

    def auto_action(self, s, player, rng):
        return self.legal_actions(s, player)[-1]

    def rules_pages(self):
        return [RulesPage(title="Pager", body="x")]


GAME = Pager()


async def test_spectator_pages_table_after_a_private_step(tmp_path, monkeypatch):
    monkeypatch.setitem(rules.GAMES, GAME.id, GAME)  # for this test only
    from bot.render import get_renderer  # noqa
    bot = make_bot(tmp_path / "p.db")
    h = DiscordHarness(bot, members={**DEFAULT_MEMBERS, SPECTATOR: "watcher"})
    await h.start()
    try:
        await open_table(h, GAME.id, [ALICE, BOB])
        await h.settle()
        await bot.controller.edits.drain()
        s = await bot.service.active_in_channel(CHANNEL)
        tablemsg = h.message(s.table_message_id)
        sel = next(x for x in tablemsg.selects() if "Vote" in (x.get("placeholder") or ""))
        # spectator pages before: accepted
        r = await h.select(tablemsg, sel["custom_id"], [f"{ids.PAGE_PREFIX}1"], user=SPECTATOR)
        tablemsg = h.message(s.table_message_id)
        sel = next(x for x in tablemsg.selects() if "Vote" in (x.get("placeholder") or ""))
        # alice marks privately in her DM
        s = await bot.service.get(s.id)
        seat = s.seat_of_user(ALICE)
        found = component_for(h.dms_to(ALICE), s.id, s.version, "mark:0", oldest=seat.actions_version)
        assert found is not None
        m, cid, vals = found
        await h.select(m, cid, vals, user=ALICE)
        await h.settle()
        await bot.controller.edits.drain()
        s2 = await bot.service.get(s.id)
        assert s2.version == s.version + 1
        tablemsg = h.message(s.table_message_id)
        sel = next(x for x in tablemsg.selects() if "Vote" in (x.get("placeholder") or ""))
        page = next(o["value"] for o in sel["options"] if o["value"].startswith(ids.PAGE_PREFIX))
        r = await h.select(tablemsg, sel["custom_id"], [page], user=SPECTATOR)
        assert "out of date" not in (r.content or ""), r.content
    finally:
        await h.close()
