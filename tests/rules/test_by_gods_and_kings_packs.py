"""A server's content pack adds By Gods and Kings shards, gear, enemies, NPCs, kits and
scenarios next to the shipped ones (`<kind>/*.yaml`), and a clash of ids names both places."""

from __future__ import annotations

import pytest

from rules.by_gods_and_kings.catalogue import load_catalogue
from rules.core import ContentError
from tests.rules.test_by_gods_and_kings_content import shipped, write

NEW_SHARD = {"id": "pack-tides", "name": "Shard of Tides", "kind": "restorative", "equip": {"hp": 5},
             "abilities": [{"trigger": "discard", "name": "Ebb", "target": "ally", "effect": {"heal": 4}}]}
NEW_ITEM = {"id": "pack-coral-club", "name": "Coral Club", "slot": "weapon", "type": "club", "stats": {"magic": 5}}
NEW_ENEMY = {"id": "pack-crab", "name": "Shore Crab", "rank": "minion", "hp": 20, "def": 3, "physical": 4,
             "abilities": [{"name": "Pinch", "threshold": 14, "target": "foe",
                            "effect": {"damage": 6, "stat": "physical"}}]}


def test_a_pack_adds_entries_beside_the_shipped_ones(pack):
    for kind, entry in (("shards", NEW_SHARD), ("items", NEW_ITEM), ("enemies", NEW_ENEMY)):
        (pack / kind).mkdir()
        write(pack, f"{kind}/tidal.yaml", {kind: [entry]})
    cat = load_catalogue()
    assert "pack-tides" in cat.shards and "pack-coral-club" in cat.items and "pack-crab" in cat.enemies
    assert "cunning" in cat.shards and "rusty-sword" in cat.items and "kobold" in cat.enemies
    shipped_count = len(shipped("shards.yaml")["shards"])
    assert len(cat.shards) == shipped_count + 1


def test_an_added_id_that_exists_already_names_both_places(pack):
    (pack / "shards").mkdir()
    write(pack, "shards/clash.yaml", {"shards": [{**NEW_SHARD, "id": "cunning"}]})
    with pytest.raises(ContentError) as err:
        load_catalogue()
    text = str(err.value)
    assert "shards/clash.yaml: at shards.0.id: 'cunning' is already" in text and "shards.yaml: shards." in text


def test_an_added_file_holds_entries_only(pack):
    (pack / "shards").mkdir()
    write(pack, "shards/levels.yaml", {"levels": [1, 2], "shards": [NEW_SHARD]})
    with pytest.raises(ContentError, match="holds only `shards:`"):
        load_catalogue()


def test_an_added_entry_is_validated_with_file_entry_and_field(pack):
    (pack / "items").mkdir()
    write(pack, "items/bad.yaml", {"items": [{**NEW_ITEM, "stats": {"spd": 3}}]})
    with pytest.raises(ContentError) as err:
        load_catalogue()
    assert "items/bad.yaml" in str(err.value) and "items.0" in str(err.value)
