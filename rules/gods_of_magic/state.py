"""The state of a game of Gods of Magic, and small queries over it.

Hidden parts (the deck order, the hands, a saved snapshot) and public parts
(domains, scores, counts) are separate fields, so a view is built mechanically.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, Field, model_serializer, model_validator

from rules.core import EventData, Rng
from rules.core.steps import Building
from rules.gods_of_magic.content import DECKS, CardDef, Deck, Suit, cards_of, suits_of

HAND_LIMIT = 10
DEAL = 10
SETUP_CARDS = 3
RECOMBINE_FREE_MOVES = 12
"""Moves allowed in one Recombination before only moves that restore the hand size remain."""

MAGIC_NAMES = {
    1: "Creation", 2: "Transformation", 3: "Destruction", 4: "Inspiration", 5: "Transmigration",
    6: "Alteration", 7: "Recombination", 8: "Evocation", 9: "Visitation", 10: "Imagination",
}
MAGIC_TEXT = {
    1: "Play one or two more cards to your realms (a new realm starts with a Location).",
    2: "Discard any card in play and put a card of the same suit from your hand in its place.",
    3: "Discard any card in play; its owner may draw a card.",
    4: "Draw 2 cards (5 when your hand holds 2 or fewer).",
    5: "Move any card in play to another realm, in any domain.",
    6: "Optionally add a Descriptor from your hand: it scores at once, with the card it describes.",
    7: "You may rearrange your realms and hand (no new realm, same hand size at the end).",
    8: "Draw a card and play it at once.",
    9: "Draw a card, then every god scores their domain; then the win check.",
    10: "Choose any other result of the table.",
}


CARD_ARGS = ("card", "target")
"""The arguments of the step plans (plans.py) whose value is a card id."""


_LEGACY_KEYS = {
    "play": ("play.card", ""), "to": ("play.to", ""), "on": ("play.to", "on."),
    "tf": ("transform.target", ""), "tr": ("transform.with", ""),
    "mv": ("move.card", ""), "dest": ("move.to", ""), "host": ("move.to", "on."),
}
"""The keys of the moves built by hand before the step plans: old head -> (new head, value prefix)."""


class Placed(BaseModel):
    """A card in a realm, with the Descriptors attached under it.

    Saved as its card id alone, or as a list (the card, then its Descriptors) when it has any:
    a domain is most of a saved state. The older `{"card": ..., "descriptors": [...]}` loads too."""

    card: str
    descriptors: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _compact(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"card": data}
        if isinstance(data, list):
            return {"card": data[0], "descriptors": data[1:]}
        return data

    @model_serializer
    def _dump(self) -> str | list[str]:
        return [self.card, *self.descriptors] if self.descriptors else self.card


class Realm(BaseModel):
    """The cards of one realm, saved as a plain list of them (`{"cards": [...]}` loads too)."""

    cards: list[Placed] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _compact(cls, data: Any) -> Any:
        return {"cards": data} if isinstance(data, list) else data

    @model_serializer
    def _dump(self) -> list[str | list[str]]:
        return [p._dump() for p in self.cards]


class Objection(BaseModel):
    """Strict storytelling: the window in which the others may object to a move."""

    mover: str
    text: str
    undo: dict[str, Any] = Field(default_factory=dict)
    """What the move changed, as it was just before it (`rules.gods_of_magic.undo`): the state
    an upheld objection restores is the current one with this undone."""
    context: str
    """Where the move was chosen, with its key: forbidden after an upheld objection."""
    resume: str
    """What the game does next when the move stands (see Game._resume)."""
    voters: list[str]
    objections: list[str] = Field(default_factory=list)
    stands: list[str] = Field(default_factory=list)


class DiceInfo(BaseModel):
    player: str
    face: int
    result: int
    """The Magic Table result being resolved (differs from face after Imagination)."""


class GomState(BaseModel):
    players: list[str]
    options: dict[str, str]
    content: str
    """The version of the deck this game plays with (`content.DECKS`): the cards themselves are
    not copied into every state, and a game keeps its deck when a server changes its pack."""
    rng: Rng
    deck: list[str]
    discard: list[str] = Field(default_factory=list)
    hands: dict[str, list[str]]
    domains: dict[str, list[Realm]]
    scores: dict[str, int]
    phase: str = "setup"
    """setup, discard, play, roll, magic, owner_draw, over."""
    step: str = ""
    """Within the magic phase: which result is being resolved and where."""
    current: int = 0
    """Seat index of the player whose turn it is."""
    turn: int = 0
    setup_done: list[str] = Field(default_factory=list)
    setup_played: dict[str, int] = Field(default_factory=dict)
    building: Building | None = None
    """The move being built (see rules.gods_of_magic.plans): its arguments chosen so far."""
    plays_left: int = 0
    recombine_hand: int = 0
    """Hand size when the Recombination began (it must end the same)."""
    recombine_moves: int = 0
    recombine_undo: dict[str, Any] | None = None
    """Strict storytelling, while a Recombination is under way: how to get back to the state in
    which it began (`rules.gods_of_magic.undo`), which an objection to it restores."""
    owner_draw: str | None = None
    """After a Destruction: the owner who may draw a card."""
    dice: DiceInfo | None = None
    objection: Objection | None = None
    forbidden: list[str] = Field(default_factory=list)
    """Moves an upheld objection has ruled out, as 'context|key'."""
    reshuffled: bool = False
    """The discard pile has been shuffled into a new deck (allowed once)."""
    exhausted: bool = False
    """A card had to be drawn and none was left: the game ends with a final scoring."""
    winners: list[str] | None = None
    end_reason: str = ""

    @model_validator(mode="before")
    @classmethod
    def _legacy_cards(cls, data: Any) -> Any:
        """A state saved before decks were pinned carried its whole catalogue as `cards`: it is
        registered as a deck version of its own, and the state names it."""
        if not isinstance(data, dict) or "cards" not in data:
            return data
        data = dict(data)
        cards = data.pop("cards")
        if "content" not in data:
            listed = list(cards.values()) if isinstance(cards, dict) else list(cards)
            data["content"] = DECKS.add(Deck.model_validate({"cards": listed}))
        return data

    @model_validator(mode="before")
    @classmethod
    def _legacy_pending(cls, data: Any) -> Any:
        """A state saved before the step plans kept the move under way as `pending`, the card
        ids chosen so far: it becomes the same move being built, and the moves an objection
        ruled out are spelled with the new keys."""
        if not isinstance(data, dict) or "pending" not in data:
            return data
        data = dict(data)
        pending = data.pop("pending")
        if pending and data.get("building") is None:
            verb, arg = {"transform": ("transform", "target"), "move": ("move", "card"),
                         "recombine": ("recombine", "card")}.get(data.get("step", ""), ("play", "card"))
            data["building"] = {"verb": verb, "args": {arg: pending[0]}}
        forbidden = []
        for entry in data.get("forbidden", []):
            context, _, key = entry.rpartition("|")
            head, _, value = key.partition(":")
            if head in _LEGACY_KEYS:
                new, prefix = _LEGACY_KEYS[head]
                key = f"{new}:{prefix}{value}"
            forbidden.append(f"{context}|{key}")
        data["forbidden"] = forbidden
        return data

    @model_validator(mode="before")
    @classmethod
    def _legacy_snapshots(cls, data: Any) -> Any:
        """A state saved when an objection (and a Recombination under strict storytelling) kept
        a whole copy of an earlier state as JSON: the copies become undos of the same states."""
        if not isinstance(data, dict):
            return data
        objection = data.get("objection")
        old_objection = isinstance(objection, dict) and "snapshot" in objection
        if "recombine_snapshot" not in data and not old_objection:
            return data
        from rules.gods_of_magic.undo import RECOMBINATION_SKIP, diff, plain

        data = dict(data)
        recombination = data.pop("recombine_snapshot", None)
        now = plain(cls.model_validate({**data, "objection": None}))
        if recombination is not None and now["step"] == "recombine":
            start = plain(cls.model_validate_json(recombination), RECOMBINATION_SKIP)
            data["recombine_undo"] = now["recombine_undo"] = diff(start, {k: now[k] for k in start})
        if old_objection:
            assert isinstance(objection, dict)
            objection = dict(objection)
            before = plain(cls.model_validate_json(objection.pop("snapshot")))
            data["objection"] = {**objection, "undo": diff(before, now)}
        return data

    # --- queries ----------------------------------------------------------
    @property
    def cards(self) -> dict[str, CardDef]:
        """Every card of this game's deck, by id."""
        return cards_of(self.content)

    def card(self, cid: str) -> CardDef:
        return self.cards[cid]

    def suit(self, cid: str) -> Suit:
        return suits_of(self.content)[cid]

    @property
    def player(self) -> str:
        return self.players[self.current]

    @property
    def pending(self) -> list[str]:
        """The cards chosen so far in the move being built (a card from the hand, a target in
        play): its arguments that name a card. Derived from `building`, never stored."""
        if self.building is None:
            return []
        return [v for a, v in self.building.args.items() if a in CARD_ARGS]

    def locate(self, cid: str) -> tuple[str, int, int, int | None] | None:
        """Where a card in play is: (owner, realm index, placed index, descriptor index or None)."""
        for owner, realms in self.domains.items():
            for r, realm in enumerate(realms):
                for i, placed in enumerate(realm.cards):
                    if placed.card == cid:
                        return owner, r, i, None
                    if cid in placed.descriptors:
                        return owner, r, i, placed.descriptors.index(cid)
        return None

    def where(self, cid: str) -> tuple[str, int, int, int | None]:
        """`locate` for a card the rules guarantee is in play (a chosen target, a host)."""
        found = self.locate(cid)
        if found is None:
            raise AssertionError(f"{cid} is not in play")
        return found

    def in_play(self) -> list[tuple[str, int, str]]:
        """Every card in play as (owner, realm index, card id), hosts then their descriptors."""
        out = []
        for owner in self.players:
            for r, realm in enumerate(self.domains[owner]):
                for placed in realm.cards:
                    out.append((owner, r, placed.card))
                    out.extend((owner, r, d) for d in placed.descriptors)
        return out

    def hosts(self, owner: str) -> list[tuple[int, str]]:
        """Cards of a domain a Descriptor can be attached to, as (realm index, card id)."""
        return [(r, p.card) for r, realm in enumerate(self.domains[owner]) for p in realm.cards]

    def count_cards(self) -> int:
        n = len(self.deck) + len(self.discard) + sum(len(h) for h in self.hands.values())
        for realms in self.domains.values():
            for realm in realms:
                n += sum(1 + len(p.descriptors) for p in realm.cards)
        return n


def realm_cards(realm: Realm) -> list[str]:
    return [c for p in realm.cards for c in (p.card, *p.descriptors)]


class MagicRoll(EventData):
    """The d10 on the Magic Table (the renderer draws it as its own panel)."""

    kind: ClassVar[str] = "magic_roll"
    player: str
    face: int
    result: int
    name: str
    effect: str


class Imagined(EventData):
    """Imagination chose another Magic Table result."""

    kind: ClassVar[str] = "imagination"
    player: str
    result: int
