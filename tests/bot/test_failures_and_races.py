"""What a clumsy click or a failed Discord call must not do: move twice, leave a committed move
unannounced, leave a started game without its table, lose the table's last edit at a restart,
leave DMs offering moves in an ended game, show raw player references, or seat bots nobody can
remove. Found by a hostile review (stop 25); each test fails without its fix."""

from __future__ import annotations

import asyncio

import pytest

from bot import edits
from bot.records import name_from, unique_name
from tests.bot.e2e import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    START,
    auto_choice,
    make_bot,
    open_table,
    play_auto_move,
)
from tests.support.clock import Clock
from tests.support.discord_harness import DiscordHarness, FakeMessage

CALLBACK = r"/interactions/\d+/[^/]+/callback"


def versions_shown(message: FakeMessage) -> set[str]:
    """The versions the message's move controls were rendered at."""
    return {c["custom_id"].split(":")[2] for c in message.buttons() + message.selects()
            if c["custom_id"].startswith(("pa:", "ps:"))}


async def test_a_double_click_moves_once(tmp_path, monkeypatch):
    """Deathly Thrones' "Draw battle cards" may offer the same choices again once drawn: both
    clicks of a double click used to be applied. At every fight of a game, the first click
    moves; the second is told the game moved on."""
    monkeypatch.setattr(edits, "PACING", None)
    bot = make_bot(tmp_path / "p.db", seed=5)
    doubled = 0
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "deathly-thrones", [ALICE])
        for _ in range(400):
            session = await bot.service.active_in_channel(CHANNEL)
            if session is None:
                break
            labels = [b.get("label") for b in table.buttons()]
            if session.state().phase == "fight" and "Draw battle cards" in labels:
                cid = h.find_button(table, "Draw battle cards")
                first, second = await asyncio.gather(h.click(table, cid, user=ALICE),
                                                     h.click(table, cid, user=ALICE))
                log = await bot.service.recent_log(session.id, limit=5)
                assert [e.action_key for e in log if e.version > session.version] == ["battle"]
                assert not first.ephemeral
                assert second.ephemeral and "moved on" in second.text()
                assert versions_shown(table) <= {str(session.version + 1)}  # the answer's controls are current
                doubled += 1
                continue
            await h.click(table, next(b for b in table.buttons() if b.get("label") != "My hand")["custom_id"],
                          user=ALICE)  # the first button: on to the next fight
    assert doubled >= 3


async def test_a_typed_move_whose_answer_fails_is_still_shown_and_the_next_player_told(tmp_path):
    """/move is committed, then Discord refuses its "Played ..." answer: the table still shows
    the new turn and the player whose turn it is gets their ping (before the fix: the old table
    and nobody told, until the turn timer played for them)."""
    bot = make_bot(tmp_path / "p.db", clock=Clock(START))
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "terra-sancta", [ALICE, BOB], options="factions=random")
        session = await bot.service.active_in_channel(CHANNEL)
        assert session is not None
        mover = int(session.state().turn_player)
        other = BOB if mover == ALICE else ALICE
        choices = await h.autocomplete("move", user=mover, channel=CHANNEL, options={"move": ""}, focused="move")
        h.fail_next("POST", CALLBACK, 500)
        with h.allow_errors():
            await h.slash("move", user=mover, channel=CHANNEL, options={"move": choices[0]["value"]})
        await bot.controller.edits.drain()
        after = await bot.service.active_in_channel(CHANNEL)
        assert after is not None and after.version > session.version
        assert int(after.state().turn_player) == other
        assert versions_shown(table) == {str(after.version)}
        assert f"to act: <@{other}>" in table.content
        assert any(f"<@{other}>" in m.content and "your turn" in m.content for m in h.messages_in(CHANNEL))


async def test_leaving_when_the_answer_fails_still_hands_the_turn_on(tmp_path):
    """/game leave on your turn: the automatic player takes the seat and plays; Discord refuses
    the "You left" answer. The table and the next player's DM still show the turn passed."""
    bot = make_bot(tmp_path / "p.db", seed=11)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "gods-of-magic", [ALICE, BOB, CAROL], options="target=100")
        for _ in range(40):  # until one person alone is to act (the setup is over)
            session = await bot.service.active_in_channel(CHANNEL)
            assert session is not None
            if len(session.game().to_act(session.state())) == 1 and session.state().phase == "play":
                break
            await play_auto_move(h, bot)
        leaver = session.seat(session.game().to_act(session.state())[0]).user_id
        h.fail_next("POST", CALLBACK, 500)
        with h.allow_errors():
            await h.slash("game leave", user=leaver, channel=CHANNEL)
        await bot.controller.edits.drain()
        after = await bot.service.active_in_channel(CHANNEL)
        assert after is not None
        nxt = after.seat(after.game().to_act(after.state())[0]).user_id
        assert nxt != leaver
        assert f"to act: <@{nxt}>" in table.content
        assert "your move" in h.dms_to(nxt)[-1].content


