"""Guilty Gods content: the shipped decks, and validation errors that name file, entry and field."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from rules.core import ContentError
from rules.core.content import SHIPPED, set_content_dir
from rules.guilty_gods import GuiltyGods
from rules.guilty_gods.content import DECK_SIZE, clear_cache, load_decks

RULEBOOK_SUMMONERS = {
    "lilium": {
        "sarah": ("Sarah", [("seals_for_damage", 0, 1)]),
        "kairos": ("Kairos", [("draw", 0, 1)]),
        "astraega": ("Astraega", [("chain", 2, 1), ("protection", 2, 1)]),
    },
    "umbra": {
        "aizen": ("Aizen", [("combination", 3, 1), ("chain", 2, 1)]),
        "ophiel": ("Ophiel", [("extra_damage", 0, 1)]),
        "genma": ("Genma", [("seal_when_low", 0, 1)]),
    },
}


@pytest.fixture
def pack(tmp_path):
    """A content pack folder for Guilty Gods; the shipped content again afterwards."""
    base = tmp_path / "guilty-gods"
    base.mkdir()
    set_content_dir(tmp_path)
    clear_cache()
    yield base
    set_content_dir(None)
    clear_cache()


def shipped(deck: str) -> dict:
    return yaml.safe_load((SHIPPED / "guilty-gods" / f"{deck}.yaml").read_text(encoding="utf-8"))


def write(base: Path, name: str, data: dict) -> None:
    (base / f"{name}.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def test_two_shipped_decks_of_52_with_both_kinds_and_levels_that_thin_out():
    decks = load_decks()
    assert sorted(decks) == ["lilium", "umbra"]
    for deck in decks.values():
        assert len(deck.cards()) == DECK_SIZE
        kinds = {c.kind for c in deck.creatures}
        assert kinds == {"attack", "defense"}
        copies_by_level: dict[int, set[int]] = {}
        for c in deck.creatures:
            copies_by_level.setdefault(c.level, set()).add(c.copies)
        levels = sorted(copies_by_level)
        for low, high in zip(levels, levels[1:], strict=False):
            assert min(copies_by_level[low]) > max(copies_by_level[high])
        for c in deck.creatures:
            assert c.support is not None and c.sphere_marks


def test_summoners_are_the_rulebooks_six_with_their_costs():
    decks = load_decks()
    for deck_id, expected in RULEBOOK_SUMMONERS.items():
        got = {x.id: (x.name, [(p.power, p.cost, p.amount) for p in x.powers])
               for x in decks[deck_id].summoners}
        assert got == expected
    genma = next(x for x in decks["umbra"].summoners if x.id == "genma")
    assert genma.powers[0].threshold == 6


def test_the_archiquimera_is_an_umbra_attack_card_with_a_group_support_skill_for_one_seal():
    arch = next(c for c in load_decks()["umbra"].creatures if c.name == "Archiquimera")
    assert arch.kind == "attack"
    assert arch.support.scope == "group" and arch.support.cost == 1 and not arch.support.automatic


def _effect_total(deck, field: str) -> int:
    total = 0
    for c in deck.creatures:
        for skill in (c.skill, c.support):
            if skill is not None:
                total += getattr(skill.effect, field) * c.copies
    return total


def test_lilium_leans_on_recovery_and_umbra_on_attack_and_combos():
    decks = load_decks()
    lil, umb = decks["lilium"], decks["umbra"]
    assert _effect_total(lil, "heal") > 3 * max(1, _effect_total(umb, "heal"))
    assert _effect_total(lil, "heal") + _effect_total(lil, "prevent") > \
        _effect_total(umb, "heal") + _effect_total(umb, "prevent")
    attack = {d.name: sum(c.copies for c in d.creatures if c.kind == "attack") for d in (lil, umb)}
    assert attack["Umbra"] > attack["Lilium"]
    assert _effect_total(umb, "damage") > _effect_total(lil, "damage")

    def free_slots(deck) -> int:
        return sum(c.copies * ((c.left.open and c.left.cost == 0) + (c.right.open and c.right.cost == 0))
                   for c in deck.creatures)

    assert free_slots(umb) > free_slots(lil)


def test_defense_cards_print_their_spheres_reversed():
    cards = {c.id: c for d in load_decks().values() for c in d.creatures}
    four_a = next(c for c in cards.values() if c.kind == "attack" and len(c.spheres) == 4)
    four_d = next(c for c in cards.values() if c.kind == "defense" and len(c.spheres) == 4)
    assert four_a.printed_spheres == ["physical", "magical", "supernatural", "divine"]
    assert four_d.printed_spheres == ["divine", "supernatural", "magical", "physical"]


def test_a_pack_may_replace_a_deck_and_add_a_third(pack):
    umbra = shipped("umbra")
    third = copy.deepcopy(umbra)
    third["name"] = "Ignis"
    for i, c in enumerate(third["creatures"]):
        c["id"] = f"I{i:02d}"
    for x in third["summoners"]:
        x["id"] = "ig-" + x["id"]
    write(pack, "ignis", third)
    decks = load_decks()
    assert sorted(decks) == ["ignis", "lilium", "umbra"]
    game = GuiltyGods()
    values = {c.value for c in game.options[0].choices}
    assert {"roll", "ignis-lilium", "lilium-ignis", "umbra-ignis"} <= values
    s = game.setup(["a", "b"], {"decks": "ignis-umbra"}, 3)
    assert s.seats["a"].deck_id == "ignis"
    game.check_invariants(s)


def _bad_cases() -> list[tuple[str, str, object, str]]:
    """(deck, path to change, new value, what the error must name)."""
    return [
        ("lilium", "creatures.2.kind", "spell", "creatures.2.kind"),
        ("lilium", "creatures.0.spheres", ["physical", "fire"], "creatures.0.spheres.1"),
        ("lilium", "creatures.0.left", "ajar", "creatures.0.left"),
        ("lilium", "creatures.3.support.scope", "everyone", "creatures.3.support.scope"),
        ("lilium", "creatures.4.support.cost", "N", "creatures.4.support"),  # N on a group support
        ("lilium", "creatures.1.skill.effect", {"heal": 1, "fly": 2}, "creatures.1.skill.effect.fly"),
        ("umbra", "creatures.0.support.effect", {"prevent": 1}, "creatures.0"),  # prevent on attack
        ("umbra", "creatures.0.copies", 6, "the copies add up to 53"),
        ("umbra", "creatures.14.copies", 2, "creatures.14 (U15, level 5) has 2 copies"),
        ("umbra", "creatures.1.id", "U01", "creatures.1.id: 'U01' is already used by creatures.0"),
        ("umbra", "summoners", [], "summoners"),
        ("umbra", "colour", "black", "colour"),
    ]


def _set(data: dict, path: str, value: object) -> None:
    parts = path.split(".")
    node: object = data
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]  # type: ignore[index]
    last = parts[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        assert isinstance(node, dict)
        node[last] = value


@pytest.mark.parametrize("deck,path,value,named", _bad_cases(),
                         ids=[f"{c[0]}-{c[1]}" for c in _bad_cases()])
def test_content_errors_name_the_file_entry_and_field(pack, deck, path, value, named):
    data = shipped(deck)
    _set(data, path, value)
    write(pack, deck, data)
    with pytest.raises(ContentError) as err:
        load_decks()
    message = str(err.value)
    assert f"{deck}.yaml" in message and named in message, message


def test_ids_must_be_unique_across_decks_and_file_names_are_ids(pack):
    lil = shipped("lilium")
    lil["creatures"][0]["id"] = "U01"
    write(pack, "lilium", lil)
    with pytest.raises(ContentError, match=r"lilium.yaml.*creatures.0.id.*'U01'|umbra.yaml.*U01"):
        load_decks()
    (pack / "lilium.yaml").unlink()
    write(pack, "Bad-Name", shipped("umbra"))
    with pytest.raises(ContentError, match="Bad-Name.yaml"):
        load_decks()
