"""Small helpers for the texts players read."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right

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


_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): a font draws
nothing for them. They include the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), which
Python counts as letters."""
_IGNORABLE_STARTS = tuple(start for start, _ in _IGNORABLE)
_BLANK_SYMBOLS = frozenset({0x2800, 0x1D159})
"""Symbols drawn as empty space: the braille blank, the musical null notehead."""
_BLANK_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf"})
"""Spaces, line and paragraph separators, controls and format characters."""
_REORDERING = frozenset({0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)})
"""The bidirectional marks, embeddings, overrides and isolates: in a name they turn the text
that follows it around."""


def blank(ch: str) -> bool:
    """Whether the character `ch` shows nothing where it is written (a space, a control, a
    zero-width or default-ignorable character, a Hangul filler, the braille blank)."""
    cp = ord(ch)
    if cp in _BLANK_SYMBOLS or unicodedata.category(ch) in _BLANK_CATEGORIES:
        return True
    i = bisect_right(_IGNORABLE_STARTS, cp) - 1
    return i >= 0 and cp <= _IGNORABLE[i][1]


def visible(text: str) -> bool:
    """Whether `text` shows at least one character (it is not made of blanks only)."""
    return any(not blank(ch) for ch in text)


def letter_or_digit(ch: str) -> bool:
    """A letter or a digit that can be seen (Python's `isalnum` counts the Hangul fillers)."""
    return ch.isalnum() and not blank(ch)


SHOWN_NAME_MAX = 64
"""The most of a person's name the bot keeps (Discord's display names have at most 32)."""


def shown_name(name: str, fallback: str) -> str:
    """A person's name as the bot shows it: without the marks that reorder the text after it,
    cut to SHOWN_NAME_MAX characters, or `fallback` ("Player 2", an account name) when nothing
    visible is left (a name of Hangul fillers, zero-width characters or spaces)."""
    kept = "".join(ch for ch in name[:SHOWN_NAME_MAX * 2] if ord(ch) not in _REORDERING)
    kept = kept[:SHOWN_NAME_MAX].strip()
    return kept if visible(kept) else fallback