async def test_a_start_whose_answer_fails_still_shows_the_table_and_deals(tmp_path):
    """The host presses Start and Discord refuses that answer: the game has started, so the
    lobby message still becomes the table and every player gets their hand."""
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot) as h:
        lobby = (await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": "gods-of-magic"})).message
        await h.click(lobby, h.find_button(lobby, "Join"), user=BOB)
        h.fail_next("POST", CALLBACK, 500)
        with h.allow_errors():
            await h.click(lobby, h.find_button(lobby, "Start"), user=ALICE)
        await bot.controller.edits.drain()
        session = await bot.service.active_in_channel(CHANNEL)
        assert session is not None and session.status == "active"
        assert session.table_message_id == lobby.id
        assert "Start" not in [b.get("label") for b in lobby.buttons()]
        assert lobby.content.startswith("**Gods of Magic** · to act:")
        assert len(h.dms_to(ALICE)) == 1 and len(h.dms_to(BOB)) == 1


async def test_a_stopping_bot_makes_the_table_edits_it_still_has_queued(tmp_path, monkeypatch):
    """Edits of one channel are paced; a bot stopped while one waits used to drop it, and the
    table showed an older turn after the restart. Now it waits for them (a few seconds at most)."""
    monkeypatch.setattr(edits, "PACING", (1, 2.0))  # one edit per 2 s in a channel: the next ones wait
    bot = make_bot(tmp_path / "p.db", seed=11)
    h = DiscordHarness(bot)
    await h.start()
    table = await open_table(h, "gods-of-magic", [ALICE, BOB], options="target=100")
    for _ in range(6):
        await play_auto_move(h, bot)
    assert bot.controller is not None
    session = await bot.service.active_in_channel(CHANNEL)
    assert session is not None
    assert bot.controller.edits.busy()  # the table's last edits wait for room
    await bot.close()  # as on SIGTERM, before anything else waits for the bot's tasks
    assert not bot.controller.edits.busy()
    await h.close(raise_errors=False)
    assert versions_shown(table) <= {str(session.version)}
    to_act = session.seat(session.game().to_act(session.state())[0]).user_id
    assert f"to act: <@{to_act}>" in table.content


async def test_ending_a_game_tells_every_dm_and_takes_their_controls(tmp_path):
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "gods-of-magic", [ALICE, BOB])
        assert h.dms_to(ALICE)[-1].buttons() or h.dms_to(ALICE)[-1].selects()
        await h.slash("game end", user=ALICE, channel=CHANNEL)
        await bot.controller.edits.drain()
        assert "The game was ended." in table.text()
        for user in (ALICE, BOB):
            dm = h.dms_to(user)[-1]
            assert dm.content.startswith("**Gods of Magic** was ended")
            assert not dm.buttons() and not dm.selects()


async def test_a_story_form_names_the_players_it_speaks_of(tmp_path):
    """Gods of Magic with storytelling: a move into another player's realm asks for a line in a
    form titled with the move; its title shows the player's name, not their raw reference."""
    bot = make_bot(tmp_path / "p.db", seed=9)
    async with DiscordHarness(bot) as h:
        await open_table(h, "gods-of-magic", [ALICE, BOB, CAROL], bots=1, options="storytelling=on")
        for _ in range(150):
            if await play_auto_move(h, bot) is None:
                break
        titles = [c.json["data"]["title"] for c in h.calls
                  if c.via == "webhook" and isinstance(c.json, dict) and c.json.get("type") == 9]
    assert titles, "no story form in 150 moves"
    assert not [t for t in titles if "⟨" in t]
    named = [t for t in titles if any(n in t for n in ("alice", "bob", "carol", "Automaton 1"))]
    assert named, titles  # forms about another player's realm, titled with their name


