"""The `Store` interface and the queries both databases share.

A store is opened from one setting (`Store.open("data/pantheon.db")`, `"sqlite:///..."` or
`"postgresql://..."`). Every method below is written once, in the SQL SQLite and PostgreSQL
share (`RETURNING`, `ON CONFLICT ... DO UPDATE`, partial indexes) with `?` placeholders; an
implementation supplies only the connection handling: `_fetch` (a read of committed data),
`_write` (one statement, its own transaction) and `_transaction` (several statements at once),
and says which error is the one-game-per-channel index refusing a second game.

Exactly-once: `save` is a compare-and-swap on the session's version, in the same transaction
as the log rows; a second process that loaded the same version gets `False` and writes nothing.
Turn timers are claimed by one process at a time (`claim_timers`), so a reminder is sent once
even when several processes share the database. A record (a character) is held by one open
session at a time (`records.held_by`): taken by a conditional UPDATE of its own row in the
transaction that saves a lobby's choice or a game's start (`hold_record`), so of two sessions
taking it at once, in one process or two, the second finds it held; retiring is a conditional
DELETE of the same row (`retire_record`), and a finished game writes back only what it holds.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from bot.models import LogEntry, RecordRow, ResultRow, Seat, Session
from rules.core.game import Event

log = logging.getLogger(__name__)

SYNCHRONOUS_MODES = ("FULL", "NORMAL")
DEFAULT_DB_PATH = Path("data/pantheon.db")
"""Where the database lives unless the settings say otherwise."""

TABLE_TARGET = "#table"
"""The `messages.target` of a session's table message (other targets are player ids)."""

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class StoreError(Exception):
    """The database cannot be used; `.message` says why in a sentence."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class ChannelBusy(StoreError):
    """Another lobby or active game already holds this channel."""


class RecordBusy(StoreError):
    """A record could not be held by a session (another open session holds it, it was retired,
    or it changed since it was read): the whole transaction was rolled back. `.name` is the
    record's owner and name."""

    def __init__(self, user_id: int, name: str):
        super().__init__(f"The record {name} is not free.")
        self.user_id = user_id
        self.name = name


class Tx(Protocol):
    """One open transaction (`?` placeholders)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int: ...
    """Run one statement; the number of rows it changed."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]: ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


def call_quietly(work: Callable[[], None]) -> None:
    """`work()`, its error logged rather than raised (a `_guarded` `on_commit`, run as a loop
    callback)."""
    try:
        work()
    except Exception:  # noqa: BLE001 - early work is a nicety: the commit goes on
        log.exception("Work started while a commit was written failed")


class Statement(NamedTuple):
    """One statement of a guarded batch (`Store._guarded`): `params` for one row, or `rows`
    for the same statement once per row."""

    sql: str
    params: Sequence[Any] = ()
    rows: Sequence[Sequence[Any]] | None = None
    holds: tuple[int, str] | None = None
    """A record's owner and name: the statement must change exactly one row, or the transaction
    is rolled back and `RecordBusy` raised (a record claimed by a session)."""


def check_hold(statement: Statement, changed: int) -> None:
    """Raise RecordBusy when a hold statement changed no row (the caller rolls back)."""
    if statement.holds is not None and changed != 1:
        raise RecordBusy(*statement.holds)


def is_postgres_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def sqlite_path(target: str | Path) -> Path:
    """The file of a SQLite setting: a path, or `sqlite:///relative/path` /
    `sqlite:////absolute/path` (as SQLAlchemy writes them)."""
    if isinstance(target, str) and target.startswith("sqlite:"):
        rest = target[len("sqlite:"):]
        if not rest.startswith("///"):
            raise StoreError(f"A SQLite URL is sqlite:///path/to/file.db, not {target!r}.")
        return Path(rest[3:])
    return Path(target)


def describe(target: str | Path) -> str:
    """The database named for people, without a password."""
    if is_postgres_url(target):
        from urllib.parse import urlsplit

        parts = urlsplit(str(target))
        host = parts.hostname or "localhost"
        port = f":{parts.port}" if parts.port else ""
        return f"postgresql://{host}{port}{parts.path}"
    return str(sqlite_path(target))


