"""Tests click at machine speed: Discord's per-channel pacing of edits (bot/edits.py) would hold
the table's edits for seconds. It is off here; the tests that measure it set it on their bot
(`bot.controller.edits.pacing`)."""

from __future__ import annotations

import pytest

from bot import edits


@pytest.fixture(autouse=True)
def _no_edit_pacing(monkeypatch):
    monkeypatch.setattr(edits, "PACING", None)
