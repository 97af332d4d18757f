"""Play again (issue 31 goal 2): a finished table offers a new lobby with the same game, options,
automatic seats and characters; the others are invited back with one Join each; a two-seat
lobby can swap its seats."""

from __future__ import annotations

import json

import pytest

from bot.models import RecordRow
from bot.sessions import ServiceError
from tests.bot.e2e import ALICE, BOB, CAROL, CHANNEL, make_bot, open_table, play_auto_move
from tests.support.discord_harness import DiscordHarness

GAME = "test-high-card"
HEROES = "test-heroes"
GUILD = 1000  # the harness's guild


async def _finish(h: DiscordHarness, bot) -> None:
    while await play_auto_move(h, bot) is not None:
        pass


async def test_play_again_opens_the_same_table_and_invites_the_others_back(tmp_path):
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB], bots=1, selects={"cards": "1"})
        old = await bot.service.active_in_channel(CHANNEL)
        await _finish(h, bot)
        assert "game over" in table.text().lower()
        assert [b["label"] for b in table.buttons()] == ["Play again"]

        reply = await h.click(table, h.find_button(table, "Play again"), user=BOB)
        lobby = reply.message
        assert lobby is not table and not reply.ephemeral and lobby in h.messages_in(CHANNEL)
        session = await bot.service.active_in_channel(CHANNEL)
        assert session.status == "lobby" and session.id != old.id and session.host_id == BOB
        assert session.options == old.options  # one card each, the same turn timer
        assert [(s.user_id, s.auto) for s in session.seats] == [(BOB, False), (None, True)]
        assert session.table_message_id == lobby.id
        # alice is pinged by the new lobby and listed until she joins
        assert f"<@{ALICE}>" in lobby.content and "Invited back" in lobby.text()
        posted = next(c for c in reply.calls if c.method == "POST" and "/callback" in c.path)
        assert [int(u) for u in posted.json["data"]["allowed_mentions"]["users"]] == [ALICE]
        await h.click(lobby, h.find_button(lobby, "Join"), user=ALICE)
        session = await bot.service.get(session.id)
        assert [s.user_id for s in session.seats] == [ALICE, BOB, None]  # back in her old seat
        assert "Invited back" not in lobby.text()
        await h.click(lobby, h.find_button(lobby, "Start"), user=BOB)
        assert (await bot.service.get(session.id)).status == "active"


async def test_play_again_is_refused_with_a_reason(tmp_path):
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB], selects={"cards": "1"})
        await _finish(h, bot)
        again = h.find_button(table, "Play again")
        watcher = await h.click(table, again, user=CAROL)
        assert watcher.ephemeral and "Only the players of this game" in watcher.text()
        assert await bot.service.active_in_channel(CHANNEL) is None
        first = await h.click(table, again, user=ALICE)
        assert not first.ephemeral
        second = await h.click(table, again, user=BOB)  # the lobby of the first is open now
        assert second.ephemeral and "already open here" in second.text()
        assert len([m for m in h.messages_in(CHANNEL) if "opened a table" in m.content]) == 1


async def test_two_seats_can_be_swapped_by_the_host_only(tmp_path):
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot) as h:
        lobby = (await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": GAME})).message
        assert "Swap seats" not in [b["label"] for b in lobby.buttons()]  # one seat
        await h.click(lobby, h.find_button(lobby, "Join"), user=BOB)
        swap = h.find_button(lobby, "Swap seats")
        refused = await h.click(lobby, swap, user=BOB)
        assert refused.ephemeral and "Only the host" in refused.text()
        await h.click(lobby, swap, user=ALICE)
        session = await bot.service.active_in_channel(CHANNEL)
        assert [s.user_id for s in session.seats] == [BOB, ALICE]
        assert lobby.text().index("bob") < lobby.text().index("alice")
        await h.click(lobby, h.find_button(lobby, "Add bot"), user=ALICE)
        assert "Swap seats" not in [b["label"] for b in lobby.buttons()]  # three seats
        with pytest.raises(ServiceError, match="exactly two"):  # a button shown before that
            await bot.service.swap_seats(session.id, ALICE)


async def test_play_again_brings_the_same_characters(tmp_path):
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot) as h:
        for user, names in ((ALICE, ("Arin", "Bel")), (BOB, ("Cy", "Dun"))):
            for i, name in enumerate(names):
                await bot.service.store.insert_record(RecordRow(
                    guild_id=GUILD, user_id=user, game_id=HEROES, name=name,
                    data=json.dumps({"name": name}), updated_at=1.0 + i))
        lobby = (await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": HEROES})).message
        await h.click(lobby, h.find_button(lobby, "Join"), user=BOB)
        sid = (await bot.service.active_in_channel(CHANNEL)).id
        # both choose their older hero (the latest would be Bel and Dun)
        await bot.service.choose_record(sid, ALICE, ["Arin"])
        await bot.service.choose_record(sid, BOB, ["Cy"])
        await h.click(lobby, h.find_button(lobby, "Start"), user=ALICE)
        await _finish(h, bot)
        reply = await h.click(lobby, h.find_button(lobby, "Play again"), user=ALICE)
        again = await bot.service.active_in_channel(CHANNEL)
        assert [s.record for s in again.seats] == ["Arin"]
        await h.click(reply.message, h.find_button(reply.message, "Join"), user=BOB)
        again = await bot.service.get(again.id)
        assert [s.record for s in again.seats] == ["Arin", "Cy"]
        assert "hero: Arin" in reply.message.text() and "hero: Cy" in reply.message.text()
        held = await bot.service.store._fetch(
            "SELECT name, held_by FROM records WHERE game_id = ? ORDER BY name", (HEROES,))
        assert [tuple(r) for r in held] == [("Arin", again.id), ("Bel", None), ("Cy", again.id), ("Dun", None)]


async def test_a_character_retired_since_is_replaced_by_the_latest(tmp_path):
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot) as h:
        for i, name in enumerate(("Arin", "Bel")):
            await bot.service.store.insert_record(RecordRow(
                guild_id=GUILD, user_id=BOB, game_id=HEROES, name=name,
                data=json.dumps({"name": name}), updated_at=1.0 + i))
        lobby = (await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": HEROES})).message
        await h.click(lobby, h.find_button(lobby, "Join"), user=BOB)
        sid = (await bot.service.active_in_channel(CHANNEL)).id
        await bot.service.choose_record(sid, BOB, ["Arin"])
        await h.click(lobby, h.find_button(lobby, "Start"), user=ALICE)
        await _finish(h, bot)
        reply = await h.click(lobby, h.find_button(lobby, "Play again"), user=ALICE)
        assert await bot.service.store.retire_record(GUILD, BOB, HEROES, "Arin")
        await h.click(reply.message, h.find_button(reply.message, "Join"), user=BOB)
        again = await bot.service.active_in_channel(CHANNEL)
        assert again.seat_of_user(BOB).record is None  # the latest, as for anyone
