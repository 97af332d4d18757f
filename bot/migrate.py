"""`python -m bot migrate --to postgresql://...`: copy a server's data into another database.

Every table that holds data (sessions, seats, the action log, message ids, results, records,
content versions) is copied with its ids, so buttons posted before the move keep working; the
copy is one transaction on the target, which must be empty; then the row counts of both sides
are compared. The source (by default the configured database, usually the SQLite file) is only
read (opening it brings an older file to the current schema first, as the bot would).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.config import invoked_as
from bot.store import Store, StoreError, describe


async def copy_database(source: str | Path, target: str | Path, *, out=sys.stdout) -> dict[str, int]:
    """Copy every table; the rows copied per table. StoreError when the target is not empty or
    the counts differ afterwards."""
    src = await Store.open(source)
    try:
        dst = await Store.open(target)
        try:
            if any((await dst.counts()).values()):
                raise StoreError(f"The database `{describe(target)}` already holds data; migrate "
                                 "into an empty one.")
            tables = {table: await src.dump_table(table) for table, _ in Store.COPIED_TABLES}
            await dst.load_tables(tables)
            before, after = await src.counts(), await dst.counts()
            for table, count in before.items():
                print(f"{table:<10} {count:>8} rows  {'ok' if after[table] == count else 'DIFFERS'}",
                      file=out)
            if before != after:
                raise StoreError(f"The copy differs from the source: {before} against {after}.")
            return after
        finally:
            await dst.close()
    finally:
        await src.close()


async def main(argv: list[str], default_source: str | Path) -> int:
    parser = argparse.ArgumentParser(
        prog=f"{invoked_as()} migrate",
        description="Copy the bot's data (by default the configured database) into another, "
                    "empty database and verify the row counts.")
    parser.add_argument("--to", required=True, metavar="URL",
                        help="the target: postgresql://user:password@host:5432/name")
    parser.add_argument("--from", dest="source", default=None, metavar="URL_OR_PATH",
                        help=f"the source (default: {describe(default_source)})")
    args = parser.parse_args(argv)
    source = args.source or default_source
    try:
        await copy_database(source, args.to)
    except StoreError as exc:
        print(f"Migration failed: {exc.message}", file=sys.stderr)
        return 1
    print(f"Copied {describe(source)} into {describe(args.to)}. Set DATABASE_URL to it and start "
          "the bot.")
    return 0
