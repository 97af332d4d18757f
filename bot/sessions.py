"""The session service: lobbies, turns, automatic players and turn timers, over the store.

No discord import: the Discord layer (and the local table, and the benchmark) call this.
Every change follows one path: lock the session -> load it -> check seat, turn and
version -> `rules.apply` -> automatic seats play -> commit state, seats and log rows in
one transaction (a compare-and-swap on the version) -> return the events. Nothing is
sent before the commit, so a failed send never loses or doubles a move.

The service is put together from its parts in `bot/service/`: `base` (errors, the change in
the making, locks, load and save), `lobby`, `play`, `commit` (automatic seats, timers, the one
transaction), `timers`, `messages` (where the table and DMs are) and `queries`.
"""

from __future__ import annotations

from bot.models import TURN_TIMER_CHOICES
from bot.service.base import (
    PING_TARGET,
    REMINDER_LEAD_MAX,
    TIMEOUT_STEPS,
    NotSeated,
    NotYourTurn,
    ServiceError,
    StaleVersion,
    default_turn_timer,
)
from bot.service.messages import MessageService
from bot.service.play import PlayService
from bot.service.queries import QueryService
from bot.service.timers import TimerService


class SessionService(PlayService, TimerService, MessageService, QueryService):
    """Everything the front ends do to a game goes through here."""


__all__ = [
    "PING_TARGET", "REMINDER_LEAD_MAX", "TIMEOUT_STEPS", "TURN_TIMER_CHOICES", "NotSeated",
    "NotYourTurn", "ServiceError", "SessionService", "StaleVersion", "default_turn_timer",
]
