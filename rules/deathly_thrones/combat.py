"""Combat: two battle cards, attack powers, hits, armor and damage.

Health is also strength: each side adds its health to its battle card. The lower
side takes the difference as hits; its armor is taken off to give the damage,
which the player puts on health or on armor (never both; what overflows is
lost). A tie is drawn again.
"""

from __future__ import annotations

from rules.core import Card, Event, Rng, Suit
from rules.deathly_thrones.state import Part, Round, RunState, Side


def battle_cards() -> list[Card]:
    """The 18 battle cards: clubs and diamonds, 1 to 9."""
    return [Card(rank=r, suit=s) for s in (Suit.CLUBS, Suit.DIAMONDS) for r in range(1, 10)]


def resolve_round(health: int, armor: int, enemy_health: int, enemy_armor: int,
                  your_card: Card, enemy_card: Card) -> Round:
    """The round these two cards make (before the damage choice)."""
    yours = health + your_card.rank
    theirs = enemy_health + enemy_card.rank
    hits = abs(yours - theirs)
    if hits == 0:
        return Round(your_card=your_card, enemy_card=enemy_card, your_power=yours,
                     enemy_power=theirs, hits=0, target=None)
    target: Side = "enemy" if yours > theirs else "you"
    shield = enemy_armor if target == "enemy" else armor
    return Round(your_card=your_card, enemy_card=enemy_card, your_power=yours, enemy_power=theirs,
                 hits=hits, target=target, armor=shield, damage=max(0, hits - shield))


def take_damage(value: int, damage: int) -> tuple[int, int]:
    """A counter after `damage`: (new value, points actually lost); it stops at 0."""
    lost = min(value, damage)
    return value - lost, lost


def parts_open(health: int, armor: int) -> list[Part]:
    """Where damage may land: armor only while there is some left."""
    return ["health", "armor"] if armor > 0 else ["health"]


def draw_battle_card(state: RunState, rng: Rng, events: list[Event]) -> Card:
    """The top battle card; the discard pile is shuffled into a new deck when it runs out."""
    if not state.battle_deck:
        state.battle_deck = rng.shuffled(state.battle_discard)
        state.battle_discard = []
        events.append(Event(kind="reshuffle", text="The battle deck is empty: the discard pile is "
                            f"shuffled into a new deck of {len(state.battle_deck)} cards.",
                            data={"cards": len(state.battle_deck)}))
    return state.battle_deck.pop()
