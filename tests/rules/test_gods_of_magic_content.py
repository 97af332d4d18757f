"""Gods of Magic content: the shipped deck and a server's content pack (replace, add, remove)."""

from __future__ import annotations

import pytest

from rules.core import ContentError
from rules.core.content import set_content_dir
from rules.gods_of_magic import GAME
from rules.gods_of_magic.content import Suit, clear_cache, load_deck

EXPECTED_SAMPLES = {
    ("location", "Volcano"): 1, ("location", "Asteroid"): 10, ("location", "Rainbow"): 4,
    ("location", "Pyramid"): 10, ("action", "On a Quest"): 10, ("action", "In Love"): 4,
    ("entity", "Queens"): 10, ("entity", "Octopus"): 1, ("descriptor", "Sacred"): 10,
    ("descriptor", "In Winter"): 5, ("object", "Rainbow"): 6, ("object", "Gift"): 10,
}


@pytest.fixture
def pack(tmp_path):
    """A content pack folder; the shipped content again afterwards."""
    base = tmp_path / "gods-of-magic"
    (base / "extra").mkdir(parents=True)
    set_content_dir(tmp_path)
    clear_cache()
    yield base
    set_content_dir(None)
    clear_cache()


def test_shipped_deck_has_five_suits_of_forty_with_the_rulebook_values():
    deck = load_deck()
    assert len(deck) == 200 and len({c.id for c in deck}) == 200
    for suit in Suit:
        cards = [c for c in deck if c.suit == suit]
        assert len(cards) == 40
        # each suit runs 1..10 four times
        assert sorted(c.vp for c in cards) == sorted(list(range(1, 11)) * 4)
    found = {(c.suit.value, c.name): c.vp for c in deck}
    for key, vp in EXPECTED_SAMPLES.items():
        assert found[key] == vp, key
    assert [c.id for c in deck if c.name == "Rainbow"] == ["L24", "O36"]


def test_pack_adds_and_removes_cards(pack):
    (pack / "extra" / "wands.yaml").write_text(
        "remove: [L01, O01]\nadd:\n  - {id: X01, suit: object, name: Wand, vp: 5}\n", encoding="utf-8")
    deck = load_deck()
    ids = {c.id for c in deck}
    assert len(deck) == 199 and "X01" in ids and "L01" not in ids
    s = GAME.setup(["a", "b"], {}, 3)
    assert len(s.cards) == 199 and s.count_cards() == 199
    GAME.check_invariants(s)


def test_pack_replaces_the_deck(pack):
    lines = ["cards:"] + [f"  - {{id: C{i:02d}, suit: {s.value}, name: Card {i}, vp: {i % 10 + 1}}}"
                          for i, s in enumerate(list(Suit) * 12)]
    (pack / "deck.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    s = GAME.setup(["a", "b"], {}, 3)
    assert len(s.cards) == 60 and s.count_cards() == 60


@pytest.mark.parametrize("text,where", [
    ("add:\n  - {id: X01, suit: potion, name: Wand, vp: 5}\n", "add.0.suit"),
    ("add:\n  - {id: X01, suit: object, name: Wand}\n", "add.0.vp"),
    ("add:\n  - {id: L01, suit: object, name: Wand, vp: 3}\n", "add.0.id"),
    ("remove: [L01, NOPE]\n", "remove.1"),
    ("colour: red\n", "colour"),
])
def test_pack_errors_name_the_file_entry_and_field(pack, text, where):
    (pack / "extra" / "bad.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_deck()
    assert "bad.yaml" in str(err.value) and where in str(err.value)
