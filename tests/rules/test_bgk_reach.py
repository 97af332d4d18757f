"""By Gods and Kings: every item, shard, enemy and NPC of the shipped content can be met in
play (a kit, a battle of an area the party can enter, its loot before a camp, a task)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.by_gods_and_kings.catalogue import load_catalogue
from rules.by_gods_and_kings.content import Catalogue, ScenarioDef, TaskDef
from rules.by_gods_and_kings.reach import entered_areas, reach, unreachable


def test_every_piece_of_the_shipped_content_can_be_met():
    missing = unreachable(load_catalogue())
    assert missing == {}, f"never met in play: {missing}"


def test_the_club_is_in_reach_of_a_new_party():
    """The rulebook's tenth weapon: one is found in the first scenario offered."""
    cat = load_catalogue()
    got = reach(cat)
    clubs = [i for i, it in cat.items.items() if it.type == "club"]
    assert any(w.startswith(("kit ", "kobold-warren/")) for c in clubs for w in got.items.get(c, []))


def _scenario(areas: dict) -> ScenarioDef:
    return ScenarioDef.model_validate({"name": "T", "start": "a", "areas": areas})


def _battle(enemy: str, loot: list[str]) -> dict:
    return {"kind": "battle", "name": "B", "enemies": [{"enemy": enemy}], "loot": loot}


def _with(cat: Catalogue, **scenarios: ScenarioDef) -> Catalogue:
    return cat.model_copy(update={"scenarios": scenarios, "tasks": {}})


def test_the_last_battles_loot_and_an_area_off_the_map_are_out_of_reach():
    """Loot of the final battle is never claimed (the scenario ends before a camp)."""
    cat = load_catalogue()
    sc = _scenario({"a": {"name": "A", "steps": [_battle("kobold", ["fine-sword"])], "next": ["b"]},
                    "b": {"name": "B", "steps": [_battle("giant-rat", ["tower-shield"])]}})
    got = reach(_with(cat, t=sc))
    assert "fine-sword" in got.items and "tower-shield" not in got.items
    assert {"kobold", "giant-rat"} <= set(got.enemies)


def test_an_area_entered_only_by_a_failed_save_is_in_reach():
    cat = load_catalogue()
    save = {"kind": "save", "name": "S", "save": "agility", "target": 10, "who": "one",
            "fail": {"damage": 1}, "fail_next": "pit"}
    sc = _scenario({"a": {"name": "A", "steps": [save, _battle("kobold", [])], "next": ["end"]},
                    "pit": {"name": "P", "steps": [_battle("stone-golem", ["great-helm"])], "next": ["end"]},
                    "end": {"name": "E", "steps": [_battle("giant-rat", [])]}})
    assert entered_areas(sc) == ["a", "end", "pit"]
    got = reach(_with(cat, t=sc))
    assert "stone-golem" in got.enemies and "great-helm" in got.items


def test_a_tasks_item_is_in_reach():
    cat = load_catalogue()
    bare = _with(cat, t=_scenario({"a": {"name": "A", "steps": [_battle("kobold", [])]}}))
    assert "thunder-maul" not in reach(bare).items
    task = TaskDef.model_validate({"id": "t", "name": "T", "reward": {"item": "thunder-maul"}})
    with_task = bare.model_copy(update={"tasks": {"t": task}})
    assert reach(with_task).items["thunder-maul"] == ["task t"]


RULEBOOK = Path(__file__).resolve().parents[2].parent / "shared" / "seeds" / "000_676d8dccff98b451.txt"


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower().replace("\u2019", "'"))


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook is not beside the work tree")
def test_no_text_of_the_game_repeats_six_words_of_the_rulebook():
    """Own words (issue 29 item 13: the Hollow King's gaze, the blind status): no run of six
    words of the rulebook in the content or the game's code and help."""
    book = _words(RULEBOOK.read_text(encoding="utf-8"))
    runs = {tuple(book[i:i + 6]) for i in range(len(book) - 5)}
    root = Path(__file__).resolve().parents[2]
    files = [*(root / "content" / "by-gods-and-kings").rglob("*.yaml"),
             *(root / "rules" / "by_gods_and_kings").glob("*.py")]
    found = {}
    for f in files:
        w = _words(f.read_text(encoding="utf-8"))
        hits = [" ".join(w[i:i + 6]) for i in range(len(w) - 5) if tuple(w[i:i + 6]) in runs]
        if hits:
            found[f.name] = hits[:3]
    assert found == {}