def test_a_record_named_after_a_person_is_a_name_a_person_could_type():
    assert name_from("»new", "character") == "new"
    assert name_from("Zoë  the   Bold", "character") == "Zoë the Bold"
    assert name_from("🐉🔥", "character") == "Character"
    assert name_from("@everyone **x**", "character") == "everyone x"
    assert len(name_from("a" * 32 + "b" * 32, "character")) <= 40
    assert unique_name("abc", {"abc"}) == "abc 2"


async def test_a_bot_seated_by_a_double_click_can_be_removed(tmp_path):
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot) as h:
        lobby = (await h.slash("game new", user=ALICE, channel=CHANNEL, options={"game": "terra-sancta"})).message
        assert "Remove bot" not in [b.get("label") for b in lobby.buttons()]
        cid = h.find_button(lobby, "Add bot")
        await asyncio.gather(h.click(lobby, cid, user=ALICE), h.click(lobby, cid, user=ALICE))
        session = await bot.service.active_in_channel(CHANNEL)
        assert session is not None and [s.auto for s in session.seats] == [False, True, True]
        refused = await h.click(lobby, h.find_button(lobby, "Remove bot"), user=BOB)  # not the host
        assert refused.ephemeral
        await h.click(lobby, h.find_button(lobby, "Remove bot"), user=ALICE)
        session = await bot.service.active_in_channel(CHANNEL)
        assert session is not None and [s.name for s in session.seats] == ["alice", "Automaton 1"]
        await h.click(lobby, h.find_button(lobby, "Start"), user=ALICE)
        session = await bot.service.active_in_channel(CHANNEL)
        assert session is not None and session.status == "active"


async def test_slow_commands_answer_their_user_alone(tmp_path, monkeypatch):
    """/move, /game leave and /game back whose work outlasts the response budget are deferred:
    the "thinking" message and the answer that replaces it are ephemeral, as a quick answer is
    (a plain deferral made them public)."""
    from bot import controller

    monkeypatch.setattr(controller, "RESPONSE_BUDGET", 0.0)  # as if the database took seconds
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot) as h:
        await open_table(h, "terra-sancta", [ALICE, BOB], options="factions=random")
        session = await bot.service.active_in_channel(CHANNEL)
        assert session is not None
        mover = int(session.state().turn_player)
        choices = await h.autocomplete("move", user=mover, channel=CHANNEL, options={"move": ""}, focused="move")
        answers = [await h.slash("move", user=mover, channel=CHANNEL, options={"move": choices[0]["value"]}),
                   await h.slash("game leave", user=BOB, channel=CHANNEL),
                   await h.slash("game back", user=BOB, channel=CHANNEL)]
        for reply, said in zip(answers, ("Played", "You left", "yours again"), strict=True):
            assert reply.type == 5 and reply.ephemeral  # deferred, privately
            assert said in reply.followups[0].content
        public = [m.content for m in h.messages_in(CHANNEL) if not m.ephemeral]
        assert not any(s in c for c in public for s in ("Played", "You left", "yours again"))
        assert any("your turn" in c for c in public)  # the turn ping stays public


async def test_automatic_players_tell_a_line_in_strict_storytelling(tmp_path):
    """Strict storytelling refuses a story move without a line: the automatic player (a seat, or
    the timer playing a late turn) gives one, so a game with an automatic seat plays to its end
    (before: the move handing the turn to it was refused)."""
    from bot.service.base import AUTO_STORY

    bot = make_bot(tmp_path / "p.db", seed=5)
    async with DiscordHarness(bot) as h:
        await open_table(h, "gods-of-magic", [ALICE], bots=1, options="storytelling=strict target=100")
        session = await bot.service.active_in_channel(CHANNEL)
        assert session is not None
        for _ in range(300):
            if await play_auto_move(h, bot) is None:
                break
        log = await bot.service.recent_log(session.id, limit=1000)
        assert (await bot.service.get(session.id)).status == "finished"
        told = [e for e in log if e.text == AUTO_STORY]
        assert told and all(e.player_id == "bot-1" for e in told)


