"""By Gods and Kings: card values, the three hands with Aces wild, the deck count, equipment
(the Rusty Sword example, two hands, the off hand) and shard bonuses (the Shard of the Maji)."""

from __future__ import annotations

import pytest

from rules.by_gods_and_kings import GAME as G
from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.catalogue import cached_catalogue
from rules.by_gods_and_kings.content import Stats
from rules.by_gods_and_kings.gear import (
    WEAPON_RULES,
    Loadout,
    attack_stats,
    gear_stats,
    loadout_problem,
)
from rules.by_gods_and_kings.stats import sheet


@pytest.mark.parametrize("field,expected", [
    (["2h", "7h", "Kh"], ["flush"]),
    (["4c", "5d", "6h"], ["straight"]),
    (["Jc", "Qd", "Kh"], ["straight"]),
    (["7c", "7d", "7h"], ["three"]),
    (["4h", "5h", "6h"], ["flush", "straight"]),
    (["As", "7h", "9h"], ["flush", "straight"]),      # the Ace is the 8 of hearts
    (["Qd", "Kh", "As"], ["straight"]),               # the Ace is a Jack
    (["Ac", "2d", "3h"], ["straight"]),               # or simply the 1
    (["7c", "7d", "As"], ["three"]),
    (["Ac", "Kd", "As"], ["flush", "straight", "three"]),
    (["As", "Ad", "Ah"], ["flush", "straight", "three"]),
    (["Kh", "Ad", "2c"], []),                         # no wrapping past the King
    (["2c", "9d", "Jh"], []),
    (["5c", "5d", "6d"], []),
    (["2h", "7h"], []),                               # a hand needs three cards
    ([], []),
])
def test_hands_with_aces_wild(field, expected):
    assert cards.hands(field) == expected


def test_card_values_picks_and_names():
    assert [cards.value(c) for c in ("Ah", "2c", "10d", "Js", "Qh", "Kc")] == [1, 2, 10, 10, 10, 10]
    assert [cards.pick(c) for c in ("Ah", "10d", "Js", "Qh", "Kc")] == [1, 10, 11, 12, 13]
    assert cards.name("10d") == "10♦" and cards.name("Ks") == "K♠"
    assert cards.total(["6c", "Kh"]) == 16
    assert all(cards.valid(c) for c in cards.full_deck(1)) and len(set(cards.full_deck(1))) == 52


@pytest.mark.parametrize("characters,decks", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (7, 4), (8, 4)])
def test_one_deck_for_every_two_characters(characters, decks):
    assert cards.decks_for(characters) == decks
    s = G.setup(["p0"], {"party": str(characters)}, 3)
    assert s.decks == decks and len(s.party) == characters
    assert s.count_cards() == 52 * decks
    assert sorted(s.deck + s.discard + [c for h in s.party for c in h.hand + h.field]) == \
        sorted(cards.full_deck(decks))


def test_the_ace_counts_one_as_damage():
    from tests.rules.test_by_gods_and_kings import battle_state, begin, skip_opening, take, top

    s = battle_state(["kobold-chieftain"], party=1)
    skip_opening(s)
    gilbert = s.party[0]
    top(s, "2c")
    gilbert.hand = [take(s, "Ad")]
    begin(s, "c0")
    s = G.apply(s, "p0", "play.card:Ad").state
    chief = s.foes[0]
    before = chief.hp
    armor = sheet(s, chief).defense
    s = G.apply(s, "p0", "atk:e0").state
    # 1 (the Ace) + Physical 8 = 9, minus half the Chieftain's DEF
    assert before - s.foes[0].hp == 9 - armor // 2


# --- equipment ---------------------------------------------------------------------------------
def test_rusty_sword_in_the_off_hand_gives_half_its_stats_rounded_down():
    cat = cached_catalogue()
    sword = cat.items["rusty-sword"]
    assert (sword.stats.physical, sword.stats.magic) == (4, 1)
    assert sword.stats.halved() == Stats(physical=2, magic=0)
    one = gear_stats(cat, Loadout(main="rusty-sword"))
    two = gear_stats(cat, Loadout(main="rusty-sword", off="rusty-sword"))
    assert (one.physical, one.magic) == (4, 1)
    assert (two.physical - one.physical, two.magic - one.magic) == (2, 0)
    assert two.spd == one.spd == WEAPON_RULES["sword"].speed


