"""The state of a duel of Guilty Gods, and small queries over it.

Cards are kept as creature ids (a deck holds several copies of a creature, and copies are
interchangeable). Each player's cards are in one of four places: the deck, the hand, the
face-up pile (cards played in a move, or discarded by an effect: everyone saw them) and the
face-down pile (cards thrown away when renewing or at Kairos's limit: only their owner knows
them). A move under way is on the table (`attack`, `defense`) once confirmed; before that it is
the private `draft` of the player building it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from rules.core import Rng
from rules.core.steps import Building
from rules.guilty_gods.content import (
    CATALOGUES,
    Catalogue,
    CreatureDef,
    Kind,
    SummonerDef,
)

START_GNOSIS = 10
MAX_SEALS = 7
HAND_SIZE = 7

Side = Literal["left", "right"]

Phase = Literal["deck", "hand", "first", "summoner", "kairos", "discard", "act", "defend",
                "skills", "over"]
"""deck: the winner of the deck roll picks a deck; hand: both keep or redraw their starting
hand; first: the winner of the initiative roll says who begins; summoner: the initiative holder
chooses a summoner; kairos: they may draw a card; discard: they hold eight and discard one;
act: they build an attack or renew; defend: the other builds a defense or takes the hit;
skills: a player activates the skills that may fire; over."""


class Placed(BaseModel):
    """A card in the row of a move, with the individual support under it."""

    card: str
    support: str | None = None
    opened: Side | None = None
    """The printed side of this card whose closed slot Aizen's Combination opened."""


class Move(BaseModel):
    """An attack or a defense: built in private (`GgState.draft`), then on the table."""

    player: str
    kind: Kind
    row: list[Placed] = Field(default_factory=list)
    """The cards side by side, from the attacker's left to right (defense cards too: a defense
    card sits turned round, so its printed left slot is on the attacker's right)."""
    group: str | None = None
    """The group support beside the move."""
    offset: int = 0
    """Defense: the position in the attack row faced by row[0]."""
    chain: bool = False
    """Chain of Actions is bought with this move (the initiative comes back)."""
    steps: list[str] = Field(default_factory=list)
    """How it was built, for Undo: start, w, e (with +a when Aizen opened a slot), s<i>, g."""

    def cards(self) -> list[str]:
        """Every card the move takes from the hand: the row, the supports, the group support."""
        out = [p.card for p in self.row] + [p.support for p in self.row if p.support]
        return out + ([self.group] if self.group else [])

    @property
    def combination(self) -> bool:
        return any(p.opened for p in self.row)

    @property
    def empty(self) -> bool:
        return not self.row and self.group is None


class Tally(BaseModel):
    """The combat of the move on the table, while skills are being activated."""

    raw: list[int]
    """Damage each attack card deals through its facing card (no facing card: all its spheres)."""
    stopped: list[bool]
    """For each defense card: it stopped its facing attack card completely."""
    fired: list[str] = Field(default_factory=list)
    """Skills activated, as '<a|d>:own.<i>', '<a|d>:sup.<i>', '<a|d>:group', 'd:protect'."""
    paid: dict[str, int] = Field(default_factory=dict)
    """Seals spent on skills by each player in this move."""
    done: list[str] = Field(default_factory=list)
    """Players who finished activating skills."""


class Seat(BaseModel):
    deck_id: str
    deck: list[str]
    """Top of the deck last (drawn with pop)."""
    hand: list[str] = Field(default_factory=list)
    played: list[str] = Field(default_factory=list)
    hidden: list[str] = Field(default_factory=list)
    gnosis: int = START_GNOSIS
    seals: int = 0
    summoner: str | None = None
    ready: bool = False
    """Kept the starting hand."""


class GgState(BaseModel):
    players: list[str]
    options: dict[str, str]
    content: str
    """The version of the catalogue this duel plays with (`content.CATALOGUES`): creatures,
    summoners and decks are read from it, not copied into every state."""
    rng: Rng
    seats: dict[str, Seat] = Field(default_factory=dict)
    """Filled once the decks are chosen."""
    phase: Phase = "deck"
    picker: str | None = None
    """Deck phase: who picks now."""
    current: int = 0
    """Seat index of the initiative holder (during the first-player choice: the roll's winner)."""
    turn: int = 0
    """Initiatives so far; the first one (1) allows no summoner power."""
    first: str | None = None
    building: Building | None = None
    """The step of a plan under way (a card picked, its place not chosen yet)."""
    draft: Move | None = None
    attack: Move | None = None
    defense: Move | None = None
    tally: Tally | None = None
    skill_player: str | None = None
    winners: list[str] | None = None
    end_reason: str = ""

    # --- queries ------------------------------------------------------------------
    @model_validator(mode="before")
    @classmethod
    def _legacy_catalogue(cls, data: object) -> object:
        """A state saved before pinning carried the catalogue itself: it becomes a version."""
        if not isinstance(data, dict) or "cards" not in data or "content" in data:
            return data
        data = dict(data)
        parts = {k: data.pop(k) for k in ("cards", "summoners", "deck_names", "deck_summoners",
                                          "deck_cards")}
        data["content"] = CATALOGUES.add(Catalogue.model_validate(parts))
        return data

    @property
    def catalogue(self) -> Catalogue:
        return CATALOGUES.get(self.content)

    @property
    def cards(self) -> dict[str, CreatureDef]:
        """Every creature of the decks in this game, by id."""
        return self.catalogue.cards

    @property
    def summoners(self) -> dict[str, SummonerDef]:
        return self.catalogue.summoners

    @property
    def deck_names(self) -> dict[str, str]:
        """Deck id -> name, for every deck in the game's content."""
        return self.catalogue.deck_names

    @property
    def deck_summoners(self) -> dict[str, list[str]]:
        return self.catalogue.deck_summoners

    @property
    def deck_cards(self) -> dict[str, list[str]]:
        """Deck id -> its 52 cards (creature ids), for the decks that may be chosen."""
        return self.catalogue.deck_cards

    @property
    def player(self) -> str:
        """The initiative holder."""
        return self.players[self.current]

    def other(self, player: str) -> str:
        return self.players[1 - self.players.index(player)]

    @property
    def defender(self) -> str:
        return self.other(self.player)

    def card(self, cid: str) -> CreatureDef:
        return self.cards[cid]

    def summoner(self, player: str) -> SummonerDef | None:
        sid = self.seats[player].summoner
        return self.summoners[sid] if sid else None

    def powers_on(self, player: str) -> bool:
        """The player's summoner powers work: a summoner is chosen and this is not the first
        initiative of the game (when the first player may use none)."""
        return self.seats[player].summoner is not None and self.turn > 1

    def has_attack(self, player: str) -> bool:
        return any(self.cards[c].kind == "attack" for c in self.seats[player].hand)

    def count_cards(self, player: str) -> int:
        seat = self.seats[player]
        n = len(seat.deck) + len(seat.hand) + len(seat.played) + len(seat.hidden)
        for move in (self.attack, self.defense):
            if move is not None and move.player == player:
                n += len(move.cards())
        return n