async def test_a_dm_whose_answer_failed_is_brought_up_to_date(tmp_path):
    """A move clicked in a DM whose answer (the edit of that DM) Discord refuses is committed;
    the DM is then edited like any other, so its controls work (before: it was skipped as if
    answered, and its next click was out of date)."""
    from bot.ui import ids
    from tests.bot.e2e import component_for

    bot = make_bot(tmp_path / "p.db", seed=11)
    async with DiscordHarness(bot) as h:
        await open_table(h, "gods-of-magic", [ALICE, BOB], options="target=100")
        s = await bot.service.active_in_channel(CHANNEL)
        assert s is not None
        pid = s.seat_of_user(ALICE).player_id
        key = next(a.key for a in s.legal_actions(pid) if a.key.startswith("set:"))
        found = component_for([h.dms_to(ALICE)[-1]], s.id, s.version, key)
        assert found is not None
        m, cid, vals = found
        h.fail_next("POST", CALLBACK, 500)
        with h.allow_errors():
            await (h.click(m, cid, user=ALICE) if vals is None else h.select(m, cid, vals, user=ALICE))
        await bot.controller.edits.drain()
        after = await bot.service.active_in_channel(CHANNEL)
        assert after is not None and after.version > s.version
        seat = after.seat_of_user(ALICE)
        dm = h.dms_to(ALICE)[-1]
        shown = {p.version for c in dm.buttons() + dm.selects()
                 if (p := ids.parse(c["custom_id"])) is not None and p.version is not None}
        assert shown and min(shown) >= seat.actions_version  # every control current


def _visible(message: FakeMessage) -> tuple[str, str]:
    """What a reader sees of a message: its text and embeds (control versions aside)."""
    import json

    return message.content, json.dumps(message.embeds, sort_keys=True)


async def _creation_with_a_way_out(h: DiscordHarness, bot) -> tuple:
    """Automatic moves until a Gods of Magic god may finish their Creation from the table or
    pick a card of the hand in private: (the session, that god, the keys of their private picks)."""
    for _ in range(300):
        s = await bot.service.active_in_channel(CHANNEL)
        assert s is not None, "no Creation with a way out"
        st = s.state()
        pid = s.game().to_act(st)[0]
        if st.phase == "magic" and st.building is None and st.step == "creation" and st.plays_left < 2:
            picks = [a.key for a in s.legal_actions(pid) if a.private and a.key.startswith("play.card:")]
            if picks:
                return s, pid, picks
        await play_auto_move(h, bot)
    raise AssertionError("no Creation with a way out in 300 moves")


async def test_a_card_picked_in_private_leaves_the_table_reading_the_same(tmp_path):
    """Gods of Magic: a god with a public way out on the table (finish a Creation) picks a card of
    the hand in the DM, goes back, picks again: the table shows the same (its dice and Latest
    panels stay; before, the first pick blanked them, telling the table a card was picked)."""
    from tests.bot.e2e import component_for

    bot = make_bot(tmp_path / "p.db", seed=2)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "gods-of-magic", [ALICE, BOB], options="target=100")
        s, pid, picks = await _creation_with_a_way_out(h, bot)
        await bot.controller.edits.drain()
        before = _visible(table)
        assert "Latest" in before[1]
        user = s.seat(pid).user_id
        for key in (picks[0], "play.back", picks[0]):
            now = await bot.service.active_in_channel(CHANNEL)
            assert now is not None
            found = component_for([h.dms_to(user)[-1]], now.id, now.version, key, oldest=now.seat(pid).actions_version)
            assert found is not None, key
            m, cid, vals = found
            await (h.click(m, cid, user=user) if vals is None else h.select(m, cid, vals, user=user))
            await bot.controller.edits.drain()
            assert _visible(table) == before, key
        finish = await h.click(table, h.find_button(table, "Finish the Creation"), user=user)
        assert not finish.ephemeral  # the table's way out works while the card is picked
        after = await bot.service.active_in_channel(CHANNEL)
        assert after is not None and after.state().building is None and after.state().step != "creation"


