"""Answers remembered per catalogue: what depends only on content and on a few values of the
state (a character's stats from its template, equipment and shards) is worked out once.

A catalogue version never changes once loaded, so an answer kept for one catalogue object is
right for as long as that object lives; the memo holds the object itself, so its id cannot be
reused by another catalogue while the answers are kept. Each table is emptied when it grows
past `LIMIT` entries.
"""

from __future__ import annotations

from typing import Any

from rules.by_gods_and_kings.content import Catalogue

LIMIT = 20_000
"""Entries one table keeps before it starts over."""

_MEMOS: dict[int, tuple[Catalogue, dict[str, dict[Any, Any]]]] = {}


def catalogue_memo(cat: Catalogue, table: str) -> dict[Any, Any]:
    """The table named `table` of answers for this catalogue (a plain dict to read and fill)."""
    held = _MEMOS.get(id(cat))
    if held is None or held[0] is not cat:
        if len(_MEMOS) > 16:
            _MEMOS.clear()
        held = _MEMOS[id(cat)] = (cat, {})
    tables = held[1]
    found = tables.get(table)
    if found is None or len(found) > LIMIT:
        found = tables[table] = {}
    return found
