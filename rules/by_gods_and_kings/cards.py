"""The playing cards of By Gods and Kings: codes, values, the shared deck and the three hands.

A card is kept as a short code, rank then suit letter: `Ah`, `7c`, `10d`, `Ks`. Several decks
are shuffled together, so a code may appear more than once: copies are interchangeable.

- **Value** (damage, an enemy's Field, a save): an Ace is 1, 2-10 their number, J, Q, K 10.
- **Pick** (an enemy choosing its target): an Ace is 1, J 11, Q 12, K 13.
- **Hands** on a Field of three cards: a Flush (one suit), a Straight (three ranks in a row,
  no wrapping past the King) or a Three of a Kind. An Ace is wild for completing any of them:
  it takes whatever suit or rank the hand needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Literal

from rules.core.cards import Card, Suit
from rules.core.rng import Rng

HandKind = Literal["flush", "straight", "three"]
HAND_KINDS: tuple[HandKind, ...] = ("flush", "straight", "three")
HAND_NAMES: dict[HandKind, str] = {"flush": "Flush", "straight": "Straight", "three": "Three of a Kind"}

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = {"c": Suit.CLUBS, "d": Suit.DIAMONDS, "h": Suit.HEARTS, "s": Suit.SPADES}

DECK_SIZE = 52
FIELD_SIZE = 3
HAND_LIMIT = 5


_RANK_OF = {f"{r}{s}": i + 1 for i, r in enumerate(RANKS) for s in SUITS}
"""The rank of every valid code, looked up instead of searched."""


def rank(code: str) -> int:
    """1 (Ace) to 13 (King)."""
    found = _RANK_OF.get(code)
    return found if found is not None else RANKS.index(code[:-1]) + 1


def suit(code: str) -> str:
    return code[-1]


_VALUE_OF = {code: min(r, 10) for code, r in _RANK_OF.items()}
"""The value of every valid code, looked up (`value`)."""


def value(code: str) -> int:
    """What the card is worth as damage, on an enemy's Field or in a save: J, Q, K are 10."""
    found = _VALUE_OF.get(code)
    return found if found is not None else min(rank(code), 10)


def pick(code: str) -> int:
    """The number an enemy's target card names: J 11, Q 12, K 13."""
    return rank(code)


def is_ace(code: str) -> bool:
    return code[:-1] == "A"


def valid(code: str) -> bool:
    return len(code) >= 2 and code[:-1] in RANKS and code[-1] in SUITS


def card(code: str) -> Card:
    return Card(rank=rank(code), suit=SUITS[suit(code)])


@cache
def name(code: str) -> str:
    """The card as a label shows it: `7♥`, `K♠` (worked out once per code)."""
    return card(code).name


def names(codes: Sequence[str]) -> str:
    return " ".join(name(c) for c in codes) or "nothing"


def decks_for(characters: int) -> int:
    """One 52-card deck for every two characters (1-2: 1, 3-4: 2, 5-6: 3 ...)."""
    return max(1, (characters + 1) // 2)


def full_deck(decks: int) -> list[str]:
    """Every card of `decks` decks, in a fixed order (suit by suit, Ace to King)."""
    return [f"{r}{s}" for _ in range(decks) for s in SUITS for r in RANKS]


def shuffled(rng: Rng, decks: int) -> list[str]:
    return rng.shuffled(full_deck(decks))


def hands(field: Sequence[str]) -> list[HandKind]:
    """The hands a Field holds: none unless it has exactly three cards; Aces are wild."""
    if len(field) != FIELD_SIZE:
        return []
    return list(_hands(tuple(field)))


def sorted_hands(field: Sequence[str]) -> tuple[HandKind, ...]:
    """`hands` of a full Field, looked up under its cards in sorted order (the hands do not
    depend on the order): the orders of the same three cards share one entry."""
    return _hands(tuple(sorted(field)))


@cache
def _hands(field: tuple[str, ...]) -> tuple[HandKind, ...]:
    """`hands` of a full Field, worked out once per Field."""
    plain = [c for c in field if not is_ace(c)]
    found: list[HandKind] = []
    if len({suit(c) for c in plain}) <= 1:
        found.append("flush")
    ranks = sorted(rank(c) for c in plain)
    if len(set(ranks)) == len(ranks) and (not ranks or ranks[-1] - ranks[0] <= 2):
        found.append("straight")
    if len(set(ranks)) <= 1:
        found.append("three")
    return tuple(found)


def total(cards: Sequence[str]) -> int:
    return sum(map(value, cards))
