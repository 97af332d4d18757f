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

__all__ = [
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
