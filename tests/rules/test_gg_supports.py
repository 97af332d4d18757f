"""Guilty Gods content: every support skill changes something for some card of its own deck, and
Aizen's Combination joins some pair of Umbra cards of each kind (issue 29, item 9).

The engine itself is asked (combos.spheres, combos.join_cost, combat.effects): a support helps a
card when the move made of that card, with the support played, has other spheres, joins a
neighbour it could not join, or ends with other effects than the same move without it.
"""

from __future__ import annotations

import pytest

from rules.guilty_gods import GAME as G
from rules.guilty_gods.combat import effects
from rules.guilty_gods.combos import join_cost, spheres
from rules.guilty_gods.content import CreatureDef, DeckDef, load_decks
from rules.guilty_gods.state import GgState, Move, Placed, Tally

DECKS = load_decks()


def _state() -> GgState:
    return G.setup(["a", "b"], {"decks": "lilium-umbra"}, 1)


def _neighbours(s: GgState, move: Move, deck: DeckDef) -> set[tuple[str, str]]:
    """(side, card) of every card of the deck, of the move's kind, that can join row card 0."""
    out = set()
    me = move.row[0]
    for other in deck.creatures:
        if other.kind != move.kind:
            continue
        if join_cost(s, move.kind, Placed(card=other.id), me) is not None:
            out.add(("west", other.id))
        if join_cost(s, move.kind, me, Placed(card=other.id)) is not None:
            out.add(("east", other.id))
    return out


def _what_it_does(s: GgState, target: CreatureDef, support: CreatureDef | None,
                  deck: DeckDef) -> tuple[object, ...]:
    """The move of `target` alone (with `support` under it, or beside it for a group support),
    its combat won, every skill it can fire fired: its spheres, its neighbours, its effects."""
    player = "a"
    move = Move(player=player, kind=target.kind, row=[Placed(card=target.id)])
    fired = []
    if support is not None:
        if support.support.scope == "individual":
            move.row[0].support = support.id
            fired.append("sup.0")
        else:
            move.group = support.id
            fired.append("group")
    side = "a" if target.kind == "attack" else "d"
    if side == "a":
        s.attack, s.defense = move, None
    else:
        s.attack = Move(player="b", kind="attack", row=[Placed(card="U15")])
        s.defense = move
    s.tally = Tally(raw=[1], stopped=[True], fired=[f"{side}:{f}" for f in fired])
    fx = effects(s, side)
    fx.sources = []
    return (frozenset(spheres(s, move, 0)), frozenset(_neighbours(s, move, deck)), fx)


def _helped(deck: DeckDef, support: CreatureDef) -> list[str]:
    """The cards of the deck whose move `support` changes."""
    s = _state()
    out = []
    for target in deck.creatures:
        if target.kind != support.kind:
            continue
        if target.id == support.id and support.copies < 2:
            continue  # a single copy cannot support itself
        if _what_it_does(s, target, support, deck) != _what_it_does(s, target, None, deck):
            out.append(target.id)
    return out


SUPPORTS = [(deck_id, c.id) for deck_id, deck in DECKS.items() for c in deck.creatures]


@pytest.mark.parametrize(("deck_id", "cid"), SUPPORTS, ids=[c for _, c in SUPPORTS])
def test_every_support_skill_helps_some_card_of_its_own_deck(deck_id, cid):
    deck = DECKS[deck_id]
    support = next(c for c in deck.creatures if c.id == cid)
    assert _helped(deck, support), (
        f"{support.name}'s support ({support.support.describe()}) changes no {support.kind} card "
        f"of {deck.name}")


def test_an_open_slots_support_helps_exactly_the_cards_with_a_closed_slot():
    """Shade Hound's support opens the closed slots of Umbra's attack cards: it helps those
    cards and no other (issue 29: none had a closed slot, so it helped none)."""
    umbra = DECKS["umbra"]
    hound = next(c for c in umbra.creatures if c.id == "U02")
    assert hound.support.effect.open_slots
    closed = [c.id for c in umbra.creatures if c.kind == "attack"
              and not (c.left.open and c.right.open)]
    assert closed and _helped(umbra, hound) == closed


@pytest.mark.parametrize("kind", ["attack", "defense"])
def test_aizens_combination_joins_some_pair_of_umbra_cards_of_each_kind(kind):
    """Combination opens a closed slot: some two Umbra cards of this kind join only with it."""
    s = _state()
    cards = [c for c in DECKS["umbra"].creatures if c.kind == kind]
    only_with = []
    for west in cards:
        for east in cards:
            if west.id == east.id and west.copies < 2:
                continue
            w, e = Placed(card=west.id), Placed(card=east.id)
            if join_cost(s, kind, w, e) is not None:
                continue
            for p, side in ((w, "right" if kind == "attack" else "left"),
                            (e, "left" if kind == "attack" else "right")):
                opened = p.model_copy(update={"opened": side})
                pair = (opened, e) if p is w else (w, opened)
                if join_cost(s, kind, *pair) is not None:
                    only_with.append((west.id, east.id))
    assert only_with, f"Combination joins no two Umbra {kind} cards"
