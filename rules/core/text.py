"""Small helpers for the texts players read."""

from __future__ import annotations

import re

_MARKDOWN = re.compile(r"([\\*_~`|>\[\]()#<])")


def count(n: int, singular: str, plural: str | None = None) -> str:
    """`1 card`, `3 cards`, `0 cards` (the plural given, or the singular plus s)."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def escape_markdown(text: str) -> str:
    """User text (a name, a typed line) for a Discord message: shown as typed, with no
    markdown, no masked link and no mention (each special character is escaped; one pass of a
    character class, so it cannot backtrack)."""
    return _MARKDOWN.sub(r"\\\1", text).replace("@", "@\u200b")


def clip_words(text: str, limit: int) -> str:
    """`text` at most `limit` characters, cut after a whole word with "…" (a label-sized text
    never ends inside a word or a number)."""
    if len(text) <= limit:
        return text
    head = text[:limit - 1]
    cut = head.rfind(" ")
    return (head[:cut] if cut > limit // 2 else head).rstrip(" ,:;·(") + "…"
