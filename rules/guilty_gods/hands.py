"""Moving cards between a player's deck, hand and piles, with the events that tell it."""

from __future__ import annotations

from rules.core import Event, who
from rules.guilty_gods.state import HAND_SIZE, GgState


def names(s: GgState, cards: list[str]) -> str:
    return ", ".join(s.cards[c].name for c in cards) or "nothing"


def draw(s: GgState, player: str, n: int, events: list[Event], why: str) -> int:
    """Draw up to `n` cards from the top of the deck; returns how many were drawn."""
    seat = s.seats[player]
    got = [seat.deck.pop() for _ in range(min(n, len(seat.deck)))]
    seat.hand += got
    if got:
        events.append(Event(kind="draw", text=(
            f"{who(player)} draws {len(got)} card{'s' * (len(got) > 1)} ({why})."),
            data={"player": player, "count": len(got)}))
        events.append(Event(kind="draw_private", text=f"You draw {names(s, got)}.",
                            data={"player": player, "cards": got}, visible_to=[player]))
    elif n > 0:
        events.append(Event(kind="deck_empty", text=f"{who(player)} has no card left to draw ({why}).",
                            data={"player": player}))
    return len(got)


def draw_up_to_limit(s: GgState, player: str, n: int, events: list[Event], why: str) -> int:
    """Draw `n` cards, but never beyond the 7-card hand."""
    room = max(0, HAND_SIZE - len(s.seats[player].hand))
    if n > room:
        events.append(Event(kind="hand_full", text=(
            f"{who(player)} may hold no more than {HAND_SIZE} cards: {min(n, room)} of {n} drawn."),
            data={"player": player}))
    return draw(s, player, min(n, room), events, why)


def take(s: GgState, player: str, cards: list[str]) -> None:
    """Take these cards (ids, repeated for copies) out of the player's hand."""
    hand = s.seats[player].hand
    for c in cards:
        hand.remove(c)


def refill(s: GgState, player: str, events: list[Event]) -> None:
    """A hand emptied by attacking or defending draws seven at once."""
    if not s.seats[player].hand:
        draw(s, player, HAND_SIZE, events, "their hand is empty")
