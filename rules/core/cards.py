"""French-suited playing cards: the standard 52-card deck without jokers."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from rules.core.rng import Rng


class Suit(StrEnum):
    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"

    @property
    def symbol(self) -> str:
        return {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}[self.value]


RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


class Card(BaseModel):
    model_config = ConfigDict(frozen=True)

    rank: int
    """1 (ace) to 13 (king)."""
    suit: Suit

    @property
    def name(self) -> str:
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{self.suit.symbol}"

    def __str__(self) -> str:
        return self.name


def standard_deck(decks: int = 1) -> list[Card]:
    """`decks` full 52-card decks in a fixed order (suit by suit, ace to king)."""
    return [Card(rank=r, suit=s) for _ in range(decks) for s in Suit for r in range(1, 14)]


def shuffled_deck(rng: Rng, decks: int = 1) -> list[Card]:
    return rng.shuffled(standard_deck(decks))
