"""Tests click at machine speed: Discord's per-channel pacing of edits (bot/edits.py) would hold
the table's edits for seconds. It is off here; the tests that measure it set it on their bot
(`bot.controller.edits.pacing`). Each test starts with no kept parsed states (bot/models.py), so
one test's games (same seeds, same players) never hand another its worked-out actions and views."""

from __future__ import annotations

import pytest

from bot import edits
from bot.models import forget_memos


@pytest.fixture(autouse=True)
def _no_edit_pacing(monkeypatch):
    monkeypatch.setattr(edits, "PACING", None)


@pytest.fixture(autouse=True)
def _no_kept_states():
    forget_memos()
    yield
    forget_memos()
