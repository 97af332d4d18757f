"""The schema, as a list of steps both databases run.

Each step moves the schema from version i to i + 1 (SQLite: `PRAGMA user_version`; PostgreSQL:
the `pantheon_schema` table). Append new steps; never edit a step that has shipped.

The statements are written once, in the SQL both dialects share (`BIGINT`, `DOUBLE PRECISION`,
`TEXT`, partial indexes, `ALTER TABLE ... ADD COLUMN`). The one difference is the session id:
SQLite's `INTEGER PRIMARY KEY` is the rowid (numbered automatically), PostgreSQL needs an
identity column; `postgres_step` makes that substitution (and refuses to run a statement it
was not written for, so a new dialect difference cannot slip through unnoticed).
"""

from __future__ import annotations

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
    [  # 7: timers claimed by one process at a time; the processes alive (sharded bots)
        "ALTER TABLE sessions ADD COLUMN claimed_by TEXT",
        "ALTER TABLE sessions ADD COLUMN claimed_until DOUBLE PRECISION",
        """CREATE TABLE workers (
            name TEXT PRIMARY KEY,
            shard_count INTEGER,
            shard_ids TEXT,
            seen_at DOUBLE PRECISION NOT NULL
        )""",
    ],
    [  # 8: a record sits at one table at a time: the session holding it (lobby or game)
        "ALTER TABLE records ADD COLUMN held_by INTEGER",
        # records already seated in open sessions are held by them (`seats.record` holds one
        # name a line; record names have no % or _, so LIKE matches a whole line)
        """UPDATE records SET held_by = (
            SELECT MAX(s.id) FROM sessions s JOIN seats st ON st.session_id = s.id
            WHERE s.guild_id = records.guild_id AND s.game_id = records.game_id
            AND st.user_id = records.user_id AND s.status IN ('lobby', 'active')
            AND ('\n' || st.record || '\n') LIKE ('%\n' || records.name || '\n%'))""",
    ],
    [  # 9: a private step leaves the table as it is: the version of each seat's table
        # choices (its older table controls stay current) and the events the table shows
        "ALTER TABLE seats ADD COLUMN table_version INTEGER NOT NULL DEFAULT 0",
        "UPDATE seats SET table_version = actions_version",
        "ALTER TABLE sessions ADD COLUMN table_events TEXT",
        # a lobby opened by "Play again": the game it follows and the people invited back
        "ALTER TABLE sessions ADD COLUMN rematch TEXT",
        # a person away (/game away): the table waits for them, then may ask the others
        "ALTER TABLE seats ADD COLUMN away_until DOUBLE PRECISION",
        "ALTER TABLE seats ADD COLUMN overdue INTEGER NOT NULL DEFAULT 0",
    ],
]

LATEST_VERSION = len(MIGRATIONS)

_POSTGRES_REWRITES = {
    "id INTEGER PRIMARY KEY,": "id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,",
}
_SQLITE_ONLY = ("AUTOINCREMENT", "PRAGMA", "WITHOUT ROWID", "INSERT OR ")


def postgres_statement(statement: str) -> str:
    """One migration statement in PostgreSQL's dialect."""
    for word in _SQLITE_ONLY:
        if word in statement.upper():
            raise ValueError(f"migration statement not portable to PostgreSQL: {statement[:60]}")
    for old, new in _POSTGRES_REWRITES.items():
        statement = statement.replace(old, new)
    return statement


def postgres_step(step: list[str]) -> list[str]:
    return [postgres_statement(s) for s in step]
