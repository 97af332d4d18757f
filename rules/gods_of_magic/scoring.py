"""Scoring realms and domains, and the win check."""

from __future__ import annotations

from rules.gods_of_magic.content import Suit
from rules.gods_of_magic.state import GomState, Realm, realm_cards

COMPLETE_BONUS = 10


def suits_in(state: GomState, realm: Realm) -> set[Suit]:
    return {state.cards[c].suit for c in realm_cards(realm)}


def is_imagination(state: GomState, realm: Realm) -> bool:
    """A realm without a Location: it scores nothing until it gets one again."""
    return not any(state.cards[p.card].suit == Suit.LOCATION for p in realm.cards)


def is_complete(state: GomState, realm: Realm) -> bool:
    return len(suits_in(state, realm)) == len(Suit)


def realm_value(state: GomState, realm: Realm) -> int:
    """Points a realm scores at a Visitation: the sum of its cards, +10 when complete, 0 without a Location."""
    if is_imagination(state, realm):
        return 0
    total = sum(state.cards[c].vp for c in realm_cards(realm))
    return total + (COMPLETE_BONUS if is_complete(state, realm) else 0)


def alteration_gain(state: GomState, owner: str, descriptor: str, host: str) -> int:
    """What an Alteration scores at once: the Descriptor and the card it describes, or nothing
    when that card's realm is a realm of imagination (a realm without a Location scores nothing)."""
    for realm in state.domains[owner]:
        if any(p.card == host for p in realm.cards):
            if is_imagination(state, realm):
                return 0
            return state.cards[descriptor].vp + state.cards[host].vp
    raise ValueError(f"{host} is not in {owner}'s domain")


def domain_value(state: GomState, player: str) -> int:
    return sum(realm_value(state, r) for r in state.domains[player])


def target(state: GomState) -> int:
    return int(state.options.get("target", "200"))


def winners_by_score(state: GomState, candidates: list[str]) -> list[str]:
    """The highest score among `candidates`; an exact tie shares the victory."""
    if not candidates:
        return []
    best = max(state.scores[p] for p in candidates)
    return [p for p in state.players if p in candidates and state.scores[p] == best]


def check_win(state: GomState) -> list[str]:
    """Who has won now (empty: nobody yet): of those at the target or above, the highest score."""
    reached = [p for p in state.players if state.scores[p] >= target(state)]
    return winners_by_score(state, reached)
