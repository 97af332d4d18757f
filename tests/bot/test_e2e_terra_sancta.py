"""Terra Sancta through Discord: the board image, menus, /move with autocomplete, a whole game."""

from __future__ import annotations

import asyncio

import pytest

from tests.bot.e2e import ALICE, BOB, CAROL, CHANNEL, make_bot, open_table, play_auto_move
from tests.support.discord_harness import DiscordHarness

PNG = b"\x89PNG\r\n\x1a\n"
IMAGE = "terra-sancta.png"


@pytest.fixture
def db(tmp_path):
    return tmp_path / "pantheon.db"


async def test_board_image_menus_and_typed_moves(db):
    bot = make_bot(db, seed=21)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "terra-sancta", [ALICE, BOB])
        assert h.dms_to(ALICE) == [] and h.dms_to(BOB) == []  # nothing hidden: no DMs
        # the factions are chosen first, from the table
        for _ in range(2):
            await play_auto_move(h, bot)
        session = await bot.service.active_in_channel(CHANNEL)
        state = session.state()
        assert state.stage in ("select", "act")
        board = table.attachments.get(IMAGE)
        assert board is not None and board.startswith(PNG)
        assert any((e.get("image") or {}).get("url") == f"attachment://{IMAGE}" for e in table.embeds)
        mover = int(state.turn_player)
        other = ALICE if mover == BOB else BOB
        # the piece menu is a select on the table
        assert any("piece" in (s.get("placeholder") or "").lower() for s in table.selects())
        # /move: autocomplete offers legal typed moves; a wrong player or a bad line is explained
        choices = await h.autocomplete("move", user=mover, channel=CHANNEL, options={"move": ""},
                                       focused="move")
        assert choices and all(c["value"] for c in choices)
        r = await h.slash("move", user=other, channel=CHANNEL, options={"move": choices[0]["value"]})
        assert r.ephemeral
        r = await h.slash("move", user=mover, channel=CHANNEL, options={"move": "z9 q1"})
        assert r.ephemeral and "can't read" in r.text()
        before = (await bot.service.get(session.id)).version
        quiet = next(c["value"] for c in choices if "x" not in c["value"] and "*" not in c["value"])
        r = await h.slash("move", user=mover, channel=CHANNEL, options={"move": quiet})
        assert r.ephemeral and "Played" in r.text()
        after = await bot.service.get(session.id)
        assert after.version > before
        frm, to = quiet.split()
        assert frm in table.text() or to in table.text() or after.state().turn_player != str(mover)
        assert table.attachments[IMAGE] != board  # the board image was redrawn


async def test_alone_against_three_automatic_players_to_the_end(db):
    bot = make_bot(db, seed=4)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "terra-sancta", [ALICE], bots=3, options="factions=random")
        moves = 0
        while await play_auto_move(h, bot) is not None:
            moves += 1
            assert moves < 1500
        assert "game over" in table.text().lower()
        assert table.attachments[IMAGE].startswith(PNG)
        stats = await h.slash("game stats", user=CAROL, channel=CHANNEL, options={"game": "terra-sancta"})
        assert "alice" in stats.text() and "faction " in stats.text()


async def test_turn_ping_replaces_itself_when_nothing_is_sent_by_dm(db):
    bot = make_bot(db, seed=21)
    async with DiscordHarness(bot) as h:
        table = await open_table(h, "terra-sancta", [ALICE, BOB])
        pings_seen = set()
        for _ in range(8):
            await play_auto_move(h, bot)
            pings = [m for m in h.messages_in(CHANNEL) if m.content.startswith("🔔")]
            assert len(pings) <= 1  # one ping per table, the old one deleted
            if pings:
                pings_seen.add(pings[0].content)
        assert any(f"<@{ALICE}>" in p for p in pings_seen) and any(f"<@{BOB}>" in p for p in pings_seen)
        assert h.messages_in(CHANNEL)[0] is table


async def test_the_board_picture_is_drawn_off_the_event_loop(db, monkeypatch):
    """Drawing and encoding the PNG takes milliseconds: it happens in a worker thread, so
    other tables keep being served meanwhile; a move's board is drawn while the move is saved
    (the answer then takes it from the cache, without a hop to a thread of its own)."""
    import threading

    from bot import table as tables
    from bot.render import terra_sancta as board

    threads: list[str] = []
    real = board._encode

    def encode(view):
        threads.append(threading.current_thread().name)
        return real(view)

    monkeypatch.setattr(board, "_encode", encode)
    board.BOARDS.clear()  # boards another test drew (the same seeded game) would not be drawn again
    bot = make_bot(db, seed=3)
    saved_while_drawing: list[bool] = []
    async with DiscordHarness(bot) as h:
        table_msg = await open_table(h, "terra-sancta", [ALICE], bots=1, options="factions=random")
        assert table_msg.attachments  # the board is there
        store = bot.service.store
        real_save = store.save

        async def save(session, expected, **kw):
            ahead = tables._ahead.get(session.id)
            saved_while_drawing.append(ahead is not None and ahead[0] == session.state_json)
            return await real_save(session, expected, **kw)

        monkeypatch.setattr(store, "save", save)
        hops = []
        real_hop = asyncio.to_thread
        monkeypatch.setattr(tables.asyncio, "to_thread", lambda *a, **k: hops.append(1) or real_hop(*a, **k))
        for _ in range(6):
            before = table_msg.attachments.get(IMAGE)
            assert await play_auto_move(h, bot) is not None
            assert table_msg.attachments.get(IMAGE) != before
        await h.slash("game status", user=ALICE, channel=CHANNEL)
    main = threading.main_thread().name
    assert threads and all(name != main for name in threads)
    assert saved_while_drawing and all(saved_while_drawing)
    assert hops == []  # the answers (and the status just after) took the boards drawn ahead


@pytest.mark.parametrize("game_id", ["guilty-gods", "by-gods-and-kings", "terra-sancta"])
async def test_only_a_game_that_draws_ahead_gets_a_drawing_started_before_the_save(game_id):
    """Guilty Gods and By Gods and Kings draw their pictures after the answer (no worker job
    before the save, no wait in front of the answer); Terra Sancta draws its board ahead."""
    import rules
    from bot import table as tables
    from bot.models import Session

    game = rules.get_game(game_id)
    state = game.setup(["p0", "p1"], {}, 3)
    session = Session(id=777, guild_id=1, channel_id=1, game_id=game_id, status="active", host_id=1,
                      options={}, seats=[], state_json=game.dump_state(state), version=2,
                      created_at=0, updated_at=0)
    tables._ahead.pop(777, None)
    tables.draw_ahead(session)
    started = tables._ahead.pop(777, None)
    assert (started is not None) == (game_id == "terra-sancta")
    if started is not None:
        assert await started[1] is True
