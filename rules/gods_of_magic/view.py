"""What a player (or a spectator) sees: its own models, built from the state's public parts."""

from __future__ import annotations

from pydantic import BaseModel, Field

from rules.core import who
from rules.core.text import count
from rules.gods_of_magic.content import CardDef
from rules.gods_of_magic.scoring import is_complete, is_imagination, realm_value, target
from rules.gods_of_magic.state import MAGIC_NAMES, MAGIC_TEXT, GomState, Realm


class PlacedView(BaseModel):
    card: CardDef
    descriptors: list[CardDef] = Field(default_factory=list)


class RealmView(BaseModel):
    number: int
    cards: list[PlacedView]
    value: int
    """What it would score at a Visitation now."""
    complete: bool
    imagination: bool


class SeatView(BaseModel):
    player: str
    score: int
    hand_size: int
    realms: list[RealmView]
    setup_done: bool = False


class DiceView(BaseModel):
    player: str
    face: int
    result: int
    name: str
    text: str


class ObjectionView(BaseModel):
    mover: str
    text: str
    objections: int
    stands: int
    voters: list[str]


class GomView(BaseModel):
    viewer: str | None
    seats: list[SeatView]
    deck_count: int
    discard_count: int
    discard_top: CardDef | None
    phase: str
    step: str
    turn: int
    current: str | None
    to_act: list[str]
    prompt: str
    """What the game waits for, in a line."""
    dice: DiceView | None
    target: int
    storytelling: str
    reshuffled: bool
    pending_public: list[CardDef] = Field(default_factory=list)
    """A card in play already chosen as the target of the current move (not a Transformation's
    target: that choice tells a suit of the mover's hand, see `pending_private`)."""
    objection: ObjectionView | None = None
    winners: list[str] | None = None
    end_reason: str = ""
    hand: list[CardDef] | None = None
    """Only in a player's own view."""
    pending_private: list[CardDef] = Field(default_factory=list)
    """A card from the viewer's hand chosen for the current move, or the target of their
    Transformation (own view only)."""


def realm_view(s: GomState, n: int, realm: Realm) -> RealmView:
    return RealmView(
        number=n, value=realm_value(s, realm), complete=is_complete(s, realm),
        imagination=is_imagination(s, realm),
        cards=[PlacedView(card=s.cards[p.card], descriptors=[s.cards[d] for d in p.descriptors])
               for p in realm.cards])


def prompt(s: GomState, to_act: list[str]) -> str:
    p = who(s.player)
    if s.phase == "over":
        return "The game is over."
    if s.objection is not None:
        return f"The other gods may object to {who(s.objection.mover)}'s story."
    if s.phase == "setup":
        return "Every god places up to 3 starting cards: " + ", ".join(who(x) for x in to_act) + " still placing."
    if s.phase == "discard":
        return f"{p} discards down to 10 cards."
    if s.phase == "play":
        return f"{p} plays a card (Play phase)."
    if s.phase == "roll":
        return f"{p} rolls the d10 (Dice phase)."
    if s.phase == "owner_draw":
        assert s.owner_draw is not None, "an owner_draw phase names the owner"
        return f"{who(s.owner_draw)} may draw a card for the one destroyed."
    r = s.dice.result if s.dice else 10
    text = f"{p} resolves {MAGIC_NAMES[r]}: {MAGIC_TEXT[r]}"
    if s.step == "recombine":  # hand sizes are public: so is what is left to balance
        surplus = len(s.hands[s.player]) - s.recombine_hand
        if surplus > 0:
            text += f" {count(surplus, 'card')} still to put back from the hand."
        elif surplus < 0:
            text += f" {count(-surplus, 'card')} to take back into the hand before finishing."
        else:
            text += " The hand is back to its size: finish when the realms are ready."
    return text


def build_view(s: GomState, viewer: str | None, to_act: list[str]) -> GomView:
    dice = None
    if s.dice is not None:
        dice = DiceView(player=s.dice.player, face=s.dice.face, result=s.dice.result,
                        name=MAGIC_NAMES[s.dice.result], text=MAGIC_TEXT[s.dice.result])
    hand = [s.cards[c] for c in s.hands[viewer]] if viewer is not None and viewer in s.hands else None
    own = hand is not None
    mover = own and viewer in to_act and viewer == s.player
    # a Transformation's target is chosen among the cards sharing a suit with the hand: until
    # the card is replaced, only the mover is shown that choice (with their hand)
    secret = s.step == "transform"
    public_pending = [s.cards[c] for c in s.pending if s.locate(c) is not None and not secret]
    private_pending = [s.cards[c] for c in s.pending if s.locate(c) is None or secret] if mover else []
    obj = None
    if s.objection is not None:
        o = s.objection
        obj = ObjectionView(mover=o.mover, text=o.text, objections=len(o.objections),
                            stands=len(o.stands), voters=o.voters)
    return GomView(
        viewer=viewer,
        seats=[SeatView(player=p, score=s.scores[p], hand_size=len(s.hands[p]),
                        realms=[realm_view(s, i + 1, r) for i, r in enumerate(s.domains[p])],
                        setup_done=p in s.setup_done) for p in s.players],
        deck_count=len(s.deck), discard_count=len(s.discard),
        discard_top=s.cards[s.discard[-1]] if s.discard else None,
        phase=s.phase, step=s.step, turn=s.turn,
        current=s.player if s.phase not in ("setup", "over") else None,
        to_act=to_act, prompt=prompt(s, to_act), dice=dice, target=target(s),
        storytelling=s.options.get("storytelling", "off"), reshuffled=s.reshuffled,
        pending_public=public_pending, objection=obj, winners=s.winners, end_reason=s.end_reason,
        hand=hand,
        pending_private=private_pending,
    )
