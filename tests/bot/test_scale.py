"""Running at scale: the settings, compose.yaml, and several bot processes on one PostgreSQL
(each a harnessed, sharded bot in its own OS process: tests/support/shard_worker.py)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from bot.config import Settings, parse_shard_ids
from bot.store import Store
from tests.bot.e2e import ALICE, BOB, CAROL, CHANNEL, DAVE
from tests.support.workers import WorkerProcess

ROOT = Path(__file__).resolve().parents[2]


# --- settings and deployment -------------------------------------------------------------------

def test_one_setting_picks_the_database(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for name in ("DATABASE_URL", "DATABASE_PATH", "SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    assert Settings().database == Path("data/pantheon.db")  # the default, as before
    monkeypatch.setenv("DATABASE_PATH", "elsewhere.db")
    assert Settings().database == Path("elsewhere.db")  # DATABASE_PATH still works
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:p@db:5432/pantheon")
    assert Settings().database == "postgresql://u:p@db:5432/pantheon"
    monkeypatch.setenv("DATABASE_URL", "")  # empty: not set
    assert Settings().database == Path("elsewhere.db")
    monkeypatch.setenv("DATABASE_URL", "mysql://x")
    with pytest.raises(ValidationError, match="DATABASE_URL"):
        Settings()


def test_shard_settings(monkeypatch):
    assert parse_shard_ids("0-3") == [0, 1, 2, 3]
    assert parse_shard_ids("0-1, 4,4") == [0, 1, 4]
    for bad in ("", "a", "3-1", "1-"):
        with pytest.raises(ValueError):
            parse_shard_ids(bad)
    assert Settings(shard_count=4, shard_ids="2-3").shards == [2, 3]
    assert Settings(shard_count=2).shards == [0, 1]
    assert Settings().shards is None
    with pytest.raises(ValidationError, match="below SHARD_COUNT"):
        Settings(shard_count=2, shard_ids="0-2")
    with pytest.raises(ValidationError, match="needs SHARD_COUNT"):
        Settings(shard_ids="0")


def test_build_bot_shards_only_when_asked(tmp_path):
    import discord

    from bot.app import ShardedPantheonBot, build_bot

    plain = build_bot(Settings(database_path=tmp_path / "p.db"))
    assert not isinstance(plain, discord.AutoShardedClient)
    sharded = build_bot(Settings(database_path=tmp_path / "p.db", shard_count=4, shard_ids="2-3"))
    assert isinstance(sharded, ShardedPantheonBot) and isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])


def test_compose_runs_the_bot_after_a_healthy_postgres_on_a_named_volume():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    db = services["db"]
    assert db["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    volume = db["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]  # a named volume, not a folder
    for name in ("bot", "bot-shard-0", "bot-shard-1"):
        bot = services[name]
        assert bot["depends_on"]["db"]["condition"] == "service_healthy"
        assert bot["environment"]["DATABASE_URL"].startswith("postgresql://")
    assert services["bot-shard-1"]["environment"]["SHARD_IDS"] == "1"
    assert "SHARD_COUNT" not in services["bot"]["environment"]


def test_env_example_names_every_new_setting_empty():
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "WORKER_LEASE_SECONDS", "KEPT_STATES"):
        assert f"\n{name}=\n" in text


# --- two bot processes on one PostgreSQL ---------------------------------------------------------

async def _two(url: str, *, lease: float = 60.0) -> tuple[WorkerProcess, WorkerProcess]:
    a, b = await asyncio.gather(
        WorkerProcess.start(url, shard_count=2, shard_ids="0", lease=lease, name="A"),
        WorkerProcess.start(url, shard_count=2, shard_ids="1", lease=lease, name="B"))
    return a, b


async def _open_game(w: WorkerProcess, players: list[int], *, game: str = "test-high-card",
                     timer: str | None = None) -> None:
    await w.ask("slash", name="game new", user=players[0], channel=CHANNEL, options={"game": game})
    for user in players[1:]:
        await w.ask("click_named", label="Join", user=user, channel=CHANNEL)
    if timer is not None:
        await w.ask("select_named", suffix=":turn_timer", value=timer, user=players[0],
                    channel=CHANNEL)
    await w.ask("click_named", label="Start", user=players[0], channel=CHANNEL)


async def _to_act(store: Store) -> tuple[int, int, int]:
    """(session id, version, user id of the person to act)."""
    session = await store.open_in_channel(CHANNEL)
    assert session is not None and session.status == "active"
    pid = session.game().to_act(session.state())[0]
    seat = session.seat(pid)
    assert seat is not None and seat.user_id is not None
    return session.id, session.version, seat.user_id


async def test_200_concurrent_clicks_across_two_processes_apply_once(postgres_url):
    a, b = await _two(postgres_url)
    store = await Store.open(postgres_url)
    try:
        await _open_game(a, [ALICE, BOB])
        sid, version, user = await _to_act(store)
        await asyncio.gather(a.ask("prepare", user=user, channel=CHANNEL),
                             b.ask("prepare", user=user, channel=CHANNEL))
        one, two = await asyncio.gather(a.ask("fire", n=100, timeout=120),
                                        b.ask("fire", n=100, timeout=120))
        assert one["applied"] + two["applied"] == 1
        assert one["refused"] + two["refused"] == 199
        session = await store.load(sid)
        assert session.version == version + 1
        log = await store.recent_log(sid, 100)
        assert [e.version for e in log if e.version > version] == [version + 1]
    finally:
        await asyncio.gather(a.quit(), b.quit())
        await store.close()


async def test_a_due_timer_fires_once_and_is_taken_over_when_its_owner_is_killed(postgres_url):
    lease = 100.0
    a, b = await _two(postgres_url, lease=lease)
    store = await Store.open(postgres_url)
    try:
        await _open_game(a, [ALICE, BOB], timer="60")  # guild 1000: shard 0, process A's
        sid, version, _ = await _to_act(store)
        ticks = await asyncio.gather(a.ask("tick"), b.ask("tick"))  # both alive, nothing due
        assert all(t["sent"] == [] and t["expired"] == [] for t in ticks)

        async def both(seconds: float) -> list[dict]:
            await asyncio.gather(a.ask("advance", seconds=seconds), b.ask("advance", seconds=seconds))
            return list(await asyncio.gather(a.ask("tick"), b.ask("tick")))

        at_a, at_b = await both(50)  # the reminder (15 s before the deadline): once, by A
        assert len([s for s in at_a["sent"] if "ends" in s]) == 1 and at_b["sent"] == []
        at_a, at_b = await both(0)
        assert at_a["sent"] == at_b["sent"] == []  # not again
        at_a, at_b = await both(15)  # the deadline: the automatic player moves once, by A
        assert at_a["expired"] == [sid] and at_b["expired"] == []
        after = await store.load(sid)
        assert after.version > version and after.deadline is not None
        timeouts = [e for e in await store.recent_log(sid, 100) if e.version > version
                    and any(ev.kind == "timeout" for ev in e.events)]
        assert len(timeouts) == 1

        await a.kill()  # kill -9: no goodbye, its heartbeat just stops
        await b.ask("advance", seconds=61)  # the next deadline passed, A's heartbeat is 61 s old
        assert (await b.ask("tick"))["expired"] == []  # A may be alive: its guild is A's
        await b.ask("advance", seconds=lease - 50)  # now A is gone
        taken = await b.ask("tick")
        assert taken["expired"] == [sid]
        assert len([s for s in taken["sent"] if "ends" in s]) <= 1
        assert (await store.load(sid)).version > after.version
    finally:
        await asyncio.gather(a.quit(), b.quit())
        await store.close()


async def test_kill_9_in_a_stream_of_moves_loses_no_acknowledged_move(postgres_url):
    a, b = await _two(postgres_url)
    store = await Store.open(postgres_url)
    rng = random.Random(14)
    try:
        await _open_game(a, [ALICE, BOB, CAROL, DAVE])
        sid, start, _ = await _to_act(store)
        acked: list[int] = []
        for _ in range(4):
            acked.append((await a.ask("auto_move", channel=CHANNEL))["version"])
        in_flight = a.send("auto_move", channel=CHANNEL)
        await asyncio.sleep(rng.uniform(0.0, 0.03))
        await a.kill()
        try:
            answer = await asyncio.wait_for(in_flight, timeout=5)
            if answer.get("ok"):
                acked.append(answer["version"])  # answered before the kill: must be kept too
        except ConnectionError:
            pass  # killed before it answered: it may or may not have been written
        session = await store.load(sid)
        versions = {e.version for e in await store.recent_log(sid, 1000)}
        assert session.version >= acked[-1]
        assert set(acked) <= versions  # every acknowledged move is there
        # play goes on in the other process, to the end
        for _ in range(40):
            moved = await b.ask("auto_move", channel=CHANNEL)
            if moved["done"] or moved["status"] != "active":
                break
        final = await store.load(sid)
        assert final.status == "finished"
        log = await store.recent_log(sid, 1000)
        assert [e.version for e in log] == list(range(start + 1 - len(
            [e for e in log if e.version <= start]), final.version + 1))
    finally:
        await asyncio.gather(a.quit(), b.quit())
        await store.close()


# --- moving a server's data ----------------------------------------------------------------------

async def test_migrate_copies_sqlite_into_postgres_and_old_buttons_keep_working(
        postgres_url, tmp_path, capsys):
    from bot.__main__ import main
    from bot.models import RecordRow
    from tests.bot.e2e import make_bot, open_table, play_auto_move
    from tests.support.discord_harness import DiscordHarness

    db = tmp_path / "pantheon.db"
    bot = make_bot(db)
    h = DiscordHarness(bot)
    await h.start()
    await open_table(h, "test-high-card", [ALICE, BOB], channel=2001)  # a finished game
    while await play_auto_move(h, bot, 2001) is not None:
        pass
    table = await open_table(h, "test-high-card", [ALICE, BOB])  # a game still going
    await play_auto_move(h, bot)
    session = await bot.service.active_in_channel(CHANNEL)
    assert bot.store is not None
    await bot.store.put_record(RecordRow(guild_id=1000, user_id=ALICE, game_id="g", name="Arin",
                                         data="{}", updated_at=1.0))
    await bot.store.put_content("g", "v1", "{}")
    before = await bot.store.counts()
    await h.close()
    assert all(before.values())  # every table has rows to copy

    code = await asyncio.to_thread(main, ["migrate", "--from", str(db), "--to", postgres_url])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "DIFFERS" not in out and "Copied" in out and "sessions" in out
    async with await Store.open(postgres_url) as pg:
        assert await pg.counts() == before
        async with await Store.open(db) as lite:
            for sid in (session.id, session.id - 1):
                assert await pg.load(sid) == await lite.load(sid)  # seats, table message too
                assert await pg.recent_log(sid, 100) == await lite.recent_log(sid, 100)
            assert await pg.results(1000) == await lite.results(1000)
    # a second run refuses: the target is not empty
    assert await asyncio.to_thread(main, ["migrate", "--from", str(db), "--to", postgres_url]) == 1
    assert "already holds data" in capsys.readouterr().err

    # the bot on PostgreSQL, the same Discord: the buttons posted before the move still work
    settings = Settings(database_url=postgres_url, discord_token="test", timer_poll_seconds=1)
    from bot.app import build_bot
    from tests.bot.e2e import START
    from tests.support.clock import Clock

    bot2 = build_bot(settings, clock=Clock(START), seed_source=lambda: 7, run_timers=False)
    async with DiscordHarness(bot2, restart_of=h) as h2:
        reply = await play_auto_move(h2, bot2)
        assert reply is not None and "out of date" not in reply.text()
        assert (await bot2.service.get(session.id)).version == session.version + 1
        while await play_auto_move(h2, bot2) is not None:
            pass
        assert "is over" in table.text()  # the table posted before the move was edited to the end
        # new sessions get new ids after the copied ones
        await open_table(h2, "test-high-card", [ALICE, BOB])
        newer = await bot2.service.active_in_channel(CHANNEL)
        assert newer.id > session.id
