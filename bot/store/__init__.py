"""Pantheon's storage: sessions, seats, the action log, message ids, results, records and
content versions, in SQLite (one file) or PostgreSQL (several bot processes).

`await Store.open(target)` picks the implementation from the setting: a path or
`sqlite:///path` opens bot/store/sqlite.py, a `postgresql://` URL bot/store/postgres.py. Both
run the same migrations (bot/store/migrations.py) and the same queries (bot/store/base.py).
"""

from bot.store.base import (
    DEFAULT_DB_PATH,
    SYNCHRONOUS_MODES,
    TABLE_TARGET,
    ChannelBusy,
    RecordBusy,
    Store,
    StoreError,
    describe,
    is_postgres_url,
    sqlite_path,
)
from bot.store.migrations import LATEST_VERSION, MIGRATIONS


def _database_errors() -> tuple[type[BaseException], ...]:
    """What a failing database raises through either store (a full disk, a lost connection, a
    failed COMMIT): the drivers' own errors, which the stores let through."""
    import sqlite3

    import asyncpg

    return (StoreError, sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError)


DATABASE_ERRORS = _database_errors()

__all__ = [
    "DATABASE_ERRORS",
    "DEFAULT_DB_PATH",
    "LATEST_VERSION",
    "MIGRATIONS",
    "SYNCHRONOUS_MODES",
    "TABLE_TARGET",
    "ChannelBusy",
    "RecordBusy",
    "Store",
    "StoreError",
    "describe",
    "is_postgres_url",
    "sqlite_path",
]
