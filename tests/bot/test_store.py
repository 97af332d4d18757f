"""The SQLite store: migrations, opening errors, the version compare-and-swap, restarts."""

from __future__ import annotations

import sqlite3

import pytest

from bot.models import LogEntry, Seat, Session
from bot.store import LATEST_VERSION, MIGRATIONS, TABLE_TARGET, ChannelBusy, Store, StoreError
from rules.core.game import Event


def lobby(channel_id: int = 7, **kw) -> Session:
    fields = dict(id=0, guild_id=1, channel_id=channel_id, game_id="test-high-card",
                  status="lobby", host_id=10, options={"cards": "3", "turn_timer": "0"},
                  state_json=None, version=1, created_at=100.0, updated_at=100.0,
                  seats=[Seat(position=0, player_id="10", name="Ann", user_id=10),
                         Seat(position=1, player_id="bot-1", name="Bot 1", user_id=None, auto=True)])
    fields.update(kw)
    return Session(**fields)


def tables(path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


async def test_empty_file_migrates_to_latest_and_reopening_does_not_rerun(tmp_path):
    path = tmp_path / "deep" / "folder" / "p.db"
    store = await Store.open(path)
    assert await store.schema_version() == LATEST_VERSION == len(MIGRATIONS)
    mode = await (await store._conn.execute("PRAGMA journal_mode")).fetchone()
    assert mode[0] == "wal"
    # an acknowledged move must survive a power loss: WAL with synchronous=FULL (2), not NORMAL (1)
    sync = await (await store._conn.execute("PRAGMA synchronous")).fetchone()
    assert sync[0] == 2
    sid = await store.insert_session(lobby())
    await store.close()
    assert {"sessions", "seats", "actions", "messages", "results"} <= tables(path)

    store = await Store.open(path)  # CREATE TABLE again would fail: the steps are not re-run
    assert await store.schema_version() == LATEST_VERSION
    loaded = await store.load(sid)
    assert loaded is not None and [s.player_id for s in loaded.seats] == ["10", "bot-1"]
    await store.close()


async def test_a_version_1_file_migrates_forward_keeping_its_rows(tmp_path):
    path = tmp_path / "old.db"
    old = await Store.open(path, migrations=MIGRATIONS[:1])
    assert await old.schema_version() == 1
    await old._conn.execute(
        "INSERT INTO sessions (id, guild_id, channel_id, game_id, status, host_id, options, state, "
        "version, created_at, updated_at) VALUES (5, 1, 7, 'test-high-card', 'lobby', 10, '{}', "
        "NULL, 3, 1.0, 2.0)")
    await old._conn.execute("INSERT INTO seats (session_id, position, player_id, name, user_id) "
                            "VALUES (5, 0, '10', 'Ann', 10)")
    await old.close()

    store = await Store.open(path)
    assert await store.schema_version() == LATEST_VERSION
    session = await store.load(5)
    assert session is not None
    assert (session.version, session.deadline, session.reminded) == (3, None, False)
    assert session.seats[0].name == "Ann"
    await store.set_message(5, TABLE_TARGET, 70, 700)  # a table added by step 2
    assert (await store.load(5)).table_message_id == 700
    await store.close()


async def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "new.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    with pytest.raises(StoreError, match="newer than this bot"):
        await Store.open(path)


async def test_unwritable_paths_give_a_clear_error(tmp_path):
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="Cannot create the database folder"):
        await Store.open(blocker / "p.db")
    with pytest.raises(StoreError, match="Cannot"):
        await Store.open(tmp_path)  # a folder, not a file
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="Cannot use the database"):
        await Store.open(junk)
    assert junk.read_bytes() == b"this is not a database" * 100  # nothing corrupted


async def test_one_open_game_per_channel(tmp_path):
    store = await Store.open(tmp_path / "p.db")
    first = lobby()
    first.id = await store.insert_session(first)
    with pytest.raises(ChannelBusy):
        await store.insert_session(lobby())
    assert await store.insert_session(lobby(channel_id=8)) > first.id  # another channel is fine
    first.status = "abandoned"
    first.version = 2
    assert await store.save(first, 1)
    assert await store.insert_session(lobby())  # the channel is free again
    await store.close()


