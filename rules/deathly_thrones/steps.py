"""The step deck: 10, J, Q, K of every suit, worth 1, 2, 3 and 4 steps.

The sixteen cards add up to exactly 40, so the last card always lands on the
boss of step 40.
"""

from __future__ import annotations

from rules.core import Card, Rng, Suit

STEP_VALUES = {10: 1, 11: 2, 12: 3, 13: 4}
STEP_NAMES = {10: "10", 11: "Jack", 12: "Queen", 13: "King"}


def step_cards() -> list[Card]:
    return [Card(rank=r, suit=s) for s in Suit for r in STEP_VALUES]


def step_value(card: Card) -> int:
    return STEP_VALUES[card.rank]


def new_step_deck(rng: Rng) -> list[Card]:
    return rng.shuffled(step_cards())


def describe_step_card(card: Card) -> str:
    n = step_value(card)
    return f"{STEP_NAMES[card.rank]} {card.suit.symbol} ({n} step{'s' if n > 1 else ''})"
