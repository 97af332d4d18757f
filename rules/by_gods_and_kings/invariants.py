"""What must always hold in a state of By Gods and Kings (`Game.check_invariants`)."""

from __future__ import annotations

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.content import MAX_EQUIPPED
from rules.by_gods_and_kings.gear import loadout_problem
from rules.by_gods_and_kings.state import BgkState
from rules.by_gods_and_kings.stats import max_hp


def check(s: BgkState, to_act: list[str]) -> None:
    total = s.decks * cards.DECK_SIZE
    assert s.count_cards() == total, f"{s.count_cards()} cards in the game, {total} expected"
    every = list(s.deck) + list(s.discard)
    for h in s.party:
        every += h.hand + h.field
    for f in s.foes:
        every += f.field
    for n in s.npcs:
        every += n.hand + n.field
    assert sorted(every) == sorted(cards.full_deck(s.decks)), "a card is duplicated or unknown"
    cat = s.cat
    owned: list[str] = [x for x in s.stash if x in cat.shards]
    for h in s.party:
        assert len(h.hand) <= cards.HAND_LIMIT, f"{h.name} holds {len(h.hand)} cards"
        assert len(h.field) <= cards.FIELD_SIZE, f"{h.name}'s Field holds {len(h.field)} cards"
        assert 0 <= h.hp <= max_hp(s, h), f"{h.name} has {h.hp} HP"
        assert len(h.equipped) <= MAX_EQUIPPED and set(h.equipped) <= set(h.shards)
        assert loadout_problem(cat, h.loadout, h.equipped) is None, f"{h.name}'s loadout"
        assert h.shield >= 0
        owned += h.shards
    assert len(owned) == len(set(owned)), "a shard exists twice"
    for n in s.npcs:
        assert len(n.hand) <= cards.HAND_LIMIT
    for f in s.foes:
        assert 0 <= f.hp <= max_hp(s, f)
    if s.phase == "over":
        assert not to_act and s.outcome
        return
    assert to_act, f"nobody is to act in phase {s.phase}"
    battle_phases = ("opening", "order", "play", "resolve", "deploy", "npc", "enemy")
    assert (s.battle is not None) == (s.phase in battle_phases), f"phase {s.phase} and the battle"
    if s.phase in ("play", "resolve", "deploy", "npc", "enemy"):
        assert s.actor is not None and s.unit(s.actor).alive, "the actor stands"
        assert s.living_foes() and s.living_heroes(), "both sides stand while a turn is played"
    if s.phase == "deploy":
        assert s.queue, "a deploy has abilities left"
    if s.phase == "enemy":
        assert s.intent is not None and s.intent.foe == s.actor
