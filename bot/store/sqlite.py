"""The SQLite store: one file, one process (or a few on one machine).

One aiosqlite connection writes (WAL, synchronous=FULL: a move the player was told about is on
disk before the answer, and survives a power loss); a second one reads (WAL lets it read while
the writer writes), so reads never wait for a write and only ever see committed data.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.base import Statement, Store, StoreError, call_quietly, check_hold
from bot.store.migrations import MIGRATIONS

log = logging.getLogger(__name__)


class _SqliteTx:
    def __init__(self, conn: aiosqlite.Connection):
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self.conn.execute(sql, params)
        return cursor.rowcount

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return list(await self.conn.execute_fetchall(sql, params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(sql, rows)


class SqliteStore(Store):
    """The SQLite store. Use `await Store.open(path)`."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: Path):
        self._conn = conn
        """The writer. Its transactions must not interleave between coroutines: `_lock`."""
        self._reader: aiosqlite.Connection | None = None
        self.path = path
        self.target = path
        self._lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: Path, *, migrations: Sequence[Sequence[str]] | None = None,
                      synchronous: str = "FULL") -> SqliteStore:
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

    async def _close(self) -> None:
        async with self._lock:
            if self._reader is not None:
                await self._reader.close()
                self._reader = None
            await self._conn.close()

    # --- helpers ---------------------------------------------------------------
    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        if self._reader is None:
            raise StoreError("The database is closed.")
        return list(await self._reader.execute_fetchall(sql, params))

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._lock:
            await self._settle()
            cursor = await self._conn.execute(sql, params)
            return cursor.rowcount

    async def _settle(self) -> None:
        """Roll back a transaction left open by a task cancelled at the wrong moment."""
        if self._conn.in_transaction:
            await self._conn.execute("ROLLBACK")

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_SqliteTx]:
        async with self._lock:
            await self._settle()
            await self._conn.execute("BEGIN")
            try:
                yield _SqliteTx(self._conn)
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")

    async def _guarded(self, statements: Sequence[Statement],
                       on_commit: Callable[[], None] | None = None) -> bool:
        """The whole compare-and-set transaction in one hop to the writer's thread (a move's
        commit is one round trip, not one per statement). A caller cancelled before the hop
        starts writes nothing; once it has started, the transaction ends as it would have.
        `on_commit` (see `Store._guarded`) is handed to the event loop by the writer's thread
        just before its COMMIT, so it runs while SQLite syncs the file."""
        async with self._lock:
            await self._settle()
            abandoned = threading.Event()
            loop = asyncio.get_running_loop()
            context = contextvars.copy_context()  # the caller's, as `loop.call_soon` would keep
            before_commit = None if on_commit is None else \
                (lambda: loop.call_soon_threadsafe(call_quietly, on_commit, context=context))  # a closed loop raises

            def run() -> bool:
                if abandoned.is_set():
                    return False
                return _run_guarded(self._conn._conn, statements, before_commit)

            # aiosqlite runs a callable on its connection's thread through `_execute` (its
            # public calls are one statement each)
            hop = asyncio.ensure_future(self._conn._execute(run))
            try:
                return bool(await asyncio.shield(hop))
            except asyncio.CancelledError:
                abandoned.set()
                # the lock is kept until the thread is done with the hop, however many times
                # the caller is cancelled meanwhile (another writer must not start before)
                while not hop.done():
                    try:
                        await asyncio.shield(hop)
                    except asyncio.CancelledError:
                        continue
                    except Exception:  # noqa: BLE001 - the cancellation is what the caller sees
                        break
                if not hop.cancelled():
                    hop.exception()  # retrieved
                raise

    def _is_channel_busy(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.IntegrityError) and (
            "sessions" in str(exc) or "UNIQUE" in str(exc))


def _run_guarded(db: sqlite3.Connection, statements: Sequence[Statement],
                 before_commit: Callable[[], object] | None = None) -> bool:
    """`Store._guarded` on the writer's thread: BEGIN, the compare-and-set, the rest,
    `before_commit()` if given, COMMIT. Whatever `before_commit` does (raise, say, when the event
    loop has closed at shutdown), the transaction commits."""
    db.execute("BEGIN")
    try:
        first, *rest = statements
        if db.execute(first.sql, first.params).rowcount != 1:
            db.execute("ROLLBACK")
            return False
        for statement in rest:
            if statement.rows is not None:
                db.executemany(statement.sql, statement.rows)
            else:
                check_hold(statement, db.execute(statement.sql, statement.params).rowcount)
        if before_commit is not None:
            try:
                before_commit()
            except Exception:  # noqa: BLE001 - work started early never stops the commit
                log.warning("Work to start before a commit could not be handed over", exc_info=True)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # SQLite may have rolled back by itself (an I/O error ...)
            db.execute("ROLLBACK")
        raise
    return True
