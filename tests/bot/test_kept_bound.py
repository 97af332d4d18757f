"""KEPT_STATES bounds every parsed state a process holds (issue 30): after more sessions are
touched than it allows, at most that many parsed states are alive, whatever cache keeps the
sessions (the service's saved sessions, the Discord layer's DMs and tables)."""

from __future__ import annotations

import gc

import pytest

import bot.models as models
from bot.app import build_bot
from bot.config import Settings
from bot.sessions import SessionService
from bot.store import Store
from tests.bot.e2e import START, Clock, open_table, play_auto_move
from tests.support.discord_harness import DiscordHarness
from tests.support.highcard import HighCardState

GAME = "test-high-card"
GUILD = 1
KEEP, TABLES = 2, 6


def alive_states() -> int:
    """Parsed High Card states alive in this process (kept anywhere)."""
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is HighCardState)


def alive_memos() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is models.Memo)


@pytest.fixture
def keep(monkeypatch):
    """Set KEPT_STATES for the test (the process-wide size comes back afterwards)."""
    monkeypatch.setattr(models.KEPT, "size", models.KEPT.size)

    def setting(count: int) -> None:
        models.keep_states(count)

    return setting


async def _played_tables(service: SessionService, count: int) -> list[int]:
    """`count` tables started, each with one move: (session ids)."""
    ids = []
    for i in range(count):
        host, guest = 100 + 2 * i, 101 + 2 * i
        s = await service.open_lobby(guild_id=GUILD, channel_id=600 + i, game_id=GAME,
                                     host_id=host, host_name=f"host{i}", options=None)
        s = await service.join(s.id, guest, f"guest{i}")
        s = (await service.start(s.id, host)).session
        pid = s.game().to_act(s.state())[0]
        key = next(a.key for a in s.legal_actions(pid) if a.key.startswith("play:"))
        s = (await service.act(s.id, s.seat(pid).user_id, key, version=s.version)).session
        ids.append(s.id)
    return ids


async def test_saved_sessions_hold_no_parsed_state_beyond_the_setting(tmp_path, keep):
    keep(KEEP)
    store = await Store.open(tmp_path / "pantheon.db")
    service = SessionService(store, clock=Clock(START), seed_source=lambda: 7)
    ids = await _played_tables(service, TABLES)
    assert len(service._saved) == TABLES  # every table's last save is kept (as text) ...
    for sid in ids:  # ... and each is touched again, as a click reads it
        saved = service._saved[sid]
        assert (await service.get_current(sid, saved.version)).state() is not None
    assert alive_states() <= KEEP
    assert alive_memos() <= KEEP
    assert len(models.KEPT) == KEEP
    # the first table's state was dropped: its next click parses it again and plays on
    first = service._saved[ids[0]]
    assert models.known_memo(GAME, first.state_json or "") is None
    session = await service.get_current(ids[0], first.version)
    pid = session.game().to_act(session.state())[0]
    key = next(a.key for a in session.legal_actions(pid) if a.key.startswith("play:"))
    moved = (await service.act(session.id, session.seat(pid).user_id, key, version=session.version)).session
    assert moved.version == first.version + 1
    assert models.known_memo(GAME, moved.state_json or "") is not None
    del session, moved  # the test's own references
    assert alive_states() <= KEEP
    await store.close()


async def test_none_kept_means_no_parsed_state_outlives_its_click(tmp_path, keep):
    keep(0)
    store = await Store.open(tmp_path / "pantheon.db")
    service = SessionService(store, clock=Clock(START), seed_source=lambda: 7)
    await _played_tables(service, 3)
    assert len(service._saved) == 3
    assert alive_states() == 0
    await store.close()


async def test_the_whole_bot_holds_at_most_the_setting(tmp_path, keep):
    """Through Discord: tables, DMs, answers and the edit queue keep no parsed state either."""
    settings = Settings(database_path=tmp_path / "pantheon.db", discord_token="test", kept_states=KEEP)
    bot = build_bot(settings, clock=Clock(START), seed_source=lambda: 7, run_timers=False)
    channels = tuple(700 + i for i in range(TABLES))
    members = {100 + i: f"Player {i}" for i in range(2 * TABLES)}
    async with DiscordHarness(bot, channel_ids=channels, members=members) as h:
        for i, channel in enumerate(channels):
            await open_table(h, GAME, [100 + 2 * i, 101 + 2 * i], channel=channel)
            assert await play_auto_move(h, bot, channel) is not None
        await h.settle()
        assert bot.service is not None and len(bot.service._saved) == TABLES
        assert models.KEPT.size == KEEP  # the setting reached the process
        assert alive_states() <= KEEP
        assert alive_memos() <= KEEP


# --- the bench's rows -------------------------------------------------------------------------
def test_the_memory_row_counts_the_parsed_states_a_process_keeps(monkeypatch, keep):
    from bench import memory

    monkeypatch.setenv("KEPT_STATES", "1")  # the bot the row builds reads it
    bounded = memory.measure(GAME, sessions=3)
    assert bounded.states <= 1 and bounded.sessions == 3 and bounded.traced > 0
    monkeypatch.setenv("KEPT_STATES", "50")
    roomy = memory.measure(GAME, sessions=3)
    assert roomy.states == memory.WARM_TABLES + 3  # every table's current state, kept
    assert f"{roomy.sessions} sessions" in roomy.line() and "MiB" in roomy.line()


def test_the_state_size_row_seats_18_digit_discord_ids(monkeypatch):
    import json
    import re

    import bench.__main__ as bench
    import rules

    game = rules.get_game(GAME)
    dumped: list[str] = []
    real = type(game).dump_state

    def dump(self, state):
        dumped.append(real(self, state))
        return dumped[-1]

    monkeypatch.setattr(type(game), "dump_state", dump)
    monkeypatch.setattr(rules, "REGISTERED", [GAME])
    monkeypatch.setattr(bench, "SIZE_CASES", [])
    [(gid, players, _, largest)] = bench.state_sizes(1)
    assert gid == GAME and players == game.max_players
    assert dumped and largest == max(len(t.encode()) for t in dumped)
    for text in dumped:
        seats = json.loads(text)["players"]
        assert len(seats) == players and all(re.fullmatch(r"[1-9]\d{17}", s) for s in seats)


async def test_edits_waiting_for_their_turn_hold_no_parsed_state(tmp_path, keep):
    settings = Settings(database_path=tmp_path / "pantheon.db", discord_token="test", kept_states=0)
    bot = build_bot(settings, clock=Clock(START), seed_source=lambda: 7, run_timers=False)
    async with DiscordHarness(bot, channel_ids=(700,), members={100: "Ann", 101: "Bob"}) as h:
        assert bot.controller is not None
        bot.controller.edits.pacing = (1, 3600.0)  # one edit an hour: the next ones wait
        await open_table(h, GAME, [100, 101], channel=700)
        for _ in range(3):
            assert await play_auto_move(h, bot, 700) is not None
        await h.settle()
        assert bot.controller.edits._pending  # an edit is waiting
        assert alive_states() == 0
