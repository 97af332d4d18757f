"""The game interface's optional parts through Discord, with the Echo test game: opening events,
a simultaneous "ready" step, reactions out of turn (people and automatic players)."""

from __future__ import annotations

import pytest

from tests.bot.e2e import ALICE, BOB, CAROL, CHANNEL, START, Clock, make_bot, open_table
from tests.support.discord_harness import DiscordHarness

GAME = "test-echo"


@pytest.fixture
def db(tmp_path):
    return tmp_path / "pantheon.db"


async def _ready_all(h, table, users):
    for user in users:
        await h.click(table, h.find_button(table, "Ready"), user=user)


async def test_opening_events_reach_the_table_and_the_log(db):
    bot = make_bot(db, seed=5)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB])
        assert "Opening rolls:" in table.text()
        log = await h.slash("game log", user=ALICE, channel=CHANNEL)
        assert "Opening rolls:" in log.text()


async def test_everyone_ready_is_a_simultaneous_choice_in_any_order(db):
    bot = make_bot(db, seed=5)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB, CAROL])
        ready = h.find_button(table, "Ready")
        assert f"<@{ALICE}>" in table.content and f"<@{CAROL}>" in table.content
        await h.click(table, ready, user=CAROL)
        r = await h.click(table, h.find_button(table, "Ready"), user=CAROL)  # once is enough
        assert r.ephemeral
        await h.click(table, h.find_button(table, "Ready"), user=ALICE)
        await h.click(table, h.find_button(table, "Ready"), user=BOB)
        session = await bot.service.active_in_channel(CHANNEL)
        assert sorted(session.state().ready) == sorted(str(u) for u in (ALICE, BOB, CAROL))


async def test_a_reaction_out_of_turn_is_offered_and_taken_without_a_timer(db):
    clock = Clock(START)
    bot = make_bot(db, seed=5, clock=clock)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB], selects={"turn_timer": "300"})
        await _ready_all(h, table, (ALICE, BOB))
        session = await bot.service.active_in_channel(CHANNEL)
        game = session.game()
        mover = game.to_act(session.state())[0]
        other = BOB if mover == str(ALICE) else ALICE
        deadline = session.deadline
        clock.now += 10
        await h.click(table, h.find_button(table, "Add 1"), user=int(mover))
        session = await bot.service.active_in_channel(CHANNEL)
        assert game.may_act(session.state()) == [str(other)]
        # the table waits for the next player only, and offers the echo to the other
        assert f"<@{other}>" in table.content and f"<@{mover}>" not in table.content.split("\n")[0]
        assert "Echo" in [b["label"] for b in table.buttons()]
        r = await h.click(table, h.find_button(table, "Echo"), user=int(mover))
        assert r.ephemeral  # the mover may not echo their own add
        await h.click(table, h.find_button(table, "Echo"), user=other)
        session = await bot.service.active_in_channel(CHANNEL)
        assert session.state().scores[str(other)] == 1
        assert "echoes" in table.text()
        # the reaction did not restart or stop the required player's clock
        assert session.deadline == pytest.approx(deadline + 10)


async def test_automatic_players_react_too(db):
    bot = make_bot(db, seed=5)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE], bots=1)
        await h.click(table, h.find_button(table, "Ready"), user=ALICE)
        for _ in range(12):
            session = await bot.service.active_in_channel(CHANNEL)
            if session is None:
                break
            state = session.state()
            if session.game().to_act(state) == [str(ALICE)]:
                await h.click(table, h.find_button(table, "Add 2"), user=ALICE)
        log = await h.slash("game log", user=ALICE, channel=CHANNEL)
        assert "Bot 1 echoes" in log.text()
