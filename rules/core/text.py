"""Small helpers for the texts players read."""

from __future__ import annotations


def count(n: int, singular: str, plural: str | None = None) -> str:
    """`1 card`, `3 cards`, `0 cards` (the plural given, or the singular plus s)."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"
