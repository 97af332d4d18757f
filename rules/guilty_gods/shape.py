"""A cheap summary of a state that changes with every move: the guard under which `apply`
reuses the actions `auto_action` has just built for the very same state object (game.py)."""

from __future__ import annotations

from rules.guilty_gods.state import GgState, Move, Tally


def _move(m: Move | None) -> tuple[object, ...] | None:
    if m is None:
        return None
    return (m.player, m.kind, tuple((p.card, p.support, p.opened) for p in m.row), m.group, m.offset,
            m.chain, tuple(m.steps))


def _tally(t: Tally | None) -> tuple[object, ...] | None:
    if t is None:
        return None
    return (tuple(t.raw), tuple(t.stopped), tuple(t.fired), tuple(t.paid.items()), tuple(t.done))


def shape(s: GgState) -> tuple[object, ...]:
    """The phase, the initiative, the moves being built or on the table and every seat's
    cards and counters: any move changes at least one of them."""
    b = s.building
    return (s.phase, s.picker, s.current, s.turn, s.first, s.skill_player, s.rng.counter,
            None if b is None else (b.verb, tuple(b.args.items())),
            _move(s.draft), _move(s.attack), _move(s.defense), _tally(s.tally),
            tuple((p, seat.deck_id, tuple(seat.hand), len(seat.deck), len(seat.played), len(seat.hidden),
                   seat.gnosis, seat.seals, seat.summoner, seat.ready) for p, seat in s.seats.items()))