async def test_save_is_a_compare_and_swap_across_connections(tmp_path):
    """Two processes (two connections) saving from the same version: exactly one wins."""
    path = tmp_path / "p.db"
    a, b = await Store.open(path), await Store.open(path)
    sid = await a.insert_session(lobby())
    one, two = await a.load(sid), await b.load(sid)
    for s, who in ((one, "a"), (two, "b")):
        s.version = 2
        s.host_id = 11 if who == "a" else 12
    row = [LogEntry(version=2, player_id="10", action_key="x", events=[Event(kind="k", text="t")],
                    at=1.0)]
    assert await a.save(one, 1, log=row) is True
    assert await b.save(two, 1, log=row) is False
    fresh = await b.load(sid)
    assert (fresh.version, fresh.host_id) == (2, 11)
    assert [e.version for e in await b.recent_log(sid)] == [2]
    await a.close()
    await b.close()


async def test_messages_flags_and_log(tmp_path):
    store = await Store.open(tmp_path / "p.db")
    sid = await store.insert_session(lobby())
    await store.set_message(sid, "10", 1, 2)
    await store.set_message(sid, "10", 3, 4)  # replaced, not duplicated
    assert await store.get_message(sid, "10") == (3, 4)
    assert await store.get_message(sid, "bot-1") is None
    await store.set_dm_blocked(sid, "10", True)
    session = await store.load(sid)
    assert session.seats[0].dm_blocked and not session.seats[1].dm_blocked
    session.version = 2
    rows = [LogEntry(version=2, player_id="10", action_key="a", events=[], at=1.0)]
    assert await store.save(session, 1, seats=False, log=rows)
    assert (await store.load(sid)).seats[0].dm_blocked  # saving keeps the flag
    assert [e.action_key for e in await store.recent_log(sid, 1)] == ["a"]
    await store.close()


async def test_a_transaction_left_open_by_a_cancelled_task_is_rolled_back(tmp_path):
    store = await Store.open(tmp_path / "p.db")
    sid = await store.insert_session(lobby())
    await store._conn.execute("BEGIN")  # as if cancelled between BEGIN and COMMIT
    await store._conn.execute("UPDATE sessions SET host_id = 99 WHERE id = ?", (sid,))
    session = await store.load(sid)
    assert session.host_id == 10  # readers never see uncommitted data
    session.version = 2
    assert await store.save(session, 1)
    await store.close()
    async with await Store.open(tmp_path / "p.db") as store:
        assert (await store.load(sid)).host_id == 10


async def test_records_are_kept_per_server_and_person_and_written_with_the_last_move(tmp_path):
    from bot.models import RecordRow

    async with await Store.open(tmp_path / "p.db") as store:
        sid = await store.insert_session(lobby())
        session = await store.load(sid)
        row = RecordRow(guild_id=1, user_id=5, game_id="g", name="Arin", data='{"xp": 1}',
                        updated_at=10.0)
        # a lost compare-and-set writes no record either
        assert not await store.save(session, session.version + 9, records=[row])
        assert await store.records_of(1, 5, "g") == []
        session.version += 1
        assert await store.save(session, session.version - 1, records=[row])
        got = await store.records_of(1, 5, "g")
        assert [(r.name, r.data, r.version) for r in got] == [("Arin", '{"xp": 1}', 1)]
        await store.put_record(row.model_copy(update={"data": '{"xp": 4}', "updated_at": 20.0}))
        await store.put_record(row.model_copy(update={"name": "Bel", "updated_at": 15.0}))
        got = await store.records_of(1, 5, "g")
        assert [(r.name, r.version) for r in got] == [("Arin", 2), ("Bel", 1)]  # latest first
        assert got[0].data == '{"xp": 4}'
        assert await store.records_of(2, 5, "g") == [] and await store.records_of(1, 6, "g") == []
