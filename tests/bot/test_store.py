"""The store on both backends (SQLite, and PostgreSQL when a throwaway server can run: the
`db_target` fixture): migrations, opening errors, the version compare-and-swap, restarts.
Tests that look at SQLite's file and pragmas, or PostgreSQL's own schema table, are marked by
their names."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.models import LogEntry, RecordRow, ResultRow, Seat, Session
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


async def test_sqlite_empty_file_migrates_to_latest_and_reopening_does_not_rerun(tmp_path):
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


async def test_step_9_keeps_the_table_controls_of_running_games_exactly_as_strict(db_target):
    """A game running before step 9: each seat's table controls are current from the same
    version as all its controls (not from 0, which would let any old table button through), and
    the table has no stored events yet."""
    old = await Store.open(db_target, migrations=MIGRATIONS[:8])
    async with old._transaction() as tx:
        rows = await tx.fetch(
            "INSERT INTO sessions (guild_id, channel_id, game_id, status, host_id, options, state, "
            "version, created_at, updated_at) VALUES (1, 7, 'test-high-card', 'active', 10, '{}', "
            "NULL, 9, 1.0, 2.0) RETURNING id")
        sid = int(rows[0][0])
        await tx.executemany("INSERT INTO seats (session_id, position, player_id, name, user_id, "
                             "actions_version) VALUES (?, ?, ?, ?, ?, ?)",
                             [(sid, 0, "10", "Ann", 10, 6), (sid, 1, "11", "Bo", 11, 8)])
    await old.close()
    async with await Store.open(db_target) as store:
        session = await store.load(sid)
        assert session is not None and session.table_events is None and session.shown_events() == ([], 0)
        assert [(s.actions_version, s.table_version) for s in session.seats] == [(6, 6), (8, 8)]
        assert not session.current_for(session.seats[0], 5, on_table=True)
        assert session.current_for(session.seats[0], 6, on_table=True)


async def test_sqlite_a_version_1_file_migrates_forward_keeping_its_rows(tmp_path):
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


async def test_sqlite_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "new.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    with pytest.raises(StoreError, match="newer than this bot"):
        await Store.open(path)


async def test_sqlite_unwritable_paths_give_a_clear_error(tmp_path):
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


async def test_one_open_game_per_channel(db_target):
    store = await Store.open(db_target)
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


async def test_save_is_a_compare_and_swap_across_connections(db_target):
    """Two processes (two connections) saving from the same version: exactly one wins."""
    a, b = await Store.open(db_target), await Store.open(db_target)
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


async def test_work_on_commit_runs_once_after_the_compare_and_set_and_before_the_save_returns(db_target, caplog):
    """`save(on_commit=...)` calls its work on the event loop once the compare-and-set has
    succeeded (the database then makes the transaction durable), before the save returns; never
    for a save that lost its compare-and-set; an error in it is logged and the move is saved."""
    store = await Store.open(db_target)
    sid = await store.insert_session(lobby())
    calls: list[str] = []
    loop = asyncio.get_running_loop()

    def work(label: str) -> None:
        assert asyncio.get_running_loop() is loop  # on the event loop, not the writer's thread
        calls.append(label)

    session = await store.load(sid)
    session.version = 2
    assert await store.save(session, 1, on_commit=lambda: work("won")) is True
    assert calls == ["won"]  # once, and before the save returned
    session.version = 3
    assert await store.save(session, 1, on_commit=lambda: work("lost")) is False
    assert calls == ["won"]  # the compare-and-set failed: nothing written, no work

    def broken() -> None:
        raise RuntimeError("early work broke")

    with caplog.at_level("ERROR"):
        assert await store.save(session, 2, on_commit=broken) is True
    assert "early work broke" in caplog.text
    assert (await store.load(sid)).version == 3
    await store.close()


async def test_sqlite_a_failing_hand_over_of_early_work_never_stops_the_commit(tmp_path, caplog):
    """The writer's thread hands `on_commit` to the event loop just before its COMMIT; if that
    fails (the loop closed at shutdown, say), the move is committed all the same."""
    import bot.store.sqlite as sqlite_store
    from bot.store.base import Statement

    store = await Store.open(tmp_path / "h.db")
    sid = await store.insert_session(lobby())
    await store.close()

    def closed_loop() -> None:
        raise RuntimeError("Event loop is closed")

    db = sqlite3.connect(tmp_path / "h.db", isolation_level=None)
    inside: list[bool] = []
    assert sqlite_store._run_guarded(  # handed over inside the transaction, before its COMMIT
        db, [Statement("UPDATE sessions SET host_id = 12 WHERE id = ? AND version = 1", (sid,))],
        lambda: inside.append(db.in_transaction)) is True
    assert inside == [True] and not db.in_transaction
    with caplog.at_level("WARNING"):
        assert sqlite_store._run_guarded(
            db, [Statement("UPDATE sessions SET version = 2 WHERE id = ? AND version = 1", (sid,))],
            closed_loop) is True
    assert "could not be handed over" in caplog.text
    assert not db.in_transaction
    db.close()
    with sqlite3.connect(tmp_path / "h.db") as check:
        assert check.execute("SELECT version FROM sessions WHERE id = ?", (sid,)).fetchone() == (2,)


async def test_messages_flags_and_log(db_target):
    store = await Store.open(db_target)
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


async def test_a_save_writes_only_the_seats_that_changed_from_the_old_ones(db_target):
    """With the seats as stored before, a save writes only the rows that changed: a flag another
    writer set on an untouched seat meanwhile stays; other changes and new seats are written."""
    store = await Store.open(db_target)
    sid = await store.insert_session(lobby())
    session = await store.load(sid)
    old = [s.model_copy() for s in session.seats]
    for player in ("10", "bot-1"):  # after our read, by another coroutine
        await store.set_dm_blocked(sid, player, True)
    session.seats[0].actions_version = 2  # a move's usual change: the choices' version
    session.version = 2
    assert await store.save(session, 1, old_seats=old)
    stored = (await store.load(sid)).seats
    assert [s.actions_version for s in stored] == [2, 0]
    assert [s.dm_blocked for s in stored] == [True, True]  # only the version was written

    old = [s.model_copy() for s in session.seats]
    session.seats[0].name, session.seats[0].auto = "Ann (away)", True  # more than the version
    session.version = 3
    assert await store.save(session, 2, old_seats=old)
    stored = (await store.load(sid)).seats
    assert [(s.name, s.auto, s.actions_version) for s in stored] == [("Ann (away)", True, 2),
                                                                     ("Bot 1", True, 0)]
    assert [s.dm_blocked for s in stored] == [True, True]  # the flag is not among what changed

    old = [s.model_copy() for s in session.seats]
    session.seats[1].dm_blocked = True  # a flag changed in memory is written
    session.seats[1].name = "Bot One"
    session.version = 4
    assert await store.save(session, 3, old_seats=old)
    stored = (await store.load(sid)).seats
    assert [(s.name, s.dm_blocked) for s in stored] == [("Ann (away)", True), ("Bot One", True)]
    session.seats[1].dm_blocked = False
    old = [s.model_copy() for s in session.seats]
    old[1].dm_blocked = True
    session.version = 5
    assert await store.save(session, 4, old_seats=old)
    assert [s.dm_blocked for s in (await store.load(sid)).seats] == [True, False]

    old = [s.model_copy() for s in session.seats]
    session.seats.append(Seat(position=2, player_id="12", name="Cy", user_id=12))  # seats differ
    session.version = 6
    assert await store.save(session, 5, old_seats=old)
    assert [s.player_id for s in (await store.load(sid)).seats] == ["10", "bot-1", "12"]
    await store.close()


async def test_sqlite_a_transaction_left_open_by_a_cancelled_task_is_rolled_back(tmp_path):
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


async def test_records_are_kept_per_server_and_person_and_written_with_the_last_move(db_target):
    async with await Store.open(db_target) as store:
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


async def test_every_query_on_both_backends(db_target):
    """Sessions by channel and person, records in play, timers, results, contents."""
    async with await Store.open(db_target) as store:
        assert store.dialect == ("sqlite" if not isinstance(db_target, str) else "postgresql")
        sid = await store.insert_session(lobby(seats=[
            Seat(position=0, player_id="10", name="Ann", user_id=10, record="Arin"),
            Seat(position=1, player_id="2" * 19, name="Big", user_id=2 ** 62)]))
        assert (await store.open_in_channel(7)).id == sid
        assert await store.open_in_channel(8) is None
        assert await store.active_of_user(10) == []
        session = await store.load(sid)
        assert session.seats[1].user_id == 2 ** 62  # Discord ids need 64 bits
        session.status, session.version = "active", 2
        session.deadline, session.remind_at = 500.0, 400.0
        assert await store.save(session, 1)
        assert [s.id for s in await store.active_of_user(10)] == [sid]
        assert await store.records_in_play(10, "test-high-card") == [(sid, "Arin")]
        assert await store.records_in_play(10, "other") == []
        assert await store.timed_sessions() == [(sid, 500.0, 400.0, False)]
        assert await store.timed_sessions(due_by=399.0) == []
        assert await store.timed_sessions(due_by=400.0) == [(sid, 500.0, 400.0, False)]
        assert await store.next_timer() == 400.0
        await store.set_reminded(sid, 123.0)  # another deadline: ignored
        assert not (await store.load(sid)).reminded
        await store.set_reminded(sid, 500.0)
        assert (await store.load(sid)).reminded and await store.next_timer() == 500.0

        session = await store.load(sid)
        session.status, session.version, session.deadline = "finished", 3, None
        result = ResultRow(session_id=sid, guild_id=1, game_id="test-high-card", position=0,
                           player_id="10", user_id=10, name="Ann", won=True, score=2.5,
                           tags={"a": "b"}, finished_at=9.0)
        assert await store.save(session, 2, results=[result])
        assert await store.results(1) == [result]
        assert await store.results(1, "other") == [] and await store.results(None) == []
        assert (await store.latest_in_channel(7)).id == sid
        assert await store.open_in_channel(7) is None
        assert await store.records_in_play(10, "test-high-card") == []

        await store.put_content("g", "v1", "data")
        await store.put_content("g", "v1", "changed")  # a version never changes
        assert await store.get_content("g", "v1") == "data"
        assert await store.get_content("g", "v2") is None


async def test_records_insert_and_delete(db_target):
    async with await Store.open(db_target) as store:
        row = RecordRow(guild_id=1, user_id=5, game_id="g", name="Arin", data="{}", updated_at=1.0)
        assert await store.insert_record(row)
        assert not await store.insert_record(row.model_copy(update={"data": '{"x": 1}'}))
        assert [(r.data, r.version) for r in await store.records_of(1, 5, "g")] == [("{}", 0)]
        assert await store.delete_record(1, 5, "g", "Arin")
        assert not await store.delete_record(1, 5, "g", "Arin")
        assert await store.records_of(1, 5, "g") == []


async def test_many_concurrent_saves_from_one_version_one_wins(db_target):
    a, b = await Store.open(db_target), await Store.open(db_target)
    try:
        sid = await a.insert_session(lobby())
        copies = [await (a if i % 2 else b).load(sid) for i in range(40)]
        for i, s in enumerate(copies):
            s.version, s.host_id = 2, 100 + i
        outcomes = await asyncio.gather(*[(a if i % 2 else b).save(s, 1, log=[LogEntry(
            version=2, player_id="10", action_key=f"k{i}", events=[], at=1.0)])
            for i, s in enumerate(copies)])
        assert sum(outcomes) == 1
        winner = copies[outcomes.index(True)]
        assert (await a.load(sid)).host_id == winner.host_id
        assert [e.action_key for e in await b.recent_log(sid)] == [f"k{outcomes.index(True)}"]
    finally:
        await a.close()
        await b.close()


async def test_a_cancelled_save_writes_nothing(db_target):
    async with await Store.open(db_target) as store:
        sid = await store.insert_session(lobby())
        for _ in range(5):
            session = await store.load(sid)
            session.version += 1
            session.host_id = 99
            task = asyncio.ensure_future(store.save(session, session.version - 1, log=[LogEntry(
                version=session.version, player_id="10", action_key="x", events=[], at=1.0)]))
            await asyncio.sleep(0)
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
            stored = await store.load(sid)
            log = await store.recent_log(sid)
            # all or nothing: the version, the host and the log row together
            assert (stored.host_id == 99) == (stored.version == session.version) \
                == (len(log) == session.version - 1)
        session = await store.load(sid)
        session.version += 1
        assert await store.save(session, session.version - 1)  # the store still works


async def test_timer_claims_are_exclusive_until_released_or_lapsed(db_target):
    async with await Store.open(db_target) as store:
        ids = []
        for channel, guild in ((7, 1), (8, 5 << 22), (9, None)):
            sid = await store.insert_session(lobby(channel_id=channel, guild_id=guild,
                                                   status="active", deadline=100.0,
                                                   remind_at=50.0))
            ids.append(sid)
        assert await store.claim_timers("a", 10.0, 70.0) == []  # nothing due yet
        got = await store.claim_timers("a", 60.0, 120.0)
        assert sorted(r[0] for r in got) == sorted(ids)
        assert await store.claim_timers("b", 60.0, 120.0) == []  # a holds them
        assert len(await store.claim_timers("a", 61.0, 120.0)) == 3  # its own, again
        await store.release_timers("a")
        # shards: (guild_id >> 22) % 2: guild 1 -> 0, guild 5 << 22 -> 1, no guild -> 0
        got = await store.claim_timers("b", 60.0, 120.0, shards=[1], shard_count=2)
        assert [r[0] for r in got] == [ids[1]]
        got = await store.claim_timers("c", 60.0, 120.0, shards=[0, 1], shard_count=2)
        assert sorted(r[0] for r in got) == sorted([ids[0], ids[2]])
        assert await store.claim_timers("a", 110.0, 200.0, shards=[], shard_count=2) == []
        # b and c died holding their claims: after `until` anyone may take them over
        assert await store.claim_timers("a", 119.0, 200.0) == []
        assert len(await store.claim_timers("a", 121.0, 200.0)) == 3


async def test_concurrent_claims_never_share_a_row(db_target):
    stores = [await Store.open(db_target) for _ in range(3)]
    try:
        for channel in range(20):
            await stores[0].insert_session(lobby(channel_id=channel, status="active",
                                                 deadline=1.0, remind_at=0.5))
        claims = await asyncio.gather(*[stores[i % 3].claim_timers(f"w{i}", 2.0, 60.0)
                                        for i in range(9)])
        ids = [r[0] for got in claims for r in got]
        assert len(ids) == len(set(ids)) == 20
    finally:
        for store in stores:
            await store.close()


async def test_workers_beat_and_are_forgotten(db_target):
    async with await Store.open(db_target) as store:
        await store.beat("a", 10.0, shard_count=4, shard_ids=[0, 1])
        await store.beat("b", 5.0, shard_count=None, shard_ids=None)
        assert await store.live_workers(6.0) == [("a", 4, [0, 1])]
        await store.beat("b", 11.0, shard_count=4, shard_ids=[2, 3])
        assert [w[0] for w in await store.live_workers(6.0)] == ["a", "b"]
        await store.forget_worker("a")
        assert await store.live_workers(0.0) == [("b", 4, [2, 3])]


async def test_opening_by_url(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    async with await Store.open("sqlite:///rel/p.db") as store:
        assert store.dialect == "sqlite"
    assert (tmp_path / "rel" / "p.db").exists()
    async with await Store.open(f"sqlite:///{tmp_path}/abs.db"):
        pass
    assert (tmp_path / "abs.db").exists()
    with pytest.raises(StoreError, match="sqlite:///"):
        await Store.open("sqlite:/x.db")


def test_postgres_migrations_are_the_sqlite_ones_with_an_identity_id():
    from bot.store.migrations import postgres_statement, postgres_step

    for step in MIGRATIONS:
        for statement, pg in zip(step, postgres_step(step), strict=True):
            if "id INTEGER PRIMARY KEY," in statement:
                assert "GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" in pg
            else:
                assert pg == statement
    with pytest.raises(ValueError):
        postgres_statement("INSERT OR REPLACE INTO x VALUES (1)")


async def test_postgres_schema_migrates_forward_and_a_newer_one_is_refused(postgres_url):
    old = await Store.open(postgres_url, migrations=MIGRATIONS[:1])
    assert await old.schema_version() == 1
    await old._write(
        "INSERT INTO sessions (id, guild_id, channel_id, game_id, status, host_id, options, state, "
        "version, created_at, updated_at) VALUES (5, 1, 7, 'test-high-card', 'lobby', 10, '{}', "
        "NULL, 3, 1.0, 2.0)")
    await old._write("INSERT INTO seats (session_id, position, player_id, name, user_id) "
                     "VALUES (5, 0, '10', 'Ann', 10)")
    await old.close()
    # two processes starting at once: one migrates, the other waits and finds nothing to do
    a, b = await asyncio.gather(Store.open(postgres_url), Store.open(postgres_url))
    assert await a.schema_version() == await b.schema_version() == LATEST_VERSION
    session = await a.load(5)
    assert (session.version, session.deadline, session.seats[0].name) == (3, None, "Ann")
    await b.close()
    await a._write("UPDATE pantheon_schema SET version = version + 1")
    await a.close()
    with pytest.raises(StoreError, match="newer than this bot"):
        await Store.open(postgres_url)


async def test_postgres_unreachable_gives_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match=r"Cannot connect to the database `postgresql://.*nobody"):
        await Store.open(f"postgresql://u:secret@/nobody?host={tmp_path}")
    try:
        await Store.open(f"postgresql://u:secret@/nobody?host={tmp_path}")
    except StoreError as exc:
        assert "secret" not in exc.message  # the password is never shown


async def test_sqlite_a_save_cancelled_twice_keeps_the_writer_until_its_hop_is_done(tmp_path, monkeypatch):
    """Shutdown may cancel a task twice: the writer lock is still held until the hop on the
    writer's thread has finished its transaction, so the next write is not disturbed."""
    import time

    import bot.store.sqlite as sqlite_store
    from bot.store.base import Statement

    store = await Store.open(tmp_path / "p.db")
    sid = await store.insert_session(lobby())
    real = sqlite_store._run_guarded

    class SlowDisk:
        def __init__(self, db):
            self.db = db

        def execute(self, sql, *args):
            out = self.db.execute(sql, *args)
            if sql.startswith("UPDATE"):
                time.sleep(0.3)  # inside the transaction, after the compare-and-set
            return out

        def executemany(self, *args):
            return self.db.executemany(*args)

        @property
        def in_transaction(self):
            return self.db.in_transaction

    monkeypatch.setattr(sqlite_store, "_run_guarded", lambda db, st, *more: real(SlowDisk(db), st, *more))
    task = asyncio.ensure_future(store._guarded(
        [Statement("UPDATE sessions SET version = 2 WHERE id = ? AND version = 1", (sid,))]))
    await asyncio.sleep(0.1)
    task.cancel()
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not store._conn.in_transaction
    monkeypatch.setattr(sqlite_store, "_run_guarded", real)
    assert await store._write("UPDATE sessions SET host_id = 11 WHERE id = ?", (sid,)) == 1
    stored = await store.load(sid)
    assert (stored.version, stored.host_id) == (2, 11)  # the hop had started: it committed
    await store.close()
