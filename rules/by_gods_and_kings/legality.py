"""Whether a key is one of a seat's legal actions, worked out on keys alone: `apply` checks
the moves of a turn this way (game.py) instead of finding them among the seat's legal actions,
which are built with their labels, or among the actions the automatic player has just offered,
which needs the state's shape worked out twice (once when offered, once when applied).

The keys are made by the same functions as the legal actions' keys (`plans.is_action_key`,
`turn.attack_keys`, `turn.opening_keys`, `camp.route_keys`). Only the turn's own moves and
route votes are checked here; a reaction ('use.' keys) or any key of another phase is looked
up the long way. A test compares the answers with the legal actions over played positions.
"""

from __future__ import annotations

from rules.by_gods_and_kings.abilities import hand_abilities
from rules.by_gods_and_kings.camp import route_keys
from rules.by_gods_and_kings.plans import TURN_PLANS, is_action_key
from rules.by_gods_and_kings.state import BgkState
from rules.by_gods_and_kings.turn import attack_keys, opening_keys, peek_actor

TURN_PHASES = frozenset(("play", "resolve", "deploy", "npc", "enemy"))
"""The phases in which one seat decides the turn being played (`turn_seat`)."""


def turn_seat(s: BgkState) -> str:
    """The seat deciding the turn being played in one of `TURN_PHASES`: the actor's, or in the
    enemy phase the seat of the blow's target (who may react before it lands)."""
    if s.phase == "enemy":
        assert s.intent is not None
        return s.seat_of(s.intent.target)
    assert s.actor is not None
    return s.seat_of(s.actor)


def checks_keys(s: BgkState, seat: str) -> bool:
    """Whether `is_turn_key` knows the seat's turn moves now: it is to act (as `to_act` says)
    in the opening, one of `TURN_PHASES` or a route vote, and builds no move but one of the
    phase's own."""
    phase = s.phase
    if phase in TURN_PHASES:
        acting = turn_seat(s) == seat
    elif phase == "opening":
        acting = any(s.seat_of(uid) == seat for uid in s.opening)
    elif phase == "route":
        acting = seat not in s.votes
    else:
        return False
    if not acting or seat not in s.players:
        return False
    building = s.buildings.get(seat)
    if building is None:
        return True
    plan = TURN_PLANS.get(s.phase)
    return plan is not None and building.verb == plan.verb


def is_turn_key(s: BgkState, seat: str, key: str) -> bool:
    """Whether `key` is the key of one of the seat's turn moves (where `checks_keys` holds;
    the reactions offered beside them are not looked at)."""
    phase = s.phase
    plan = TURN_PLANS.get(phase)
    if plan is not None:
        return is_action_key(s, seat, plan, key)
    if phase == "resolve":
        return _resolve_key(s, key)
    if phase == "enemy":
        return key == "land"
    if phase == "route":
        return key in route_keys(s)
    return key in opening_keys(s, seat)


def _resolve_key(s: BgkState, key: str) -> bool:
    """A basic attack, or firing the abilities the Field fires (when it fires any)."""
    if key == "deploy":
        return bool(hand_abilities(s, peek_actor(s)))
    return key.startswith("atk:") and key in attack_keys(s)
