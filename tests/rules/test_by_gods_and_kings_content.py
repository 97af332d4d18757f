"""By Gods and Kings content: the shipped set, and validation errors that name file, entry and field."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from rules.by_gods_and_kings import GAME as G
from rules.by_gods_and_kings import ByGodsAndKings
from rules.by_gods_and_kings.catalogue import CATALOGUES, load_catalogue
from rules.by_gods_and_kings.content import RANK_ABILITIES, BattleStep, SaveStep
from rules.core import ContentError
from rules.core.content import SHIPPED

GAME_DIR = "by-gods-and-kings"


def shipped(name: str) -> Any:
    return yaml.safe_load((SHIPPED / GAME_DIR / name).read_text(encoding="utf-8"))


def write(base: Path, name: str, data: Any) -> None:
    (base / name).write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def broken(pack: Path, name: str, change) -> str:
    data = copy.deepcopy(shipped(name))
    change(data)
    write(pack, name, data)
    with pytest.raises(ContentError) as err:
        load_catalogue()
    return str(err.value)


# --- the shipped content ------------------------------------------------------------------------
def test_the_shipped_content():
    cat = load_catalogue()
    assert {s.kind for s in cat.shards.values()} == {"shielding", "restorative", "manipulation",
                                                    "damaging", "elemental"}
    assert cat.shards["cunning"].name == "Shard of Cunning"
    assert cat.shards["maji"].name == "Shard of the Maji" and cat.shards["maji"].bonuses[0].ally_shard
    assert {i.type for i in cat.items.values() if i.slot == "weapon"} == {
        "sword", "spear", "axe", "greatsword", "runeblade", "scythe", "club", "staff", "bow", "dagger"}
    rusty = cat.items["rusty-sword"]
    assert (rusty.type, rusty.stats.physical, rusty.stats.magic) == ("sword", 4, 1)
    assert {i.slot for i in cat.items.values()} == {"weapon", "body", "head", "shield", "offhand"}
    kobold = cat.enemies["kobold"]
    assert kobold.rank == "minion" and kobold.abilities[0].threshold <= 16
    for enemy in cat.enemies.values():
        lo, hi = RANK_ABILITIES[enemy.rank]
        assert lo <= len(enemy.abilities) <= hi
    assert {e.rank for e in cat.enemies.values()} == {"minion", "mini_boss", "boss", "mega_boss"}
    assert len(cat.characters) == 8
    assert len(cat.enemies) >= 22 and len(cat.npcs) >= 3
    assert {"kobold-warren", "sallow-fen", "hollow-barrow"} <= set(cat.scenarios)
    warren, fen, barrow = (cat.scenarios[x] for x in ("kobold-warren", "sallow-fen", "hollow-barrow"))
    assert warren.shortest() == warren.longest() == 3
    assert 2 <= fen.shortest() and fen.longest() <= 3
    assert barrow.shortest() >= 6
    [end] = [a for a in barrow.areas.values() if a.ending]
    last = end.steps[-1]
    assert isinstance(last, BattleStep) and cat.enemies[last.enemies[0].enemy].rank == "mega_boss"
    saves = {s.save for sc in (warren, fen, barrow) for s in sc.steps if isinstance(s, SaveStep)}
    assert saves == {"agility", "defensive", "magical"}
    owned = [x for c in cat.characters for x in c.shards]
    for scenario in (warren, fen, barrow):
        assert scenario.objective
        battles = [s for s in scenario.steps if isinstance(s, BattleStep)]
        assert any(b.npcs for b in battles) and any(b.loot for b in battles)
        assert any(isinstance(s, SaveStep) for s in scenario.steps)
        assert any(len(a.next) > 1 for a in scenario.areas.values()), "the party chooses its way"
        dropped = [x for b in battles for x in b.loot if x in cat.shards]
        assert len(owned + dropped) == len(set(owned + dropped)), "a shard exists once"


def test_every_status_is_caused_by_some_content():
    cat = load_catalogue()
    effects = [a.effect for s in cat.shards.values() for a in s.abilities]
    effects += [a.effect for e in cat.enemies.values() for a in e.abilities]
    caused = {st.kind for e in effects for st in e.statuses}
    caused |= {x.status.kind for x in cat.syncs if x.status}
    assert caused == {"bleed", "poison", "burn", "petrify", "freeze", "choke", "stun", "paralyze",
                      "sleep", "blind", "numb"}


def test_a_game_names_its_content_version():
    s = G.setup(["p0"], {}, 1)
    assert G.content_version(s) == s.content and G.pinned_content() is CATALOGUES
    assert CATALOGUES.get(s.content).scenarios["kobold-warren"].name == "The Kobold Warren"
    assert len(G.dump_state(s)) < 20_000, "the catalogue is not copied into the state"


def test_rules_pages_fit():
    pages = G.rules_pages()
    assert len(pages) >= 6 and all(len(p.body) <= 4000 for p in pages)
    text = " ".join(p.body for p in pages)
    for words in ("Flush", "Straight", "Three of a Kind", "DEF", "Wildfire", "administrator",
                  "full Field", "Agility", "Rusty Sword"):
        assert words in text


# --- validation errors -------------------------------------------------------------------------
def test_an_unknown_status_names_the_file_the_entry_and_the_field(pack):
    def change(d):
        d["shards"][0]["abilities"][0]["effect"] = {"statuses": [{"kind": "confusion", "turns": 1}]}
    text = broken(pack, "shards.yaml", change)
    assert "shards.yaml" in text and "shards.0.abilities.0.effect.statuses.0.kind" in text


def test_stun_on_enemies_is_refused_in_a_shard(pack):
    def change(d):
        d["shards"][0]["abilities"][1]["effect"] = {"damage": 3, "statuses": [{"kind": "stun", "turns": 1}]}
    assert "never touch enemies" in broken(pack, "shards.yaml", change)


def test_an_unknown_shard_of_a_character(pack):
    def change(d):
        d["characters"][1]["shards"] = ["nothing"]
        d["characters"][1]["equipped"] = []
    text = broken(pack, "characters.yaml", change)
    assert "characters.yaml: at characters.1.shards.0: unknown shard 'nothing'" in text


def test_a_shard_owned_twice(pack):
    def change(d):
        d["characters"][1]["shards"].append("flames")
    text = broken(pack, "characters.yaml", change)
    assert "characters.1.shards.2" in text and "exists once" in text


def test_a_shard_dropped_as_loot_that_a_character_owns(pack):
    data = shipped("scenarios/kobold-warren.yaml")
    data["areas"]["gallery"]["steps"][1]["loot"] = ["flames"]
    write(pack, "scenarios/kobold-warren.yaml", data)
    with pytest.raises(ContentError, match=r"kobold-warren.yaml: at areas.gallery.steps.1.loot.0: the shard 'flames'"):
        load_catalogue()


def test_a_shield_with_a_two_handed_weapon(pack):
    def change(d):
        d["characters"][0]["main"] = "woodcutter-axe"
    text = broken(pack, "characters.yaml", change)
    assert "characters.0" in text and "one-handed" in text


def test_a_dual_wield_without_the_shard(pack):
    def change(d):
        d["characters"][3]["equipped"] = ["venom"]
    assert "needs a shard that allows it" in broken(pack, "characters.yaml", change)


def test_armor_that_raises_physical(pack):
    at = next(i for i, x in enumerate(shipped("items.yaml")["items"]) if x["id"] == "chain-shirt")
    def change(d):
        d["items"][at]["stats"] = {"physical": 2}
    text = broken(pack, "items.yaml", change)
    assert f"items.{at}" in text and "cannot raise physical" in text


def test_a_minion_with_two_abilities(pack):
    def change(d):
        d["enemies"][0]["abilities"].append(dict(d["enemies"][0]["abilities"][0], threshold=20))
    text = broken(pack, "enemies.yaml", change)
    assert "enemies.0" in text and "minion has 1-1 abilities" in text


def test_a_missing_synchronization(pack):
    def change(d):
        d["synchronizations"].pop()
    assert "no synchronization for" in broken(pack, "elements.yaml", change)


def test_a_scenario_must_end_with_a_battle_and_name_known_enemies(pack):
    data = shipped("scenarios/kobold-warren.yaml")
    data["areas"]["hall"]["steps"] = data["areas"]["grotto"]["steps"]
    write(pack, "scenarios/kobold-warren.yaml", data)
    with pytest.raises(ContentError, match="ends with a battle"):
        load_catalogue()
    data = shipped("scenarios/kobold-warren.yaml")
    data["areas"]["shaft"]["steps"][1]["enemies"][0]["enemy"] = "dragon"
    write(pack, "scenarios/kobold-warren.yaml", data)
    with pytest.raises(ContentError, match=r"areas.shaft.steps.1.enemies.0.enemy: unknown enemy 'dragon'"):
        load_catalogue()


def test_the_game_checks_its_content_at_start_up(pack):
    write(pack, "npcs.yaml", {"npcs": [{"id": "x", "name": "X", "hp": 10, "abilities": []}]})
    with pytest.raises(ContentError, match="npcs.yaml"):
        ByGodsAndKings()


def test_a_pack_may_add_a_scenario(pack):
    data = shipped("scenarios/kobold-warren.yaml")
    data["name"] = "The Short Warren"
    data["areas"] = {"mouth": data["areas"]["mouth"]}
    data["areas"]["mouth"]["next"] = []
    write(pack, "scenarios/short.yaml", data)
    cat = load_catalogue()
    assert sorted(cat.scenarios) == ["deepstone-quarry", "hollow-barrow", "kobold-warren", "sallow-fen", "short"]
    game = ByGodsAndKings()
    scenario = next(o for o in game.options if o.key == "scenario")
    assert [c.value for c in scenario.choices] == ["kobold-warren", "short", "sallow-fen", "deepstone-quarry",
                                                 "hollow-barrow"]
    assert scenario.default == "kobold-warren", "the first scenario comes first, the others by length"
    assert [c.label for c in scenario.choices][:3] == [
        "The Kobold Warren (3 battles)", "The Short Warren (1 battle)", "The Sallow Fen (2-3 battles)"]
