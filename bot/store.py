"""Pantheon's storage: sessions, seats, the action log, message ids and results, in SQLite.

One `Store` holds one aiosqlite connection (WAL, synchronous=FULL: a move the player was
told about is on disk before the answer, and survives a power loss). Everything the
bot must remember lives here, never only in process memory. The SQL is kept portable
(`RETURNING`, `ON CONFLICT ... DO UPDATE`, partial indexes: PostgreSQL has them all), so
that a PostgreSQL store with the same methods could replace this one; only the DDL
column types and the `?` placeholders would change.

Exactly-once: `save` is a compare-and-swap on the session's version, in the same
transaction as the log rows; a second process that loaded the same version gets
`False` and writes nothing.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.models import LogEntry, RecordRow, ResultRow, Seat, Session
from rules.core.game import Event

SYNCHRONOUS_MODES = ("FULL", "NORMAL")
DEFAULT_DB_PATH = Path("data/pantheon.db")
"""Where the database lives unless the settings say otherwise."""

TABLE_TARGET = "#table"
"""The `messages.target` of a session's table message (other targets are player ids)."""

# Each step moves the schema from version i to i + 1 (PRAGMA user_version). Append new
# steps; never edit a step that has shipped.
MIGRATIONS: list[list[str]] = [
    [  # 1: sessions, seats, the action log
        """CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            guild_id BIGINT,
            channel_id BIGINT NOT NULL,
            game_id TEXT NOT NULL,
            status TEXT NOT NULL,
            host_id BIGINT NOT NULL,
            options TEXT NOT NULL,
            state TEXT,
            version INTEGER NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )""",
        # One lobby or active game per channel or thread, even across processes.
        """CREATE UNIQUE INDEX sessions_open_channel ON sessions (channel_id)
            WHERE status IN ('lobby', 'active')""",
        """CREATE TABLE seats (
            session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            player_id TEXT NOT NULL,
            name TEXT NOT NULL,
            user_id BIGINT,
            auto INTEGER NOT NULL DEFAULT 0,
            dm_blocked INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (session_id, position)
        )""",
        "CREATE INDEX seats_user ON seats (user_id)",
        """CREATE TABLE actions (
            session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            player_id TEXT,
            action_key TEXT NOT NULL,
            text TEXT,
            events TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (session_id, version)
        )""",
    ],
    [  # 2: turn timers, message ids, results for statistics
        "ALTER TABLE sessions ADD COLUMN deadline DOUBLE PRECISION",
        "ALTER TABLE sessions ADD COLUMN remind_at DOUBLE PRECISION",
        "ALTER TABLE sessions ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX sessions_deadline ON sessions (status, deadline)",
        """CREATE TABLE messages (
            session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            target TEXT NOT NULL,
            channel_id BIGINT NOT NULL,
            message_id BIGINT NOT NULL,
            PRIMARY KEY (session_id, target)
        )""",
        """CREATE TABLE results (
            session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            guild_id BIGINT,
            game_id TEXT NOT NULL,
            position INTEGER NOT NULL,
            player_id TEXT NOT NULL,
            user_id BIGINT,
            name TEXT NOT NULL,
            won INTEGER NOT NULL,
            score DOUBLE PRECISION,
            tags TEXT NOT NULL,
            finished_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (session_id, position)
        )""",
        "CREATE INDEX results_guild ON results (guild_id, game_id)",
    ],
    [  # 3: the newest session of a channel (/game log after the end)
        "CREATE INDEX sessions_channel ON sessions (channel_id, id)",
    ],
    [  # 4: the version at which each seat's choices last changed (simultaneous clicks)
        "ALTER TABLE seats ADD COLUMN actions_version INTEGER NOT NULL DEFAULT 0",
    ],
    [  # 5: records carried between sessions (characters ...), per server and person
        """CREATE TABLE records (
            guild_id BIGINT NOT NULL,
            user_id BIGINT NOT NULL,
            game_id TEXT NOT NULL,
            name TEXT NOT NULL,
            data TEXT NOT NULL,
            version INTEGER NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (guild_id, user_id, game_id, name)
        )""",
        "ALTER TABLE seats ADD COLUMN record TEXT",
    ],
    [  # 6: each content version a game started with (a pack may change under running games)
        """CREATE TABLE contents (
            game_id TEXT NOT NULL,
            version TEXT NOT NULL,
            data TEXT NOT NULL,
            PRIMARY KEY (game_id, version)
        )""",
    ],
]

LATEST_VERSION = len(MIGRATIONS)


