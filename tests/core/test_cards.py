from rules.core import Rng, Suit, shuffled_deck, standard_deck


def test_standard_deck_has_52_distinct_cards_without_jokers():
    deck = standard_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    assert {c.suit for c in deck} == set(Suit)
    assert {c.rank for c in deck} == set(range(1, 14))


def test_several_decks_combine():
    deck = standard_deck(decks=2)
    assert len(deck) == 104 and len(set(deck)) == 52


def test_seeded_shuffle_repeats():
    assert shuffled_deck(Rng(seed=3)) == shuffled_deck(Rng(seed=3))
    assert shuffled_deck(Rng(seed=3)) != shuffled_deck(Rng(seed=4))


def test_card_names():
    deck = standard_deck()
    assert deck[0].name == "A♣" and deck[12].name == "K♣"
