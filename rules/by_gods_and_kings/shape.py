"""A cheap summary of a state that changes with every move: the guard under which `apply`
reuses the actions `auto_action` has just built for the very same state object (game.py)."""

from __future__ import annotations

from rules.by_gods_and_kings.state import BgkState


def shape(s: BgkState) -> tuple[object, ...]:
    """The phase, whose turn, the piles, the moves being built and every unit's changing
    counts: any move changes at least one of them. (Lists are built, then made tuples: faster
    than tuples of generators.)"""
    battle = s.battle
    return (s.phase, s.actor, s.played, s.area, s.step, s.attempt, s.rng.counter, len(s.deck),
            len(s.discard), len(s.stash), tuple(s.queue), s.intent, tuple(s.opening), tuple(s.saving),
            tuple(s.ready), tuple(s.votes.items()),
            tuple([(seat, b.verb, tuple(b.args.items())) for seat, b in s.buildings.items()]),
            tuple([(h.hp, h.shield, h.miss, len(h.field), len(h.statuses), len(h.hand), len(h.bag),
                   len(h.shards), len(h.equipped), h.loadout, h.held) for h in s.party]),
            None if battle is None else (
                battle.round, battle.pos, len(battle.order),
                tuple([(f.hp, f.shield, f.miss, len(f.field), len(f.statuses)) for f in battle.foes]),
                tuple([(n.hp, n.shield, n.miss, len(n.field), len(n.statuses), len(n.hand))
                       for n in battle.npcs])))
