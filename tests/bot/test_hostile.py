"""What a hostile (or unlucky) user can try through Discord: hands reaching public messages,
pings through display names, forged components and values, forms across a restart."""

from __future__ import annotations

import pytest

from bot.ui import ids
from tests.bot.e2e import ALICE, BOB, CAROL, CHANNEL, make_bot, open_table, play_auto_move
from tests.support.discord_harness import DiscordHarness, FakeMessage
from tests.support.guards import leaks, message_text_all, unintended_pings

GAME = "test-high-card"


@pytest.fixture
def db(tmp_path):
    return tmp_path / "pantheon.db"


def _hand_names(session, player: str) -> dict[str, str]:
    return {c.name: c.name for c in session.state().hands[player]}


async def test_a_click_on_an_old_table_never_turns_it_into_a_hand(db):
    """/game status re-posts the table; the old one could not be stripped (the edit failed), so
    it still has buttons. A click there answers with the table, never the clicker's hand."""
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        old = await open_table(h, GAME, [ALICE, BOB])
        h.fail_next("PATCH", rf"/channels/{CHANNEL}/messages/{old.id}$", 500)
        with h.allow_errors():
            await h.slash("game status", user=BOB, channel=CHANNEL)
        new = h.last_in(CHANNEL)
        assert new.id != old.id and old.buttons()  # the old table kept its buttons
        session = await bot.service.active_in_channel(CHANNEL)
        hand = _hand_names(session, str(ALICE))
        modal = await h.click(old, h.find_button(old, "Cheer"), user=ALICE)
        reply = await h.submit_modal(modal, {"line": "Hello"}, user=ALICE)
        assert reply.type == 7  # the clicked message was edited ...
        text = message_text_all(old)
        assert leaks(text, hand) == []  # ... into public content only
        assert "pv:" not in text and "pw:" not in text
        assert "to act" in old.content and "Hello" in old.text()
        assert "Hello" in new.text()  # the current table was brought up to date as well