_SESSION_COLUMNS = (
    "s.id, s.guild_id, s.channel_id, s.game_id, s.status, s.host_id, s.options, s.state, "
    "s.version, s.created_at, s.updated_at, s.deadline, s.remind_at, s.reminded, "
    "m.channel_id, m.message_id, s.table_events, s.rematch"
)
_SEAT_COLUMNS = ("st.position, st.player_id, st.name, st.user_id, st.auto, st.dm_blocked, "
                 "st.actions_version, st.record, st.table_version, st.away_until, st.overdue")
# Sessions with their seats and table message in one query (one row per seat).
_SELECT_SESSIONS = (
    f"SELECT {_SESSION_COLUMNS}, {_SEAT_COLUMNS} FROM sessions s "
    "LEFT JOIN seats st ON st.session_id = s.id "
    f"LEFT JOIN messages m ON m.session_id = s.id AND m.target = '{TABLE_TARGET}' "
)

TimedRow = tuple[int, float, float | None, bool]
"""(session id, deadline, remind_at, reminded)"""


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
                table_events=row[16], rematch=row[17], seats=[],
            )
            out[sid] = session
        if row[18] is not None:
            session.seats.append(Seat(position=row[18], player_id=row[19], name=row[20],
                                      user_id=row[21], auto=bool(row[22]),
                                      dm_blocked=bool(row[23]), actions_version=row[24],
                                      record=row[25], table_version=row[26], away_until=row[27],
                                      overdue=bool(row[28])))
    for session in out.values():
        session.seats.sort(key=lambda s: s.position)
    return list(out.values())


def _timed(rows: Sequence[Sequence[Any]]) -> list[TimedRow]:
    return [(int(r[0]), float(r[1]), None if r[2] is None else float(r[2]), bool(r[3]))
            for r in rows]


