"""The automatic player's choice of a turn move, kept for the `apply` that follows it.

A simulation applies each automatic choice at once, on the very state object it was chosen
on. `auto_action` keeps (state, seat, key) when `apply` would check that key on keys alone
(legality.py: the seat is to act and the key is not a reaction's), and `apply` then takes it
without that check: the automatic player only ever chooses a legal action (policy.py,
autoturn.py; tests compare its choices with the legal actions). A step of the turn's plan still
has its arguments worked out (`plans.step_after`, which that check shared), without looking
its value up among the step's values again.

The choice is taken only for the same state object, seat and key, once, and only while a few
values every move changes are as they were (the phase, the actor, the draws, the seat's move
being built): a state is never changed once `apply` made it (it changes a copy). The guard is
not a check of the whole state: a caller that edits a state in place (a hand, a unit) after the
choice breaks that contract, and its `apply` may then fail with another error than
IllegalAction; nothing in the rules or the bot does. One choice is kept at a time and per
thread, so no older state is kept alive and moves applied at once in two threads never see
each other's.
"""

from __future__ import annotations

import threading

from rules.by_gods_and_kings.plans import TURN_PLANS, step_after
from rules.by_gods_and_kings.state import BgkState

Taken = tuple[dict[str, str] | None]
"""A kept choice taken by `apply`, a plain 1-tuple (made at every move: a named tuple costs a
call more): for a step of the turn's plan, the move's arguments once the key is applied
(`plans.step_after`); None for any other turn move."""


class Chosen(threading.local):
    """The last choice kept (at most one), for this thread: the state, the seat, the key and
    the guard (the state's phase, actor and draw count, and the seat's move being built)."""

    def __init__(self) -> None:
        self.kept: tuple[BgkState, str, str, object, object, object, object] | None = None

    def keep(self, s: BgkState, seat: str, key: str) -> None:
        """The automatic player chose the turn move `key` of `seat` on `s` (legal, and checked
        on keys alone by `apply`)."""
        d = s.__dict__
        self.kept = (
            s,
            seat,
            key,
            d["phase"],
            d["actor"],
            d["rng"].__dict__["counter"],
            d["buildings"].get(seat),
        )

    def forget(self) -> None:
        self.kept = None

    def take(self, s: BgkState, seat: str, key: str) -> Taken | None:
        """The choice kept for this very state, seat and key (forgotten once asked for, taken
        or not), or None: then `apply` checks the key the usual way."""
        kept, self.kept = self.kept, None
        if kept is None or kept[0] is not s or kept[2] != key or kept[1] != seat:
            return None
        d = s.__dict__
        if (kept[3], kept[4], kept[5]) != (
            d["phase"],
            d["actor"],
            d["rng"].__dict__["counter"],
        ) or kept[6] is not d["buildings"].get(seat):
            return None
        plan = TURN_PLANS.get(s.phase)
        if plan is None or key == plan.back_key:
            return (None,)
        step = step_after(s, seat, plan, key, known=True)
        return None if step is None else (step,)