async def test_a_private_control_on_a_public_message_is_refused(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        await open_table(h, GAME, [ALICE, BOB])
        session = await bot.service.active_in_channel(CHANNEL)
        alice = session.seat_of_user(ALICE)
        forged = ids.action_id(session.id, session.version, "play:0", seat=alice.position)
        public = FakeMessage(id=515151, channel_id=CHANNEL, guild_id=h.guild_id, components=[
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": forged}]}])
        r = await h.click(public, forged, user=ALICE)
        assert r.ephemeral and "private view" in r.text()
        assert public.components and public.edits == 0  # not edited into anything
        assert (await bot.service.get(session.id)).version == session.version  # nothing played


async def test_a_private_view_of_another_seat_is_refused(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        await open_table(h, GAME, [ALICE, BOB])
        session = await bot.service.active_in_channel(CHANNEL)
        alice = session.seat_of_user(ALICE)
        forged = ids.action_id(session.id, session.version, "play:0", seat=alice.position)
        # a DM of Bob's carrying Alice's private control (a copied custom id)
        dm_channel = h.dm_channel_id(BOB)
        dm = FakeMessage(id=525252, channel_id=dm_channel, components=[
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": forged}]}])
        r = await h.click(dm, forged, user=BOB)
        assert r.ephemeral and "another player" in r.text()
        assert (await bot.service.get(session.id)).version == session.version


@pytest.mark.parametrize("values", [["»page:abc"], ["»page:"], ["»page:99999"], [7], [None], [],
                                    ["x" * 500], ["a", "b"]])
async def test_forged_select_values_get_a_clear_answer(db, values):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        await open_table(h, GAME, [ALICE, BOB])
        session = await bot.service.active_in_channel(CHANNEL)
        cid = ids.select_id(session.id, session.version, 0, 0)
        msg = FakeMessage(id=535353, channel_id=CHANNEL, guild_id=h.guild_id, components=[
            {"type": 1, "components": [{"type": 3, "custom_id": cid, "options": [
                {"label": "x", "value": str(v)} for v in values if v is not None] or [
                {"label": "x", "value": "x"}]}]}])
        # a forged interaction: values that are not options, not strings, or too many
        r = await h._interact(3, {"custom_id": cid, "component_type": 3, "values": values},
                              user=ALICE, source=msg)
        assert r.ephemeral and "Pick one of the options" in r.text()
        assert (await bot.service.get(session.id)).version == session.version


async def test_a_display_name_mention_never_pings(db):
    """A nickname `<@1004>` is shown in the 📪 line; only the players to act may be pinged."""
    bot = make_bot(db)
    members = {ALICE: "alice", BOB: "<@1004>", CAROL: "carol", 1004: "dave"}
    async with DiscordHarness(bot, members=members) as h:
        h.block_dms(BOB)
        table = await open_table(h, GAME, [ALICE, BOB])
        # the name is shown as typed (escaped: Discord shows `<@1004>`, not a mention) ...
        assert "\\<@\u200b1004\\>" in table.content and "<@1004>" not in table.content
        session = await bot.service.active_in_channel(CHANNEL)
        to_act = {session.seat(p).user_id for p in session.game().to_act(session.state())}
        assert unintended_pings(h, to_act | {ALICE, BOB}) == []  # ... and never pings Dave
        assert not any(1004 in _pinged(c) for c in h.calls)


def _pinged(call) -> set[int]:
    from tests.support.guards import _message_bodies, pings

    out: set[int] = set()
    for body in _message_bodies(call):
        out |= pings(body)[0]
    return out


async def test_a_form_sent_before_a_restart_is_applied_after_it(db):
    bot = make_bot(db)
    h = DiscordHarness(bot)
    await h.start()
    await open_table(h, GAME, [ALICE, BOB])
    table = h.last_in(CHANNEL)
    modal = await h.click(table, h.find_button(table, "Cheer"), user=ALICE)
    assert modal.type == 9
    session = await bot.service.active_in_channel(CHANNEL)
    await h.close()
    bot2 = make_bot(db)
    async with DiscordHarness(bot2, restart_of=h) as h2:
        reply = await h2.submit_modal(modal, {"line": "Typed before the restart"}, user=ALICE)
        assert reply.type == 7
        assert "Typed before the restart" in table.text()
        assert (await bot2.service.get(session.id)).version == session.version + 1


async def test_a_stale_form_is_refused_with_the_line_given_back(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB])
        modal = await h.click(table, h.find_button(table, "Cheer"), user=ALICE)
        await play_auto_move(h, bot)  # alice plays a card: her turn is over, the form is stale
        reply = await h.submit_modal(modal, {"line": "My carefully typed line"}, user=ALICE)
        assert reply.ephemeral and "out of date" in reply.text()
        assert "My carefully typed line" in reply.text()


async def test_a_forged_overlong_form_line_is_clipped(db):
    bot = make_bot(db)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, GAME, [ALICE, BOB])
        modal = await h.click(table, h.find_button(table, "Cheer"), user=ALICE)
        from tests.support import payloads as P

        for comp in P.iter_modal_inputs(modal.modal.get("components") or []):
            comp.pop("max_length", None)  # a forged client ignores the form's limit
        reply = await h.submit_modal(modal, {"line": "y" * 3000}, user=ALICE)
        assert reply.type == 7
        session = await bot.service.active_in_channel(CHANNEL)
        assert len(session.state().cheer or "") <= 400


def _silent(entry) -> bool:
    """A log entry of a player's move that told the table nothing (a card picked from a hand)."""
    return entry.player_id is not None and not any(ev.visible_for(None) for ev in entry.events) \
        and entry.action_key not in ("start", "auto", "leave", "back")


async def test_game_log_never_shows_action_keys(db):
    """Choosing a card from the hand leaves a log entry with no public event: the log shows no
    line for it (no "made a choice" either), never the key (which names the card)."""
    bot = make_bot(db, seed=11)
    async with DiscordHarness(bot) as h:
        await open_table(h, "gods-of-magic", [ALICE, BOB], options="target=100")
        session = await bot.service.active_in_channel(CHANNEL)
        for _ in range(200):
            entries = await bot.service.recent_log(session.id, limit=15)
            if any(_silent(e) for e in entries):
                break
            await play_auto_move(h, bot)
        chosen = [e for e in entries if _silent(e)]
        assert chosen, "nobody picked a card to play"
        assert any(":" in e.action_key for e in chosen)  # keys that name a card
        for user in (ALICE, BOB, CAROL):
            reply = await h.slash("game log", user=user, channel=CHANNEL)
            text = reply.text()
            for e in entries:  # a key that names a card (`play.card:E05`, `play:E05:r0`); `roll` is a word
                assert ":" not in e.action_key or e.action_key not in text
            assert "made a choice" not in text


async def test_names_and_story_lines_show_as_typed_with_no_markdown_or_link(tmp_path):
    """A display name or a story line holding markdown or a masked link is shown as typed on the
    table (escaped in the message text and the embeds), never as a link or formatting of the
    bot's own message; buttons, which show no markdown, keep the name as it is."""
    name = "[nitro](https://x.co/a) **"
    line = "[Claim your reward](https://x.co/b) **"
    bot = make_bot(tmp_path / "p.db", seed=8)
    async with DiscordHarness(bot, members={ALICE: "alice", BOB: name}) as h:
        h.block_dms(BOB)
        table = await open_table(h, "gods-of-magic", [ALICE, BOB], options="storytelling=strict")
        told = False
        for _ in range(80):
            session = await bot.service.active_in_channel(CHANNEL)
            assert session is not None
            if session.state().objection is not None:
                told = True
                break
            await play_auto_move(h, bot, story=line)
        assert told, "no story line in 80 moves"
        await bot.controller.edits.drain()
        shown = table.text()
        assert r"\[nitro\]\(https://x.co/a\) \*\*" in table.content  # the closed-DMs line names Bob
        assert r"\[Claim your reward\]\(https://x.co/b\) \*\*" in shown
        for raw in ("[nitro](https://x.co/a)", "[Claim your reward](https://x.co/b)"):
            assert raw not in table.content
            assert not any(raw in str(e) for e in table.embeds)
        labels = [b.get("label") or "" for m in h.messages_in(CHANNEL) for b in m.buttons()]
        assert not any("\\" in label for label in labels)


async def test_a_name_is_plain_where_discord_shows_plain_text_and_escaped_in_refusals(tmp_path):
    """Embed footers show no markdown: a name there is as typed (no backslashes). A refusal that
    names the host escapes the name as message text does."""
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot, members={ALICE: "cool_guy", BOB: "[b]*ob*"}) as h:
        await open_table(h, "guilty-gods", [ALICE, BOB])
        footers = [e.get("footer", {}).get("text", "") for u in (ALICE, BOB) for e in h.dms_to(u)[-1].embeds]
        assert footers == ["[b]*ob* won the roll and chooses a deck."] * 2  # as typed
    bot = make_bot(tmp_path / "q.db")
    async with DiscordHarness(bot, members={ALICE: "[Free nitro](https://x.co/a) **", BOB: "bob"}) as h:
        lobby = (await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": "gods-of-magic"})).message
        await h.click(lobby, h.find_button(lobby, "Join"), user=BOB)
        refused = await h.click(lobby, h.find_button(lobby, "Start"), user=BOB)
        assert refused.ephemeral
        assert r"Only the host (\[Free nitro\]\(https://x.co/a\) \*\*)" in refused.text()