def test_the_off_hand_needs_a_one_handed_weapon_and_a_shard_for_weapons_and_items():
    cat = cached_catalogue()
    dual = Loadout(main="rusty-sword", off="skinning-knife")
    assert "shard" in (loadout_problem(cat, dual, []) or "")
    assert loadout_problem(cat, dual, ["twin-fangs"]) is None
    focus = Loadout(main="oak-club", off="spell-focus")
    assert loadout_problem(cat, focus, []) is not None
    assert loadout_problem(cat, focus, ["twin-fangs"]) is None
    assert loadout_problem(cat, Loadout(main="iron-spear", off="kite-shield"), []) is None
    for two_handed in ("woodcutter-axe", "old-greatsword", "hunting-bow", "apprentice-staff", "bone-scythe"):
        assert "one-handed" in (loadout_problem(cat, Loadout(main=two_handed, off="wooden-buckler"), []) or "")
        assert loadout_problem(cat, Loadout(main="rusty-sword", off=two_handed), ["twin-fangs"]) is not None
    assert loadout_problem(cat, Loadout(main="chain-shirt"), []) is not None


def test_off_hand_equipment_never_changes_spd_and_never_sets_the_attack_bonus():
    cat = cached_catalogue()
    knife_off = gear_stats(cat, Loadout(main="rusty-sword", off="skinning-knife"))
    assert knife_off.spd == 0, "the dagger's speed counts only in the main hand"
    assert attack_stats(cat, Loadout(main="rusty-sword", off="skinning-knife")) == ["physical"]
    assert attack_stats(cat, Loadout(main="skinning-knife", off="rusty-sword")) == ["physical", "magic"]
    assert attack_stats(cat, Loadout(main="oak-club")) == ["magic"]
    assert attack_stats(cat, Loadout()) == ["physical"]


def test_weapon_types_follow_the_rulebook():
    rules = WEAPON_RULES
    assert len(rules) == 10
    assert {k for k, r in rules.items() if r.bonus == "physical"} == {"sword", "spear", "axe", "greatsword"}
    assert {k for k, r in rules.items() if r.bonus == "magic"} == {"runeblade", "scythe", "club", "staff"}
    assert {k for k, r in rules.items() if r.bonus == "either"} == {"bow", "dagger"}
    assert max(rules, key=lambda k: rules[k].speed) == "dagger"
    assert min(rules, key=lambda k: rules[k].speed) == "axe"
    assert rules["staff"].speed < rules["scythe"].speed <= rules["greatsword"].speed < rules["spear"].speed
    assert rules["spear"].speed < rules["sword"].speed < rules["runeblade"].speed < rules["club"].speed
    cat = cached_catalogue()
    assert {i.type for i in cat.items.values() if i.slot == "weapon"} == set(rules)


def test_the_shard_of_the_maji_needs_another_characters_elemental_shard():
    s = G.setup(["p0"], {"party": "3"}, 1)
    gilbert, pierre, helga = s.party
    assert sheet(s, helga).magic == 14, "the rulebook's Helga: Magic 14"
    gilbert.equipped = ["bulwark"]
    pierre.equipped = ["cunning"]
    assert sheet(s, helga).magic == 11
    pierre.equipped = ["storms"]
    assert sheet(s, helga).magic == 14
    alone = G.setup(["p0"], {"party": "1"}, 1)
    alone.party[0].shards.append("maji")
    alone.party[0].equipped.append("maji")
    assert sheet(alone, alone.party[0]).magic == 2 + 1, "its own elemental shard does not count"


def test_the_rulebooks_characters():
    s = G.setup(["p0"], {"party": "3"}, 1)
    gilbert, pierre, helga = (sheet(s, h) for h in s.party)
    assert gilbert.spd == 11 and pierre.defense == 7 and helga.magic == 14