class Store:
    """Pantheon's storage. `await Store.open(target)`; every method is safe to call concurrently.

    `target` is a path (or `sqlite:///path`: the SQLite store) or a `postgresql://` URL (the
    PostgreSQL store); both have exactly these methods and behave the same."""

    dialect = "?"
    target: str | Path = ""

    # --- opening -------------------------------------------------------------
    @classmethod
    async def open(cls, target: str | Path = DEFAULT_DB_PATH, *,
                   migrations: Sequence[Sequence[str]] | None = None,
                   synchronous: str = "FULL") -> Store:
        """Open and migrate to the latest schema (a SQLite file is created with its folder).

        `migrations` is for tests (to make a database at an older version); `synchronous` for the
        benchmark, which measures what FULL costs against NORMAL (with NORMAL a power loss can
        undo the last commits, so the bot never uses it)."""
        if synchronous not in SYNCHRONOUS_MODES:
            raise StoreError(f"Unknown synchronous mode {synchronous!r}.")
        if is_postgres_url(target):
            from bot.store.postgres import PostgresStore

            return await PostgresStore.connect(str(target), migrations=migrations,
                                               synchronous=synchronous)
        from bot.store.sqlite import SqliteStore

        return await SqliteStore.connect(sqlite_path(target), migrations=migrations,
                                         synchronous=synchronous)

    async def schema_version(self) -> int:
        raise NotImplementedError

    async def close(self) -> None:
        """Close the connections (everything acknowledged is already committed)."""
        await self._close()

    async def _close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- what an implementation supplies ---------------------------------------------------
    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        """Rows of a read (committed data only; never waits for a write)."""
        raise NotImplementedError

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement in its own transaction; returns the rows changed."""
        raise NotImplementedError

    def _transaction(self) -> AbstractAsyncContextManager[Tx]:
        """Statements that commit together (rolled back on any exception)."""
        raise NotImplementedError

    def _is_channel_busy(self, exc: BaseException) -> bool:
        """`exc` is the one-open-game-per-channel index refusing a second game."""
        raise NotImplementedError

    # --- sessions ----------------------------------------------------------------
    async def insert_session(self, session: Session) -> int:
        """Insert a new session with its seats; returns its id. ChannelBusy when the channel
        already has a lobby or active game."""
        try:
            async with self._transaction() as tx:
                rows = await tx.fetch(
                    "INSERT INTO sessions (guild_id, channel_id, game_id, status, host_id, options, "
                    "state, version, created_at, updated_at, deadline, remind_at, reminded, rematch) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (session.guild_id, session.channel_id, session.game_id, session.status,
                     session.host_id, json.dumps(session.options), session.state_json,
                     session.version, session.created_at, session.updated_at, session.deadline,
                     session.remind_at, int(session.reminded), session.rematch),
                )
                sid = int(rows[0][0])
                await self._insert_seats(tx, sid, session.seats)
        except Exception as exc:
            if self._is_channel_busy(exc):
                raise ChannelBusy("A game is already open in this channel.") from exc
            raise
        return sid

    @staticmethod
    def _seat_rows(sid: int, seats: Sequence[Seat]) -> Statement:
        return Statement(
            "INSERT INTO seats (session_id, position, player_id, name, user_id, auto, dm_blocked, "
            "actions_version, record, table_version, away_until, overdue) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows=[(sid, s.position, s.player_id, s.name, s.user_id, int(s.auto), int(s.dm_blocked),
                   s.actions_version, s.record, s.table_version, s.away_until, int(s.overdue))
                  for s in seats])

    @classmethod
    async def _insert_seats(cls, tx: Tx, sid: int, seats: Sequence[Seat]) -> None:
        statement = cls._seat_rows(sid, seats)
        await tx.executemany(statement.sql, statement.rows or [])

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

    @classmethod
    def _seat_changes(cls, sid: int, seats: Sequence[Seat],
                      old: Sequence[Seat] | None) -> list[Statement]:
        """The statements that turn the stored seats `old` into `seats`: the rows that changed
        updated in place when the positions are the same (only the column of the choices'
        version when nothing else changed: a move's usual change; the closed-DMs flag only when
        it changed, so one set meanwhile by `set_dm_blocked` stays), all rows written again
        otherwise (or when `old` is unknown)."""
        if old is None or [s.position for s in old] != [s.position for s in seats]:
            return [Statement("DELETE FROM seats WHERE session_id = ?", (sid,)), cls._seat_rows(sid, seats)]
        versions, rows, flags = [], [], []
        for seat, before in zip(seats, old, strict=True):
            if seat == before:
                continue
            if seat.dm_blocked != before.dm_blocked:
                flags.append((int(seat.dm_blocked), sid, seat.position))
            if seat.model_copy(update={"actions_version": before.actions_version,
                                       "table_version": before.table_version,
                                       "dm_blocked": before.dm_blocked}) == before:
                versions.append((seat.actions_version, seat.table_version, sid, seat.position))
            else:
                rows.append((seat.player_id, seat.name, seat.user_id, int(seat.auto), seat.actions_version,
                             seat.table_version, seat.record, seat.away_until, int(seat.overdue),
                             sid, seat.position))
        out = []
        if versions:
            out.append(Statement("UPDATE seats SET actions_version = ?, table_version = ? "
                                 "WHERE session_id = ? AND position = ?", rows=versions))
        if rows:
            out.append(Statement(
                "UPDATE seats SET player_id = ?, name = ?, user_id = ?, auto = ?, actions_version = ?, "
                "table_version = ?, record = ?, away_until = ?, overdue = ? "
                "WHERE session_id = ? AND position = ?", rows=rows))
        if flags:
            out.append(Statement("UPDATE seats SET dm_blocked = ? WHERE session_id = ? AND position = ?",
                                 rows=flags))
        return out

    async def save(self, session: Session, expected_version: int, *, seats: bool = True,
                   old_seats: Sequence[Seat] | None = None,
                   log: Sequence[LogEntry] = (), results: Sequence[ResultRow] = (),
                   records: Sequence[RecordRow] = (), holds: Sequence[Statement] = (),
                   on_commit: Callable[[], None] | None = None) -> bool:
        """Write `session` (status, host, options, state, version, timer) if the stored version
        is still `expected_version`, with its seats, log rows, results and the records its
        players take out of it, in one transaction. False (nothing written) when someone else
        changed the session first. `old_seats`: the seats as stored at `expected_version`, if
        known: only the rows that changed are written. `holds`: the records the session takes or
        gives back (`hold_record`, `hold_new_record`, `release_records`), before the records handed
        back (a game that ends as it starts holds, then gives back); one that cannot be held rolls everything back and raises RecordBusy. `on_commit`: see
        `_guarded`."""
        return await self._guarded(self.save_statements(
            session, expected_version, seats=seats, old_seats=old_seats, log=log, results=results,
            records=records, holds=holds), on_commit)

    @classmethod
    def save_statements(cls, session: Session, expected_version: int, *, seats: bool = True,
                        old_seats: Sequence[Seat] | None = None, log: Sequence[LogEntry] = (),
                        results: Sequence[ResultRow] = (), records: Sequence[RecordRow] = (),
                        holds: Sequence[Statement] = ()) -> list[Statement]:
        """The statements of `save`, the compare-and-set first."""
        statements = [Statement(
            "UPDATE sessions SET status = ?, host_id = ?, options = ?, state = ?, version = ?, "
            "updated_at = ?, deadline = ?, remind_at = ?, reminded = ?, table_events = ? "
            "WHERE id = ? AND version = ?",
            (session.status, session.host_id, json.dumps(session.options), session.state_json,
             session.version, session.updated_at, session.deadline, session.remind_at,
             int(session.reminded), session.table_events, session.id, expected_version))]
        if seats:
            statements += cls._seat_changes(session.id, session.seats, old_seats)
        if log:
            statements.append(Statement(
                "INSERT INTO actions (session_id, version, player_id, action_key, text, events, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                rows=[(session.id, e.version, e.player_id, e.action_key, e.text,
                       json.dumps([ev.model_dump(mode="json") for ev in e.events]), e.at)
                      for e in log]))
        if results:
            statements.append(Statement(
                "INSERT INTO results (session_id, guild_id, game_id, position, player_id, "
                "user_id, name, won, score, tags, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows=[(r.session_id, r.guild_id, r.game_id, r.position, r.player_id, r.user_id,
                       r.name, int(r.won), r.score, json.dumps(r.tags), r.finished_at)
                      for r in results]))
        statements += holds
        statements += [cls._record_back(record, session.id) for record in records]
        return statements

    async def _guarded(self, statements: Sequence[Statement],
                       on_commit: Callable[[], None] | None = None) -> bool:
        """Run the statements in one transaction if the first one changes exactly one row (a
        compare-and-set); otherwise write nothing and answer False. A backend may do it in one
        round trip (SQLite: one hop to its writer thread). `on_commit`, if given, is called on
        the event loop once the compare-and-set has succeeded, while the COMMIT is under way
        (the database making it durable), and before this returns; its errors are logged. The
        commit may still fail after it: it is for work worth starting early, not for effects."""
        async with self._transaction() as tx:
            first, *rest = statements
            if await tx.execute(first.sql, first.params) != 1:
                return False  # the transaction commits nothing
            for statement in rest:
                if statement.rows is not None:
                    if statement.rows:
                        await tx.executemany(statement.sql, statement.rows)
                else:
                    check_hold(statement, await tx.execute(statement.sql, statement.params))
            if on_commit is not None:  # runs at the loop's next turn: while the COMMIT is awaited
                asyncio.get_running_loop().call_soon(call_quietly, on_commit)
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
    _RECORD_UPSERT = (
        "INSERT INTO records (guild_id, user_id, game_id, name, data, version, updated_at) "
        "VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, user_id, game_id, name) "
        "DO UPDATE SET data = excluded.data, version = records.version + 1, "
        "updated_at = excluded.updated_at")
    """Insert a record, or replace its data and count one more version."""

    @staticmethod
    def _record_params(record: RecordRow) -> tuple:
        return (record.guild_id, record.user_id, record.game_id, record.name, record.data,
                record.updated_at)

    @classmethod
    def _record_row(cls, record: RecordRow) -> Statement:
        """Insert the record, or replace its data and count one more version."""
        return Statement(cls._RECORD_UPSERT, cls._record_params(record))

    @classmethod
    def _record_back(cls, record: RecordRow, session_id: int) -> Statement:
        """A record a finished session hands back: written only while that session holds it
        (never over another table's, nor a retired one's), and no longer held; one that is not
        there at all was made by a game started before holds existed, and is added."""
        return Statement(cls._RECORD_UPSERT + ", held_by = NULL WHERE records.held_by = ?",
                         (*cls._record_params(record), session_id))

    # A hold is live while its session is open and its owner still sits there (a person who left
    # a lobby, a lobby cancelled, a game ended or abandoned: the record is free again).
    _FREE = ("(records.held_by IS NULL OR records.held_by = ? OR NOT EXISTS ("
             "SELECT 1 FROM sessions s JOIN seats st ON st.session_id = s.id "
             "WHERE s.id = records.held_by AND s.status IN ('lobby', 'active') "
             "AND st.user_id = records.user_id))")
    _KEY = "guild_id = ? AND user_id = ? AND game_id = ? AND name = ?"

    @classmethod
    def hold_record(cls, session_id: int, guild_id: int, user_id: int, game_id: str, name: str,
                    version: int | None = None) -> Statement:
        """`save(holds=...)`: the session takes the record, if nobody else holds it (and, with
        `version`, if it is still the version that was read). A conditional UPDATE of the
        record's own row: two sessions taking it at once, in one process or two, are one after
        the other, and the second finds it held."""
        sql = f"UPDATE records SET held_by = ? WHERE {cls._KEY} AND {cls._FREE}"
        params: list[Any] = [session_id, guild_id, user_id, game_id, name, session_id]
        if version is not None:
            sql += " AND version = ?"
            params.append(version)
        return Statement(sql, params, holds=(user_id, name))

    @staticmethod
    def hold_new_record(session_id: int, record: RecordRow) -> Statement:
        """`save(holds=...)`: a record made for a starting game, held by it (RecordBusy when the
        name was taken meanwhile)."""
        return Statement(
            "INSERT INTO records (guild_id, user_id, game_id, name, data, version, updated_at, held_by) "
            "VALUES (?, ?, ?, ?, ?, 0, ?, ?) ON CONFLICT (guild_id, user_id, game_id, name) DO NOTHING",
            (record.guild_id, record.user_id, record.game_id, record.name, record.data,
             record.updated_at, session_id), holds=(record.user_id, record.name))

    @staticmethod
    def release_records(session_id: int, guild_id: int, user_id: int, game_id: str) -> Statement:
        """`save(holds=...)`: the session gives back what it holds of this person's records."""
        return Statement("UPDATE records SET held_by = NULL "
                         "WHERE guild_id = ? AND user_id = ? AND game_id = ? AND held_by = ?",
                         (guild_id, user_id, game_id, session_id))

    async def record_holders(self, guild_id: int, user_id: int,
                             game_id: str) -> dict[str, tuple[int, int]]:
        """Record name -> (session id, channel id) of this person's records in this server held
        by an open session where they sit."""
        rows = await self._fetch(
            "SELECT r.name, s.id, s.channel_id FROM records r JOIN sessions s ON s.id = r.held_by "
            "WHERE r.guild_id = ? AND r.user_id = ? AND r.game_id = ? "
            "AND s.status IN ('lobby', 'active') AND EXISTS (SELECT 1 FROM seats st "
            "WHERE st.session_id = s.id AND st.user_id = r.user_id)", (guild_id, user_id, game_id))
        return {r[0]: (int(r[1]), int(r[2])) for r in rows}

    async def retire_record(self, guild_id: int, user_id: int, game_id: str, name: str) -> bool:
        """Remove a record nobody holds; False when it is held (or not there). One conditional
        DELETE of its row: a session taking it at the same moment goes before or after, never
        both."""
        return await self._write(
            f"DELETE FROM records WHERE {self._KEY} AND {self._FREE}",
            (guild_id, user_id, game_id, name, 0)) == 1

    @classmethod
    async def _put_record(cls, tx: Tx, record: RecordRow) -> None:
        statement = cls._record_row(record)
        await tx.execute(statement.sql, statement.params)

    async def put_record(self, record: RecordRow) -> None:
        async with self._transaction() as tx:
            await self._put_record(tx, record)

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
        async with self._transaction() as tx:
            changed = await tx.execute(
                "INSERT INTO records (guild_id, user_id, game_id, name, data, version, updated_at) "
                "VALUES (?, ?, ?, ?, ?, 0, ?) ON CONFLICT (guild_id, user_id, game_id, name) DO NOTHING",
                (record.guild_id, record.user_id, record.game_id, record.name, record.data,
                 record.updated_at))
            return changed == 1

    async def delete_record(self, guild_id: int, user_id: int, game_id: str, name: str) -> bool:
        """Remove a record; False when there was none of that name."""
        async with self._transaction() as tx:
            changed = await tx.execute(
                "DELETE FROM records WHERE guild_id = ? AND user_id = ? AND game_id = ? AND name = ?",
                (guild_id, user_id, game_id, name))
            return changed == 1

    async def records_in_play(self, user_id: int, game_id: str) -> list[tuple[int, str]]:
        """(session id, record names, one a line) of this person's seats that brought records,
        in open sessions of every server (what holds them: `record_holders`)."""
        rows = await self._fetch(
            "SELECT s.id, st.record FROM seats st JOIN sessions s ON s.id = st.session_id "
            "WHERE st.user_id = ? AND s.game_id = ? AND s.status IN ('lobby', 'active') "
            "AND st.record IS NOT NULL", (user_id, game_id))
        return [(r[0], r[1]) for r in rows]

    # --- small flags (no version change: they are not moves) -----------------------
    async def set_reminded(self, session_id: int, deadline: float | None, *,
                           next_at: float | None = None) -> None:
        """Mark the reminder of this deadline as sent (ignored if the deadline moved on); with
        `next_at`, the next reminder is due then instead."""
        if next_at is not None:
            await self._write("UPDATE sessions SET remind_at = ? WHERE id = ? AND deadline = ?",
                              (next_at, session_id, deadline))
            return
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
    async def action_time(self, session_id: int, version: int) -> float | None:
        """When the change that made `version` was made (None: no such log row)."""
        rows = await self._fetch("SELECT at FROM actions WHERE session_id = ? AND version = ?",
                                 (session_id, version))
        return float(rows[0][0]) if rows else None

    async def recent_log(self, session_id: int, limit: int = 15, *,
                         before: int | None = None) -> list[LogEntry]:
        """The last `limit` log rows (those before version `before`, if given), oldest first."""
        if before is None:
            rows = await self._fetch(
                "SELECT version, player_id, action_key, text, events, at FROM actions "
                "WHERE session_id = ? ORDER BY version DESC LIMIT ?", (session_id, limit))
        else:
            rows = await self._fetch(
                "SELECT version, player_id, action_key, text, events, at FROM actions "
                "WHERE session_id = ? AND version < ? ORDER BY version DESC LIMIT ?",
                (session_id, before, limit))
        return [LogEntry(version=r[0], player_id=r[1], action_key=r[2], text=r[3],
                         events=[Event.model_validate(e) for e in json.loads(r[4])], at=r[5])
                for r in reversed(rows)]

    _DUE = ("status = 'active' AND deadline IS NOT NULL "
            "AND (deadline <= ? OR (reminded = 0 AND remind_at <= ?))")

    async def timed_sessions(self, *, due_by: float | None = None) -> list[TimedRow]:
        """(id, deadline, remind_at, reminded) of active sessions with a deadline; with `due_by`,
        only those whose deadline or unsent reminder falls at or before it."""
        sql = ("SELECT id, deadline, remind_at, reminded FROM sessions "
               "WHERE status = 'active' AND deadline IS NOT NULL")
        params: tuple[Any, ...] = ()
        if due_by is not None:
            sql = "SELECT id, deadline, remind_at, reminded FROM sessions WHERE " + self._DUE
            params = (due_by, due_by)
        rows = await self._fetch(sql + " ORDER BY deadline", params)
        return _timed(rows)

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

    # --- timers shared by several processes ---------------------------------------------
    # A process claims the due timers it will handle (`claim_timers`): the claim is one
    # UPDATE ... RETURNING over rows nobody holds (or whose claim ran out), so two processes
    # never both get the same row. It is released when the process is done (`release_timers`),
    # or lapses at `claimed_until` when the process died holding it.
    _SKIP_LOCKED = ""
    """PostgreSQL adds `FOR UPDATE SKIP LOCKED`: rows another process is claiming are passed over."""

    async def claim_timers(self, worker: str, now: float, until: float, *,
                           shards: Sequence[int] | None = None,
                           shard_count: int = 1) -> list[TimedRow]:
        """Claim the sessions whose deadline or unsent reminder is due at `now` and that nobody
        else holds, until `until`; with `shards`, only sessions in guilds of those shards
        (`(guild_id >> 22) % shard_count`; no guild: shard 0). Returns what was claimed (and
        what this worker already held), earliest deadline first."""
        where = (self._DUE + " AND (claimed_by IS NULL OR claimed_by = ? OR claimed_until < ?)")
        params: list[Any] = [now, now, worker, now]
        if shards is not None:
            if not shards:
                return []
            marks = ", ".join("?" for _ in shards)
            where += f" AND ((COALESCE(guild_id, 0) >> 22) % ?) IN ({marks})"
            params += [shard_count, *shards]
        rows = await self._claim(
            "UPDATE sessions SET claimed_by = ?, claimed_until = ? WHERE id IN "
            f"(SELECT id FROM sessions WHERE {where}{self._SKIP_LOCKED}) "
            "RETURNING id, deadline, remind_at, reminded",
            [worker, until, *params])
        return sorted(_timed(rows), key=lambda r: (r[1], r[0]))

    async def _claim(self, sql: str, params: Sequence[Any]) -> list[Sequence[Any]]:
        async with self._transaction() as tx:
            return await tx.fetch(sql, params)

    async def release_timers(self, worker: str) -> None:
        """Give back every claim this worker holds."""
        await self._write("UPDATE sessions SET claimed_by = NULL, claimed_until = NULL "
                          "WHERE claimed_by = ?", (worker,))

    async def beat(self, worker: str, now: float, *, shard_count: int | None,
                   shard_ids: Sequence[int] | None) -> None:
        """This process is alive (and serves these shards)."""
        await self._write(
            "INSERT INTO workers (name, shard_count, shard_ids, seen_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET shard_count = excluded.shard_count, "
            "shard_ids = excluded.shard_ids, seen_at = excluded.seen_at",
            (worker, shard_count, None if shard_ids is None else json.dumps(list(shard_ids)), now))

    async def live_workers(self, since: float) -> list[tuple[str, int | None, list[int] | None]]:
        """(name, shard count, shard ids) of the processes seen at or after `since`."""
        rows = await self._fetch(
            "SELECT name, shard_count, shard_ids FROM workers WHERE seen_at >= ? ORDER BY name",
            (since,))
        return [(r[0], r[1], None if r[2] is None else [int(x) for x in json.loads(r[2])])
                for r in rows]

    async def forget_worker(self, worker: str) -> None:
        """A process stopping cleanly: its shards' timers go to the others at once."""
        await self._write("DELETE FROM workers WHERE name = ?", (worker,))
        await self.release_timers(worker)

    # --- copying a whole database (python -m bot migrate) ---------------------------------
    COPIED_TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
        ("sessions", ("id", "guild_id", "channel_id", "game_id", "status", "host_id", "options",
                      "state", "version", "created_at", "updated_at", "deadline", "remind_at",
                      "reminded", "table_events", "rematch")),
        ("seats", ("session_id", "position", "player_id", "name", "user_id", "auto",
                   "dm_blocked", "actions_version", "record", "table_version", "away_until",
                   "overdue")),
        ("actions", ("session_id", "version", "player_id", "action_key", "text", "events", "at")),
        ("messages", ("session_id", "target", "channel_id", "message_id")),
        ("results", ("session_id", "guild_id", "game_id", "position", "player_id", "user_id",
                     "name", "won", "score", "tags", "finished_at")),
        ("records", ("guild_id", "user_id", "game_id", "name", "data", "version", "updated_at",
                     "held_by")),
        ("contents", ("game_id", "version", "data")),
    )
    """What `python -m bot migrate` copies, parents first (claims and workers are not data)."""

    async def counts(self) -> dict[str, int]:
        """Rows per copied table."""
        out = {}
        for table, _ in self.COPIED_TABLES:
            rows = await self._fetch(f"SELECT COUNT(*) FROM {table}")
            out[table] = int(rows[0][0])
        return out

    async def dump_table(self, table: str) -> list[tuple[Any, ...]]:
        columns = dict(self.COPIED_TABLES)[table]
        rows = await self._fetch(f"SELECT {', '.join(columns)} FROM {table}")
        return [tuple(r) for r in rows]

    async def load_tables(self, tables: dict[str, list[tuple[Any, ...]]]) -> None:
        """Insert whole tables, as dumped, in one transaction (the target must be empty)."""
        async with self._transaction() as tx:
            for table, columns in self.COPIED_TABLES:
                rows = tables.get(table) or []
                if not rows:
                    continue
                marks = ", ".join("?" for _ in columns)
                await tx.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)
            await self._after_load(tx)

    async def _after_load(self, tx: Tx) -> None:
        """Bring id generators past the copied ids."""
