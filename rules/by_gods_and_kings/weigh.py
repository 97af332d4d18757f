"""How the automatic player scores a card played onto a character's Field, worked out from small
tables instead of building each Field it weighs.

A play's score is 100 for every ability the new Field fires, 5 for every point of the new
Field's potential (pairs of cards that could belong to one hand) and the card's value
(policy.py keeps the long way, `_weigh_plays`, which a test compares with this one). Neither
the hands a Field holds nor its potential depends on the order of its cards, so the Field
after a push-off is never built: the pairs of the cards kept are added up from the pairs of
the old Field and of the card played.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import repeat

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.content import Catalogue
from rules.by_gods_and_kings.memo import catalogue_memo


@cache
def pair(a: str, b: str) -> int:
    """What two Field cards add to its potential (once per two codes): 2 with an Ace, else 1
    for the same suit and 1 for ranks at most two apart."""
    if cards.is_ace(a) or cards.is_ace(b):
        return 2
    score = 0
    if cards.suit(a) == cards.suit(b):
        score += 1
    if cards.rank(a) == cards.rank(b) or abs(cards.rank(a) - cards.rank(b)) <= 2:
        score += 1
    return score


def trigger_counts(cat: Catalogue, equipped: tuple[str, ...]) -> tuple[int, int, int]:
    """How many abilities of these shards a Flush, a Straight and a Three of a Kind fire
    (remembered per catalogue for the equipped shards)."""
    memo = catalogue_memo(cat, "trigger_counts")
    found = memo.get(equipped)
    if found is None:
        triggers = [a.trigger for sid in equipped for a in cat.shards[sid].abilities]
        found = memo[equipped] = tuple(triggers.count(k) for k in cards.HAND_KINDS)
    return found


def may_fire(pairs: Sequence[int]) -> bool:
    """Whether a full Field may hold a hand, from the `pair` of each two of its cards: a hand
    makes every two of its cards a pair (an Ace, the same suit, or ranks at most two apart),
    so a Field with a pair worth 0 holds none (and `fired` is 0 without looking it up)."""
    return all(pairs)


def fired(counts: tuple[int, int, int], field: tuple[str, str, str]) -> int:
    """How many abilities a full Field fires, given `trigger_counts` (the hands of the Field,
    as `cards.hands` finds them, each firing its count). The hands are looked up for the
    Field's cards in sorted order: one entry for every order of the same three cards."""
    kinds = cards.sorted_hands(field)
    if not kinds:
        return 0
    flush, straight, three = counts
    return ("flush" in kinds) * flush + ("straight" in kinds) * straight + ("three" in kinds) * three


def plays(cat: Catalogue, numb: bool, equipped: tuple[str, ...], field: tuple[str, ...],
          card: str) -> tuple[tuple[int, str], ...]:
    """(score, the Field card pushed off or 'none') for each way of playing `card` onto
    `field`, in the order of `policy._weigh_plays`: 'none' when the Field has room, else each
    different card of the Field in its order. A numb character's Field fires nothing."""
    value = cards.value(card)
    if len(field) < cards.FIELD_SIZE:
        new = (*field, card)
        pairs = [pair(a, b) for i, a in enumerate(new) for b in new[i + 1:]]
        shots = 0
        if len(new) == cards.FIELD_SIZE and not numb and may_fire(pairs):
            shots = fired(trigger_counts(cat, equipped), new)  # type: ignore[arg-type]
        return ((shots * 100 + sum(pairs) * 5 + value, "none"),)
    counts = None if numb else trigger_counts(cat, equipped)
    a, b, c = field
    with_card = (pair(a, card), pair(b, card), pair(c, card))
    kept_pairs = (pair(b, c), pair(a, c), pair(a, b))  # the pair left when a, b or c goes
    out = []
    seen = set()
    for i, gone in enumerate(field):
        if gone in seen:
            continue
        seen.add(gone)
        potential = kept_pairs[i] + sum(with_card) - with_card[i]
        kept = (field[1], field[2]) if i == 0 else ((field[0], field[2]) if i == 1 else (field[0], field[1]))
        shots = 0
        if counts is not None and may_fire(_left(kept_pairs, with_card, i)):
            shots = fired(counts, (*kept, card))
        out.append((shots * 100 + potential * 5 + value, gone))
    return tuple(out)


_KEPT = ((1, 2), (0, 2), (0, 1))
"""The places of the two cards a full Field keeps when its first, second or third goes."""


def _left(kept_pairs: Sequence[int], with_card: Sequence[int], gone: int) -> tuple[int, int, int]:
    """The pairs of the Field left when its card `gone` (a place) is pushed off for the card
    played: the two cards kept, and each of them with the card played."""
    j, k = _KEPT[gone]
    return kept_pairs[gone], with_card[j], with_card[k]


def best_card(cat: Catalogue, numb: bool, equipped: tuple[str, ...], field: list[str],
              offered: list[str]) -> str:
    """The first card of `offered` whose best play (`plays`) scores highest. The pairs within
    the Field and what its push-offs leave are worked out once for all the cards; faster than
    looking each card's plays up in a table, which most cards miss."""
    counts = None if numb else trigger_counts(cat, equipped)
    best, top = offered[0], -1
    if len(field) < cards.FIELD_SIZE:
        own = sum([pair(a, b) for i, a in enumerate(field) for b in field[i + 1:]])
        fills = len(field) == cards.FIELD_SIZE - 1 and counts is not None
        for card in offered:
            pairs = list(map(pair, field, repeat(card)))  # each Field card with it
            potential = own + sum(pairs)
            shots = 0
            if fills and own and all(pairs):  # may_fire: every two cards of the new Field a pair
                shots = fired(counts, (*field, card))  # type: ignore[arg-type]
            score = shots * 100 + potential * 5 + cards.value(card)
            if score > top:
                best, top = card, score
        return best
    a, b, c = field
    kept = ((b, c), (a, c), (a, b))  # what pushing off a, b or c leaves
    kept_pairs = (pair(b, c), pair(a, c), pair(a, b))
    outs = [i for i, gone in enumerate(field) if gone not in field[:i]]
    for card in offered:
        with_card = (pair(a, card), pair(b, card), pair(c, card))
        together = with_card[0] + with_card[1] + with_card[2]
        value = cards.value(card)
        for i in outs:
            shots = 0
            j, k = _KEPT[i]  # may_fire(_left(kept_pairs, with_card, i)), written out
            if counts is not None and kept_pairs[i] and with_card[j] and with_card[k]:
                shots = fired(counts, (*kept[i], card))
            score = shots * 100 + (kept_pairs[i] + together - with_card[i]) * 5 + value
            if score > top:
                best, top = card, score
    return best