async def test_a_double_click_on_a_private_control_moves_once(tmp_path, monkeypatch):
    """Guilty Gods against an automatic attacker: "Take the hit" double-clicked in the DM. The
    attacker attacks again at once and the defence reads the same, so the second click used to
    take a second hit; a player's own move spends their older controls, private ones too."""
    from tests.bot.e2e import component_for

    monkeypatch.setattr(edits, "PACING", None)
    for seed in range(1, 30):
        bot = make_bot(tmp_path / f"g{seed}.db", seed=seed)
        async with DiscordHarness(bot) as h:
            await open_table(h, "guilty-gods", [ALICE], bots=1)
            for _ in range(200):
                s = await bot.service.active_in_channel(CHANNEL)
                if s is None or s.status != "active":
                    break
                seat = s.seat_of_user(ALICE)
                assert seat is not None
                if seat.player_id in s.game().to_act(s.state()) and \
                        any(a.key == "hit" for a in s.legal_actions(seat.player_id)):
                    await bot.controller.edits.drain()
                    found = component_for(h.dms_to(ALICE), s.id, s.version, "hit", oldest=seat.actions_version)
                    assert found is not None
                    m, cid, _ = found
                    first, second = await asyncio.gather(h.click(m, cid, user=ALICE), h.click(m, cid, user=ALICE))
                    log = await bot.service.recent_log(s.id, limit=200)
                    hits = [e for e in log if e.version > s.version and e.action_key == "hit"
                            and e.player_id == seat.player_id]
                    again = (await bot.service.get(s.id)).state()
                    if any(a.key == "hit" for a in s.game().legal_actions(again, seat.player_id)):
                        assert len(hits) == 1  # the case: the same choice offered again
                        assert second.ephemeral and "moved on" in second.text()
                        return
                    break
                if await play_auto_move(h, bot) is None:
                    break
    pytest.fail("no repeated 'Take the hit' in 29 games")


async def test_a_move_whose_commit_fails_leaves_no_events_for_the_table_to_keep(tmp_path, monkeypatch):
    """The answer of a table click is rendered during its commit; when that COMMIT then fails,
    the events it rendered were never told: a later private step must not show them (before, the
    table told Bob's turn while the state was still Alice's Creation)."""
    import sqlite3

    import bot.store.sqlite as sqlite_store
    from tests.bot.e2e import component_for

    real = sqlite_store._run_guarded
    failing = [False]

    def guarded(db, statements, before_commit=None):
        if not failing[0]:
            return real(db, statements, before_commit)
        failing[0] = False
        db.execute("BEGIN")
        try:
            first, *rest = statements
            assert db.execute(first.sql, first.params).rowcount == 1
            for st in rest:
                db.executemany(st.sql, st.rows) if st.rows is not None else db.execute(st.sql, st.params)
            before_commit()  # the answer is rendered now, as on a real commit
            raise sqlite3.OperationalError("disk I/O error")  # and the COMMIT fails
        finally:
            if db.in_transaction:
                db.execute("ROLLBACK")

    monkeypatch.setattr(sqlite_store, "_run_guarded", guarded)
    bot = make_bot(tmp_path / "p.db", seed=2)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "gods-of-magic", [ALICE, BOB], options="target=100")
        s, pid, picks = await _creation_with_a_way_out(h, bot)
        user = s.seat(pid).user_id
        failing[0] = True
        with h.allow_errors():
            await h.click(table, h.find_button(table, "Finish the Creation"), user=user)
        now = await bot.service.active_in_channel(CHANNEL)
        assert now is not None and now.version == s.version  # nothing was written
        found = component_for([h.dms_to(user)[-1]], now.id, now.version, picks[0],
                              oldest=now.seat(pid).actions_version)
        assert found is not None
        m, cid, vals = found
        await (h.click(m, cid, user=user) if vals is None else h.select(m, cid, vals, user=user))
        await bot.controller.edits.drain()
        assert "Turn " not in table.text() and "draws 1 card" not in table.text()  # Bob's turn, never told


async def test_a_click_whose_commit_fails_is_answered_that_nothing_was_saved(tmp_path, monkeypatch):
    """A disk error at COMMIT used to escape the click unanswered ("This interaction failed"):
    the clicker is told the move was not saved and may try again, and the game is unchanged."""
    import sqlite3

    import bot.store.sqlite as sqlite_store
    from bot.controller import NOT_SAVED

    real = sqlite_store._run_guarded
    failing = [False]

    def guarded(db, statements, before_commit=None):
        if failing[0]:
            failing[0] = False
            raise sqlite3.OperationalError("disk I/O error")
        return real(db, statements, before_commit)

    monkeypatch.setattr(sqlite_store, "_run_guarded", guarded)
    bot = make_bot(tmp_path / "p.db", seed=4)
    async with DiscordHarness(bot) as h:
        await open_table(h, "terra-sancta", [ALICE, BOB], options="factions=random")
        before, seat, _, found = await auto_choice(h, bot)
        message, cid, values = found

        async def use():
            return await (h.click(message, cid, user=seat.user_id) if values is None
                          else h.select(message, cid, values, user=seat.user_id))

        failing[0] = True
        with h.allow_errors() as caught:
            reply = await use()
        assert caught, "the failure is logged"
        assert reply.ephemeral and NOT_SAVED in reply.text()
        assert (await bot.service.active_in_channel(CHANNEL)).version == before.version
        again = await use()
        assert NOT_SAVED not in again.text()
        assert (await bot.service.active_in_channel(CHANNEL)).version > before.version


