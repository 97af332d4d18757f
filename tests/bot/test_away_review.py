"""Away, the cases a review found (issue 31 goal 3): an away day that passes times the turn
anew; going away and back buys no time, for anyone; coming back gives back a seat the automatic
player covered, from a DM too; a person's own move ends the ask; the inbox keeps its wait."""

from __future__ import annotations

from tests.bot.e2e import (
    ALICE,
    BOB,
    CHANNEL,
    START,
    Clock,
    make_bot,
    open_table,
    play_auto_move,
    tick_for,
)
from tests.support.discord_harness import DiscordHarness

GAME = "test-high-card"


async def test_the_day_named_passes_and_the_turn_is_timed_anew(tmp_path):
    clock = Clock(START)
    bot = make_bot(tmp_path / "p.db", clock=clock)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB], selects={"turn_timer": "3600"})
        sid = (await bot.service.active_in_channel(CHANNEL)).id
        await h.slash("game away", user=ALICE, channel=CHANNEL, options={"until": "1"})
        await tick_for(bot, clock, 3600 + 600)
        s = await bot.service.get(sid)
        assert s.seat_of_user(ALICE).overdue and s.deadline == START + 86400  # waits until her day
        await tick_for(bot, clock, 82800, step=600)  # to just past her day
        s = await bot.service.get(sid)
        seat = s.seat_of_user(ALICE)
        assert not seat.overdue and seat.away_until is None and not seat.auto
        assert s.deadline is not None and s.deadline > clock.now  # a fresh turn, not taken at once
        assert "alice is back: their turn is timed again" in table.text().lower()
        assert "Let the automatic player" not in str(table.components)


async def test_going_away_and_back_buys_no_time(tmp_path):
    clock = Clock(START)
    bot = make_bot(tmp_path / "p.db", clock=clock)
    async with DiscordHarness(bot) as h:
        await open_table(h, GAME, [ALICE, BOB], selects={"turn_timer": "86400"})
        sid = (await bot.service.active_in_channel(CHANNEL)).id
        d0 = (await bot.service.get(sid)).deadline
        clock.now += 80000
        await h.slash("game away", user=BOB, channel=CHANNEL)  # bob is not to act
        assert (await bot.service.get(sid)).deadline == d0
        await h.slash("game away", user=ALICE, channel=CHANNEL)
        await h.slash("game back", user=ALICE, channel=CHANNEL)
        assert (await bot.service.get(sid)).deadline == d0


async def test_back_from_a_dm_gives_back_the_covered_seat(tmp_path):
    clock = Clock(START)
    bot = make_bot(tmp_path / "p.db", clock=clock)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB], selects={"turn_timer": "3600", "cards": "3"})
        sid = (await bot.service.active_in_channel(CHANNEL)).id
        await h.slash("game away", user=ALICE, guild=False)
        await tick_for(bot, clock, 3600 + 600)
        await h.click(table, h.find_button(table, "Let the automatic player move for them"), user=BOB)
        assert (await bot.service.get(sid)).seat_of_user(ALICE).auto
        back = await h.slash("game back", user=ALICE, guild=False)
        assert "Welcome back: your turns are timed again at 1 table" in back.text()
        seat = (await bot.service.get(sid)).seat_of_user(ALICE)
        assert not seat.auto and seat.away_until is None and not seat.overdue


async def test_a_move_of_her_own_ends_the_ask(tmp_path):
    clock = Clock(START)
    bot = make_bot(tmp_path / "p.db", clock=clock)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB], selects={"turn_timer": "3600", "cards": "3"})
        sid = (await bot.service.active_in_channel(CHANNEL)).id
        await h.slash("game away", user=ALICE, channel=CHANNEL)
        await tick_for(bot, clock, 3600 + 600)
        assert (await bot.service.get(sid)).seat_of_user(ALICE).overdue
        await play_auto_move(h, bot)  # alice, still away, moves herself
        s = await bot.service.get(sid)
        assert not s.seat_of_user(ALICE).overdue
        assert "Let the automatic player" not in str(table.components)
        await play_auto_move(h, bot)  # bob; then alice's turn again: timed as she is still away
        s = await bot.service.get(sid)
        assert s.status == "active" and s.deadline is not None


async def test_going_away_keeps_the_inbox_wait(tmp_path):
    clock = Clock(START)
    bot = make_bot(tmp_path / "p.db", clock=clock)
    async with DiscordHarness(bot) as h:
        await open_table(h, GAME, [ALICE, BOB])
        clock.now += 5 * 3600
        await h.slash("game away", user=ALICE, channel=CHANNEL)
        r = await h.slash("game turns", user=ALICE, channel=CHANNEL)
        assert f"<t:{int(START)}:R>" in r.text()
