"""Primitive changes shared by every phase: drawing, placing, removing and moving cards."""

from __future__ import annotations

from collections.abc import Iterator

from rules.core import Action, Event, who
from rules.core.text import count
from rules.gods_of_magic.content import Suit, short_names
from rules.gods_of_magic.copying import own_realm
from rules.gods_of_magic.state import GomState, Placed, Realm


def label(s: GomState, cid: str) -> str:
    """A card's short name ('Rainbow (L4)'), from the table of its deck version."""
    return short_names(s.content)[cid]


def draw(s: GomState, player: str, n: int, events: list[Event], why: str) -> list[str]:
    """Draw up to n cards into a hand. An empty deck is rebuilt once from the discard pile;
    after that a draw that finds no card marks the game exhausted (it ends with a final scoring)."""
    got: list[str] = []
    for _ in range(n):
        if not s.deck:
            if not s.reshuffled and s.discard:
                s.deck = s.rng.shuffled(s.discard)
                s.discard = []
                s.reshuffled = True
                events.append(Event(kind="reshuffle", text=(
                    f"The deck is empty: the discard pile is shuffled into a new deck "
                    f"({len(s.deck)} cards). This happens only once.")))
            else:
                s.exhausted = True
                events.append(Event(kind="exhausted", text=(
                    "No card is left to draw: the gods hold a last Visitation and the game ends.")))
                break
        cid = s.deck.pop()
        s.hands[player].append(cid)
        got.append(cid)
    if got:
        names = ", ".join(label(s, c) for c in got)
        events.append(Event(kind="draw_private", text=f"You draw {names} ({why}).",
                            data={"player": player, "cards": got}, visible_to=[player]))
        events.append(Event(kind="draw", text=f"{who(player)} draws {count(len(got), 'card')} ({why}).",
                            data={"player": player, "count": len(got)}))
    return got


def can_draw(s: GomState) -> bool:
    return bool(s.deck) or (not s.reshuffled and bool(s.discard))


def placement_targets(s: GomState, player: str, cid: str, new_realm: bool = True,
                      skip_realm: int | None = None, skip_host: str | None = None) -> list[tuple[str, str]]:
    """Where a card can go in `player`'s domain: (place, label) pairs, the place being `new`,
    `r<n>` (realm n, from 0) or `on.<host>`.

    A Location may start a new realm (when `new_realm`) or join a realm; a Descriptor attaches
    to a card (not a Descriptor); any other card joins a realm."""
    name = label(s, cid)
    out: list[tuple[str, str]] = []
    for where, r, host in places(s, player, cid, new_realm, skip_realm, skip_host):
        if host is not None:
            out.append((where, f"Attach {name} to {label(s, host)}, realm {r + 1}"))
        elif where == "new":
            out.append((where, f"Start a new realm with {name}"))
        else:
            out.append((where, f"Add {name} to realm {r + 1}"))
    return out


def places(s: GomState, player: str, cid: str, new_realm: bool = True, skip_realm: int | None = None,
           skip_host: str | None = None) -> Iterator[tuple[str, int, str | None]]:
    """The places of `placement_targets`, in the same order and without their labels, one at a
    time: (place, realm index, host or None). A new realm has the index -1."""
    suit = s.suit(cid)
    if suit == Suit.DESCRIPTOR:
        for r, realm in enumerate(s.domains[player]):
            for p in realm.cards:
                if p.card != skip_host:
                    yield f"on.{p.card}", r, p.card
        return
    if suit == Suit.LOCATION and new_realm:
        yield "new", -1, None
    for r in range(len(s.domains[player])):
        if r != skip_realm:
            yield f"r{r}", r, None


def can_place(s: GomState, player: str, cid: str) -> bool:
    """Whether a hand card has any place in `player`'s domain (no label is written)."""
    return next(places(s, player, cid), None) is not None


def place(s: GomState, player: str, cid: str, where: str) -> int:
    """Put a card (not in play any more) at `where` (`new`, `r<n>`, `on.<host>`); returns the realm index."""
    if where == "new":
        s.domains[player].append(Realm(cards=[Placed(card=cid)]))
        return len(s.domains[player]) - 1
    if where.startswith("on."):
        owner, r, i, _ = s.where(where[3:])
        own_realm(s, owner, r).cards[i].descriptors.append(cid)
        return r
    r = realm_index(where)
    own_realm(s, player, r).cards.append(Placed(card=cid))
    return r


def realm_index(where: str) -> int:
    """The realm of a place `r<n>`."""
    assert where.startswith("r"), f"{where!r} is not a realm"
    return int(where[1:])


def play_from_hand(s: GomState, player: str, cid: str, where: str) -> int:
    s.hands[player].remove(cid)
    return place(s, player, cid, where)


def lift(s: GomState, cid: str) -> tuple[str, int, Placed | None]:
    """Take a card out of play (a host keeps its Descriptors in the returned Placed);
    returns (owner, realm index, placed or None for a lone Descriptor). Empty realms stay."""
    owner, r, i, d = s.where(cid)
    realm = own_realm(s, owner, r)
    if d is not None:
        realm.cards[i].descriptors.pop(d)
        return owner, r, None
    return owner, r, realm.cards.pop(i)


def purge(s: GomState, owner: str) -> None:
    """Remove realms left without any card."""
    s.domains[owner] = [r for r in s.domains[owner] if r.cards]


def in_play_label(s: GomState, owner: str, r: int, cid: str) -> str:
    """A card in play, with where it is."""
    return f"{label(s, cid)} · {who(owner)} realm {r + 1}"


def target_actions(s: GomState, prefix: str, cards: list[tuple[str, int, str]], group: str) -> list[Action]:
    """Select-menu actions naming cards in play (public information)."""
    return [Action(key=f"{prefix}:{cid}", label=in_play_label(s, owner, r, cid), group=group)
            for owner, r, cid in cards]
