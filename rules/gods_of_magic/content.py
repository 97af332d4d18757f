"""The shared deck: card models and loading (deck.yaml, then a pack's extra/*.yaml).

A content pack (CONTENT_DIR) may replace `deck.yaml` whole, or add files
`extra/<name>.yaml` holding `add:` (new cards, same fields as the deck) and
`remove:` (ids of cards to take out). Errors name the file, the entry and the field.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from rules.core.content import ContentError, Pinned, content_files, content_roots, load_model

GAME_ID = "gods-of-magic"


class Suit(StrEnum):
    LOCATION = "location"
    ACTION = "action"
    ENTITY = "entity"
    DESCRIPTOR = "descriptor"
    OBJECT = "object"

    @property
    def letter(self) -> str:
        return self.value[0].upper()

    @property
    def mark(self) -> str:
        return SUIT_MARKS[self]


SUIT_MARKS = {
    Suit.LOCATION: "🏰", Suit.ACTION: "⚡", Suit.ENTITY: "🐉", Suit.DESCRIPTOR: "✨", Suit.OBJECT: "🔮",
}


class CardDef(BaseModel):
    """One card of the deck."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,12}$")
    """Stable short id (suit letter + number in the shipped deck): used in action keys."""
    suit: Suit
    name: str = Field(min_length=1, max_length=40)
    vp: int = Field(ge=0, le=100)
    """Victory Points."""

    @property
    def short(self) -> str:
        """Name with suit letter and value, e.g. 'Rainbow (L4)': unique enough for a label."""
        return f"{self.name} ({self.suit.letter}{self.vp})"


class DeckFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cards: list[CardDef]


class ExtraFile(BaseModel):
    """A pack's change to the deck: cards to add and ids of cards to remove."""

    model_config = ConfigDict(extra="forbid")

    add: list[CardDef] = Field(default_factory=list)
    remove: list[str] = Field(default_factory=list)


MIN_DECK = 30
"""Below this the game cannot even deal (setup checks 10 a player plus a draw pile)."""


def build_deck(deck: tuple[Path, DeckFile], extras: list[tuple[Path, ExtraFile]]) -> list[CardDef]:
    """Apply the extras to the deck; raises ContentError naming file, entry and field."""
    path, base = deck
    cards: dict[str, CardDef] = {}
    for i, card in enumerate(base.cards):
        if card.id in cards:
            raise ContentError(f"{path}: at cards.{i}.id: duplicate card id {card.id!r}")
        cards[card.id] = card
    for xpath, extra in extras:
        for i, cid in enumerate(extra.remove):
            if cid not in cards:
                raise ContentError(f"{xpath}: at remove.{i}: no card with id {cid!r} to remove")
            del cards[cid]
        for i, card in enumerate(extra.add):
            if card.id in cards:
                raise ContentError(f"{xpath}: at add.{i}.id: card id {card.id!r} is already in the deck")
            cards[card.id] = card
    out = list(cards.values())
    where = ", ".join(str(p) for p in [path, *(p for p, _ in extras)])
    if len(out) < MIN_DECK:
        raise ContentError(f"{where}: the deck has {len(out)} cards, at least {MIN_DECK} are needed")
    if not any(c.suit == Suit.LOCATION for c in out):
        raise ContentError(f"{where}: the deck has no Location card, so no realm can ever be made")
    return out


_cache: dict[tuple[str, ...], list[CardDef]] = {}


def load_deck() -> list[CardDef]:
    """The deck in use (shipped deck.yaml or a pack's, with the pack's extras), validated."""
    roots = tuple(str(r) for r in content_roots())
    if roots not in _cache:
        decks = content_files(GAME_ID, "deck.yaml")
        if not decks:
            raise ContentError(f"content/{GAME_ID}/deck.yaml is missing")
        deck = (decks[-1], load_model(decks[-1], DeckFile))
        extras = [(p, load_model(p, ExtraFile)) for p in content_files(GAME_ID, "extra/*.yaml")]
        _cache[roots] = build_deck(deck, extras)
    return _cache[roots]


def clear_cache() -> None:
    _cache.clear()


class Deck(BaseModel):
    """The cards of one game's deck (a server's pack applied): the content a game pins."""

    model_config = ConfigDict(frozen=True)

    cards: list[CardDef]


DECKS: Pinned[Deck] = Pinned(GAME_ID, Deck, lambda: Deck(cards=load_deck()))
"""Every deck version this process knows; a state names the one its game started with."""

_by_id: dict[str, dict[str, CardDef]] = {}


def cards_of(version: str) -> dict[str, CardDef]:
    """The cards of a deck version, by id."""
    found = _by_id.get(version)
    if found is None:
        found = _by_id[version] = {c.id: c for c in DECKS.get(version).cards}
    return found


_short_by_id: dict[str, dict[str, str]] = {}


def short_names(version: str) -> dict[str, str]:
    """Every card's `short` name of a deck version, by id: written once per version, since a
    deck version never changes."""
    found = _short_by_id.get(version)
    if found is None:
        found = _short_by_id[version] = {cid: c.short for cid, c in cards_of(version).items()}
    return found


_suit_by_id: dict[str, dict[str, Suit]] = {}


def suits_of(version: str) -> dict[str, Suit]:
    """Every card's suit of a deck version, by id (written once per version, like `short_names`)."""
    found = _suit_by_id.get(version)
    if found is None:
        found = _suit_by_id[version] = {cid: c.suit for cid, c in cards_of(version).items()}
    return found


_points_by_id: dict[str, dict[str, tuple[int, Suit]]] = {}


def points_and_suits(version: str) -> dict[str, tuple[int, Suit]]:
    """Every card's (Victory Points, suit) of a deck version, by id (written once per version)."""
    found = _points_by_id.get(version)
    if found is None:
        found = _points_by_id[version] = {cid: (c.vp, c.suit) for cid, c in cards_of(version).items()}
    return found