class StoreError(Exception):
    """The database cannot be used; `.message` says why in a sentence."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class ChannelBusy(StoreError):
    """Another lobby or active game already holds this channel."""


_SESSION_COLUMNS = (
    "s.id, s.guild_id, s.channel_id, s.game_id, s.status, s.host_id, s.options, s.state, "
    "s.version, s.created_at, s.updated_at, s.deadline, s.remind_at, s.reminded, "
    "m.channel_id, m.message_id"
)
_SEAT_COLUMNS = ("st.position, st.player_id, st.name, st.user_id, st.auto, st.dm_blocked, "
                 "st.actions_version, st.record")
# Sessions with their seats and table message in one query (one row per seat).
_SELECT_SESSIONS = (
    f"SELECT {_SESSION_COLUMNS}, {_SEAT_COLUMNS} FROM sessions s "
    "LEFT JOIN seats st ON st.session_id = s.id "
    f"LEFT JOIN messages m ON m.session_id = s.id AND m.target = '{TABLE_TARGET}' "
)


def _sessions_from_rows(rows: Sequence[Sequence[Any]]) -> list[Session]:
    out: dict[int, Session] = {}
    for row in rows:
        sid = row[0]
        session = out.get(sid)
        if session is None:
            session = Session(
                id=sid, guild_id=row[1], channel_id=row[2], game_id=row[3], status=row[4],
                host_id=row[5], options=json.loads(row[6]), state_json=row[7], version=row[8],
                created_at=row[9], updated_at=row[10], deadline=row[11], remind_at=row[12],
                reminded=bool(row[13]), table_channel_id=row[14], table_message_id=row[15],
                seats=[],
            )
            out[sid] = session
        if row[16] is not None:
            session.seats.append(Seat(position=row[16], player_id=row[17], name=row[18],
                                      user_id=row[19], auto=bool(row[20]),
                                      dm_blocked=bool(row[21]), actions_version=row[22],
                                      record=row[23]))
    for session in out.values():
        session.seats.sort(key=lambda s: s.position)
    return list(out.values())


class Store:
    """The SQLite store. Use `await Store.open(path)`; every method is safe to call concurrently."""

    def __init__(self, conn: aiosqlite.Connection, path: Path):
        self._conn = conn
        """The writer. Its transactions must not interleave between coroutines: `_lock`."""
        self._reader: aiosqlite.Connection | None = None
        """Reads go through a second connection (WAL lets it read while the writer writes),
        so they never wait for a write and only ever see committed data."""
        self.path = path
        self._lock = asyncio.Lock()

    # --- opening -------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | Path = DEFAULT_DB_PATH, *,
                   migrations: Sequence[Sequence[str]] | None = None,
                   synchronous: str = "FULL") -> Store:
        """Open (creating folders and file) and migrate to the latest schema.

        `migrations` is for tests (to make a file at an older version); `synchronous` for the
        benchmark, which measures what FULL costs against NORMAL (with NORMAL in WAL mode a
        power loss can undo the last commits, so the bot never uses it)."""
        if synchronous not in SYNCHRONOUS_MODES:
            raise StoreError(f"Unknown synchronous mode {synchronous!r}.")
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"Cannot create the database folder `{path.parent}`: "
                             f"{exc.strerror or exc}.") from exc
        try:
            conn = await aiosqlite.connect(str(path), isolation_level=None)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"Cannot open the database `{path}`: {exc}.") from exc
        store = cls(conn, path)
        try:
            await store._prepare(MIGRATIONS if migrations is None else migrations, synchronous)
        except sqlite3.Error as exc:
            await conn.close()
            raise StoreError(f"Cannot use the database `{path}`: {exc}.") from exc
        except StoreError:
            await conn.close()
            raise
        try:
            store._reader = await aiosqlite.connect(str(path), isolation_level=None)
            await store._reader.execute("PRAGMA busy_timeout = 5000")
        except (sqlite3.Error, OSError) as exc:
            await store.close()
            raise StoreError(f"Cannot open the database `{path}` for reading: {exc}.") from exc
        return store

    async def _prepare(self, migrations: Sequence[Sequence[str]], synchronous: str) -> None:
        conn = self._conn
        await conn.execute("PRAGMA busy_timeout = 5000")
        mode = await (await conn.execute("PRAGMA journal_mode = WAL")).fetchone()
        if mode is None or str(mode[0]).lower() != "wal":
            raise StoreError(f"The database `{self.path}` cannot use WAL mode (got {mode}).")
        # FULL: WAL commits are synced to disk before the answer (the choice is ours, not input)
        await conn.execute(f"PRAGMA synchronous = {synchronous}")
        await conn.execute("PRAGMA foreign_keys = ON")
        current = await self.schema_version()
        if current > len(MIGRATIONS):
            raise StoreError(f"The database `{self.path}` has schema version {current}, newer "
                             f"than this bot knows ({len(MIGRATIONS)}); update the bot.")
        for number in range(current, len(migrations)):
            await conn.execute("BEGIN")
            try:
                for statement in migrations[number]:
                    await conn.execute(statement)
                # PRAGMA takes no parameters; the value is our own integer.
                await conn.execute(f"PRAGMA user_version = {number + 1}")
                await conn.execute("COMMIT")
            except BaseException:
                await conn.execute("ROLLBACK")
                raise

    async def schema_version(self) -> int:
        row = await (await self._conn.execute("PRAGMA user_version")).fetchone()
        return int(row[0]) if row else 0

    async def close(self) -> None:
        async with self._lock:
            if self._reader is not None:
                await self._reader.close()
                self._reader = None
            await self._conn.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- helpers ---------------------------------------------------------------
    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        if self._reader is None:
            raise StoreError("The database is closed.")
        return list(await self._reader.execute_fetchall(sql, params))

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement in its own transaction; returns the rows changed."""
        async with self._lock:
            await self._settle()
            cursor = await self._conn.execute(sql, params)
            return cursor.rowcount

    async def _settle(self) -> None:
        """Roll back a transaction left open by a task cancelled at the wrong moment."""
        if self._conn.in_transaction:
            await self._conn.execute("ROLLBACK")

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._settle()
            await self._conn.execute("BEGIN")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")

    # --- sessions ----------------------------------------------------------------
    async def insert_session(self, session: Session) -> int:
        """Insert a new session with its seats; returns its id. ChannelBusy when the channel
        already has a lobby or active game."""
        try:
            async with self._transaction() as conn:
                rows = await conn.execute_fetchall(
                    "INSERT INTO sessions (guild_id, channel_id, game_id, status, host_id, options, "
                    "state, version, created_at, updated_at, deadline, remind_at, reminded) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (session.guild_id, session.channel_id, session.game_id, session.status,
                     session.host_id, json.dumps(session.options), session.state_json,
                     session.version, session.created_at, session.updated_at, session.deadline,
                     session.remind_at, int(session.reminded)),
                )
                sid = int(next(iter(rows))[0])
                await self._insert_seats(conn, sid, session.seats)
        except sqlite3.IntegrityError as exc:
            if "sessions" in str(exc) or "UNIQUE" in str(exc):
                raise ChannelBusy("A game is already open in this channel.") from exc
            raise
        return sid

    @staticmethod
    async def _insert_seats(conn: aiosqlite.Connection, sid: int, seats: Sequence[Seat]) -> None:
        await conn.executemany(
            "INSERT INTO seats (session_id, position, player_id, name, user_id, auto, dm_blocked, "
            "actions_version, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(sid, s.position, s.player_id, s.name, s.user_id, int(s.auto), int(s.dm_blocked),
              s.actions_version, s.record) for s in seats],
        )

    async def load(self, session_id: int) -> Session | None:
        rows = await self._fetch(_SELECT_SESSIONS + "WHERE s.id = ?", (session_id,))
        sessions = _sessions_from_rows(rows)
        return sessions[0] if sessions else None

    async def open_in_channel(self, channel_id: int) -> Session | None:
        """The lobby or active session of this channel, if any."""
        rows = await self._fetch(
            _SELECT_SESSIONS + "WHERE s.channel_id = ? AND s.status IN ('lobby', 'active')",
            (channel_id,))
        sessions = _sessions_from_rows(rows)
        return sessions[0] if sessions else None

    async def latest_in_channel(self, channel_id: int) -> Session | None:
        """The newest session of this channel, whatever its status (for /game log after the end)."""
        rows = await self._fetch(
            _SELECT_SESSIONS + "WHERE s.id = (SELECT MAX(id) FROM sessions WHERE channel_id = ?)",
            (channel_id,))
        sessions = _sessions_from_rows(rows)
        return sessions[0] if sessions else None

    async def active_of_user(self, user_id: int) -> list[Session]:
        rows = await self._fetch(
            _SELECT_SESSIONS + "WHERE s.status = 'active' AND s.id IN "
            "(SELECT session_id FROM seats WHERE user_id = ?) ORDER BY s.id",
            (user_id,))
        return _sessions_from_rows(rows)

    async def save(self, session: Session, expected_version: int, *, seats: bool = True,
                   log: Sequence[LogEntry] = (), results: Sequence[ResultRow] = (),
                   records: Sequence[RecordRow] = ()) -> bool:
        """Write `session` (status, host, options, state, version, timer) if the stored version
        is still `expected_version`, with its seats, log rows, results and the records its
        players take out of it, in one transaction. False (nothing written) when someone else
        changed the session first."""
        async with self._transaction() as conn:
            cursor = await conn.execute(
                "UPDATE sessions SET status = ?, host_id = ?, options = ?, state = ?, version = ?, "
                "updated_at = ?, deadline = ?, remind_at = ?, reminded = ? "
                "WHERE id = ? AND version = ?",
                (session.status, session.host_id, json.dumps(session.options), session.state_json,
                 session.version, session.updated_at, session.deadline, session.remind_at,
                 int(session.reminded), session.id, expected_version),
            )
            if cursor.rowcount != 1:
                return False  # the transaction commits nothing
            if seats:
                await conn.execute("DELETE FROM seats WHERE session_id = ?", (session.id,))
                await self._insert_seats(conn, session.id, session.seats)
            if log:
                await conn.executemany(
                    "INSERT INTO actions (session_id, version, player_id, action_key, text, events, at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(session.id, e.version, e.player_id, e.action_key, e.text,
                      json.dumps([ev.model_dump(mode="json") for ev in e.events]), e.at)
                     for e in log],
                )
            if results:
                await conn.executemany(
                    "INSERT INTO results (session_id, guild_id, game_id, position, player_id, "
                    "user_id, name, won, score, tags, finished_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(r.session_id, r.guild_id, r.game_id, r.position, r.player_id, r.user_id,
                      r.name, int(r.won), r.score, json.dumps(r.tags), r.finished_at)
                     for r in results],
                )
            for record in records:
                await self._put_record(conn, record)
        return True

    # --- content versions -------------------------------------------------------------
    async def put_content(self, game_id: str, version: str, data: str) -> None:
        """Keep a content version (once: a version never changes)."""
        await self._write(
            "INSERT INTO contents (game_id, version, data) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id, version) DO NOTHING", (game_id, version, data))

    async def get_content(self, game_id: str, version: str) -> str | None:
        rows = await self._fetch("SELECT data FROM contents WHERE game_id = ? AND version = ?",
                                 (game_id, version))
        return rows[0][0] if rows else None

    # --- records carried between sessions -------------------------------------------
    @staticmethod
    async def _put_record(conn: aiosqlite.Connection, record: RecordRow) -> None:
        """Insert the record, or replace its data and count one more version."""
        await conn.execute(
            "INSERT INTO records (guild_id, user_id, game_id, name, data, version, updated_at) "
            "VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, user_id, game_id, name) "
            "DO UPDATE SET data = excluded.data, version = records.version + 1, "
            "updated_at = excluded.updated_at",
            (record.guild_id, record.user_id, record.game_id, record.name, record.data,
             record.updated_at))

    async def put_record(self, record: RecordRow) -> None:
        async with self._transaction() as conn:
            await self._put_record(conn, record)

    async def records_of(self, guild_id: int, user_id: int, game_id: str) -> list[RecordRow]:
        """A person's records for a game in a server, the most recently used first."""
        rows = await self._fetch(
            "SELECT guild_id, user_id, game_id, name, data, version, updated_at FROM records "
            "WHERE guild_id = ? AND user_id = ? AND game_id = ? ORDER BY updated_at DESC, name",
            (guild_id, user_id, game_id))
        return [RecordRow(guild_id=r[0], user_id=r[1], game_id=r[2], name=r[3], data=r[4],
                          version=r[5], updated_at=r[6]) for r in rows]

    async def insert_record(self, record: RecordRow) -> bool:
        """Add a new record; False when the person already has one of that name."""
        async with self._transaction() as conn:
            cur = await conn.execute(
                "INSERT INTO records (guild_id, user_id, game_id, name, data, version, updated_at) "
                "VALUES (?, ?, ?, ?, ?, 0, ?) ON CONFLICT (guild_id, user_id, game_id, name) DO NOTHING",
                (record.guild_id, record.user_id, record.game_id, record.name, record.data,
                 record.updated_at))
            return cur.rowcount == 1

    async def delete_record(self, guild_id: int, user_id: int, game_id: str, name: str) -> bool:
        """Remove a record; False when there was none of that name."""
        async with self._transaction() as conn:
            cur = await conn.execute(
                "DELETE FROM records WHERE guild_id = ? AND user_id = ? AND game_id = ? AND name = ?",
                (guild_id, user_id, game_id, name))
            return cur.rowcount == 1

    async def records_in_play(self, user_id: int, game_id: str) -> list[tuple[int, str]]:
        """(session id, record name) of this person's records seated in open sessions."""
        rows = await self._fetch(
            "SELECT s.id, st.record FROM seats st JOIN sessions s ON s.id = st.session_id "
            "WHERE st.user_id = ? AND s.game_id = ? AND s.status IN ('lobby', 'active') "
            "AND st.record IS NOT NULL", (user_id, game_id))
        return [(r[0], r[1]) for r in rows]

    # --- small flags (no version change: they are not moves) -----------------------
    async def set_reminded(self, session_id: int, deadline: float | None) -> None:
        """Mark the reminder of this deadline as sent (ignored if the deadline moved on)."""
        await self._write("UPDATE sessions SET reminded = 1 WHERE id = ? AND deadline = ?",
                          (session_id, deadline))

    async def set_dm_blocked(self, session_id: int, player_id: str, blocked: bool) -> None:
        await self._write("UPDATE seats SET dm_blocked = ? WHERE session_id = ? AND player_id = ?",
                          (int(blocked), session_id, player_id))

    async def set_message(self, session_id: int, target: str, channel_id: int,
                          message_id: int) -> None:
        """Remember a message to edit later: the table (`TABLE_TARGET`) or a player's DM."""
        await self._write(
            "INSERT INTO messages (session_id, target, channel_id, message_id) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (session_id, target) DO UPDATE SET channel_id = excluded.channel_id, "
            "message_id = excluded.message_id",
            (session_id, target, channel_id, message_id))

    async def get_message(self, session_id: int, target: str) -> tuple[int, int] | None:
        rows = await self._fetch(
            "SELECT channel_id, message_id FROM messages WHERE session_id = ? AND target = ?",
            (session_id, target))
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    # --- log, timers, results ---------------------------------------------------
    async def recent_log(self, session_id: int, limit: int = 15) -> list[LogEntry]:
        """The last `limit` log rows, oldest first."""
        rows = await self._fetch(
            "SELECT version, player_id, action_key, text, events, at FROM actions "
            "WHERE session_id = ? ORDER BY version DESC LIMIT ?", (session_id, limit))
        return [LogEntry(version=r[0], player_id=r[1], action_key=r[2], text=r[3],
                         events=[Event.model_validate(e) for e in json.loads(r[4])], at=r[5])
                for r in reversed(rows)]

    async def timed_sessions(self, *, due_by: float | None = None) -> list[tuple[int, float, float | None, bool]]:
        """(id, deadline, remind_at, reminded) of active sessions with a deadline; with `due_by`,
        only those whose deadline or unsent reminder falls at or before it."""
        sql = ("SELECT id, deadline, remind_at, reminded FROM sessions "
               "WHERE status = 'active' AND deadline IS NOT NULL")
        params: tuple[Any, ...] = ()
        if due_by is not None:
            sql += " AND (deadline <= ? OR (reminded = 0 AND remind_at <= ?))"
            params = (due_by, due_by)
        rows = await self._fetch(sql + " ORDER BY deadline", params)
        return [(int(r[0]), float(r[1]), r[2], bool(r[3])) for r in rows]

    async def next_timer(self) -> float | None:
        """The earliest deadline or unsent reminder of all active sessions."""
        rows = await self._fetch(
            "SELECT MIN(deadline), MIN(CASE WHEN reminded = 0 THEN remind_at END) FROM sessions "
            "WHERE status = 'active' AND deadline IS NOT NULL")
        values = [v for v in (rows[0] if rows else ()) if v is not None]
        return min(values) if values else None

    async def results(self, guild_id: int | None, game_id: str | None = None) -> list[ResultRow]:
        sql = ("SELECT session_id, guild_id, game_id, position, player_id, user_id, name, won, "
               "score, tags, finished_at FROM results WHERE ")
        params: list[Any] = []
        if guild_id is None:
            sql += "guild_id IS NULL"
        else:
            sql += "guild_id = ?"
            params.append(guild_id)
        if game_id is not None:
            sql += " AND game_id = ?"
            params.append(game_id)
        rows = await self._fetch(sql + " ORDER BY finished_at", params)
        return [ResultRow(session_id=r[0], guild_id=r[1], game_id=r[2], position=r[3],
                          player_id=r[4], user_id=r[5], name=r[6], won=bool(r[7]), score=r[8],
                          tags=json.loads(r[9]), finished_at=r[10]) for r in rows]
