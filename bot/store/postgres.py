"""The PostgreSQL store (asyncpg): several bot processes on one database.

The queries are the shared ones (bot/store/base.py), their `?` placeholders numbered `$1, $2, ...`
once per statement. Writes take a pooled connection and a transaction (READ COMMITTED: the
version compare-and-swap `UPDATE ... WHERE version = ?` waits for a concurrent writer of the
same row, then sees its version and changes nothing); reads take any pooled connection.
Commits are durable before the answer (`synchronous_commit = on`, PostgreSQL's default, is set
explicitly so a server configured otherwise cannot lose acknowledged moves).
"""

from __future__ import annotations

import functools
import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.store.base import Store, StoreError, Tx, describe
from bot.store.migrations import MIGRATIONS, postgres_step

SCHEMA_LOCK = 0x70616E74  # pg_advisory_lock key: one process migrates at a time ("pant")
POOL_SIZE = 10

_PLACEHOLDER = re.compile(r"\?")


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """`?` placeholders as `$1, $2, ...` (the shared SQL has no `?` inside literals)."""
    count = 0

    def one(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(one, sql)


def _rowcount(status: str) -> int:
    """Rows changed, from a command tag: `UPDATE 1`, `INSERT 0 1`, `DELETE 3`."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PostgresTx:
    def __init__(self, conn: asyncpg.Connection):
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _rowcount(await self.conn.execute(numbered(sql), *params))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return list(await self.conn.fetch(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.conn.executemany(numbered(sql), rows)


class PostgresStore(Store):
    """The PostgreSQL store. Use `await Store.open("postgresql://user:pass@host/db")`."""

    dialect = "postgresql"
    _SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"

    def __init__(self, pool: asyncpg.Pool, url: str):
        self._pool: asyncpg.Pool | None = pool
        self.target = url

    @classmethod
    async def connect(cls, url: str, *, migrations: Sequence[Sequence[str]] | None = None,
                      synchronous: str = "FULL", pool_size: int = POOL_SIZE) -> PostgresStore:
        name = describe(url)
        settings = {"synchronous_commit": "on" if synchronous == "FULL" else "off",
                    "application_name": "pantheon"}
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size,
                                             server_settings=settings, timeout=10)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError,
                ValueError) as exc:
            raise StoreError(f"Cannot connect to the database `{name}`: {exc}.") from exc
        assert pool is not None
        store = cls(pool, url)
        try:
            await store._prepare(MIGRATIONS if migrations is None else migrations)
        except asyncpg.PostgresError as exc:
            await store.close()
            raise StoreError(f"Cannot use the database `{name}`: {exc}.") from exc
        except BaseException:
            await store.close()
            raise
        return store

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("The database is closed.")
        return self._pool

    async def _prepare(self, migrations: Sequence[Sequence[str]]) -> None:
        async with self.pool.acquire() as conn:
            # Two processes starting at once: the second waits, then finds nothing to do.
            await conn.execute("SELECT pg_advisory_lock($1)", SCHEMA_LOCK)
            try:
                await conn.execute("CREATE TABLE IF NOT EXISTS pantheon_schema "
                                   "(version INTEGER NOT NULL)")
                current = await conn.fetchval("SELECT MAX(version) FROM pantheon_schema")
                if current is None:
                    await conn.execute("INSERT INTO pantheon_schema (version) VALUES (0)")
                    current = 0
                if current > len(MIGRATIONS):
                    raise StoreError(
                        f"The database `{describe(self.target)}` has schema version {current}, "
                        f"newer than this bot knows ({len(MIGRATIONS)}); update the bot.")
                for number in range(current, len(migrations)):
                    async with conn.transaction():
                        for statement in postgres_step(list(migrations[number])):
                            await conn.execute(statement)
                        await conn.execute("UPDATE pantheon_schema SET version = $1", number + 1)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", SCHEMA_LOCK)

    async def schema_version(self) -> int:
        value = await self.pool.fetchval("SELECT MAX(version) FROM pantheon_schema")
        return int(value or 0)

    async def _close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    # --- helpers ---------------------------------------------------------------
    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return list(await self.pool.fetch(numbered(sql), *params))

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _rowcount(await self.pool.execute(numbered(sql), *params))

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_PostgresTx]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield _PostgresTx(conn)

    def _is_channel_busy(self, exc: BaseException) -> bool:
        return isinstance(exc, asyncpg.UniqueViolationError) and \
            exc.constraint_name == "sessions_open_channel"

    async def _after_load(self, tx: Tx) -> None:
        await tx.execute("SELECT setval(pg_get_serial_sequence('sessions', 'id'), "
                         "GREATEST((SELECT MAX(id) FROM sessions), 1))")