async def test_a_forms_id_on_a_button_is_answered(tmp_path):
    """A button or menu whose id is a form's (pm:...) is no control Pantheon makes: it gets the
    answer for a damaged control instead of none."""
    import discord

    from bot.controller import UNREADABLE

    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot) as h:
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Odd", custom_id="pm:1:1:line"))
        sent = await h.bot.get_channel(CHANNEL).send("odd", view=view)
        message = h.message(sent.id)
        reply = await h.click(message, "pm:1:1:line", user=ALICE)
        assert reply.ephemeral and UNREADABLE in reply.text()


async def test_a_table_click_whose_next_step_is_private_says_where_to_go_on(tmp_path):
    """By Gods and Kings: an ability chosen on the table asks for the card to spend in private;
    the clicker is told, in an answer only they see, that the next choice is in their DM."""
    from bot.controller import PRIVATE_NEXT
    from tests.bot.e2e import component_for

    bot = make_bot(tmp_path / "p.db", seed=5)
    async with DiscordHarness(bot) as h:
        table_message = await open_table(h, "by-gods-and-kings", [ALICE, BOB], options="party=2")
        for _ in range(400):
            s = await bot.service.active_in_channel(CHANNEL)
            if s is None or s.status != "active":
                break
            found = None
            for seat in s.seats:
                if seat.auto:
                    continue
                for a in s.legal_actions(seat.player_id):
                    if a.key.startswith("use.ability:") and not a.private:
                        after = s.game().apply(s.state(), seat.player_id, a.key).state
                        if any(x.private for x in s.game().legal_actions(after, seat.player_id)) and \
                                not any(x.private for x in s.legal_actions(seat.player_id)):
                            hit = component_for([table_message], s.id, s.version, a.key,
                                                oldest=seat.actions_version)
                            if hit is not None:
                                found = (seat, hit)
                                break
                if found:
                    break
            if found:
                seat, (message, cid, values) = found
                reply = await (h.click(message, cid, user=seat.user_id) if values is None
                               else h.select(message, cid, values, user=seat.user_id))
                told = [m for m in reply.followups if PRIVATE_NEXT in m.text()]
                assert told and all(m.ephemeral for m in told)
                return
            await play_auto_move(h, bot)
        pytest.fail("no ability chosen on the table led to a private step in this game")


async def test_a_table_answer_landing_after_a_newer_edit_is_corrected(tmp_path):
    """Issue 28 item 3: Alice's answer from the table is slow to land; meanwhile Bob moves with
    /move and the table is edited to his move. Alice's answer then puts the older table back
    (Bob to act, a dead control): the table is edited to the newest state again."""
    from bot import table as tables

    bot = make_bot(tmp_path / "p.db", seed=3)
    async with DiscordHarness(bot) as h:
        table_message = await open_table(h, "terra-sancta", [ALICE, BOB], options="factions=random")
        first = int((await bot.service.active_in_channel(CHANNEL)).state().turn_player)
        second = BOB if first == ALICE else ALICE
        await play_auto_move(h, bot)  # the first player picks a piece
        s, seat, action, found = await auto_choice(h, bot)
        assert seat.user_id == first and found is not None
        message, cid, values = found
        h.slow_answer(first, 0.3)  # this player's answer takes its time

        async def second_moves():
            await asyncio.sleep(0.1)  # the first move is committed by now
            choices = await h.autocomplete("move", user=second, channel=CHANNEL, options={"move": ""},
                                           focused="move")
            quiet = next(c["value"] for c in choices if "x" not in c["value"] and "*" not in c["value"])
            await h.slash("move", user=second, channel=CHANNEL, options={"move": quiet})
            await bot.controller.edits.drain()

        click = h.click(message, cid, user=first) if values is None else h.select(message, cid, values,
                                                                                  user=first)
        await asyncio.gather(click, second_moves())
        await h.settle()
        await bot.controller.edits.drain()
        now = await bot.service.active_in_channel(CHANNEL)
        assert now.state().turn_player == str(first)  # both moves were made
        assert table_message.content == (await tables.render_table(now)).content
