"""Deathly Thrones content: the shipped files are valid, and broken ones are explained."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rules.core import ContentError, load_model
from rules.core.content import SHIPPED
from rules.deathly_thrones.content import CharacterFile, Quest, quests

QUEST_DIR = SHIPPED / "deathly-thrones" / "quests"


def test_every_shipped_quest_has_forty_events_and_a_boss():
    qs = quests()
    assert len(qs) >= 3 and "iron-throne" in qs
    for quest in qs.values():
        assert [s.step for s in quest.steps] == list(range(1, 41))
        assert quest.boss.type == "fight" and quest.boss.step == 40
        kinds = {s.type for s in quest.steps}
        assert kinds == {"fight", "hurt", "rest"}
        assert any(s.story for s in quest.steps)


def _write(tmp_path: Path, data) -> Path:
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def _iron() -> dict:
    return yaml.safe_load((QUEST_DIR / "iron-throne.yaml").read_text(encoding="utf-8"))


def test_a_fight_without_health_names_file_entry_and_field(tmp_path):
    data = _iron()
    del data["steps"][2]["health"]
    with pytest.raises(ContentError) as err:
        load_model(_write(tmp_path, data), Quest)
    text = str(err.value)
    assert "broken.yaml" in text and "steps.2" in text and "health" in text


def test_enemy_armor_is_capped_so_no_fight_can_stall(tmp_path):
    data = _iron()
    data["steps"][2]["armor"] = 9
    with pytest.raises(ContentError) as err:
        load_model(_write(tmp_path, data), Quest)
    assert "steps.2.armor" in str(err.value)


@pytest.mark.parametrize("change,message", [
    (lambda d: d["steps"].pop(), "steps 1 to 40"),
    (lambda d: d["steps"][39].update(type="rest", result={"health": 1}, health=None, armor=None),
     "step 40 must be the boss fight"),
    (lambda d: d["steps"][0].update(health=3), "only a fight"),
    (lambda d: d["steps"][1].update(result={"health": 1}), "must take something away"),
    (lambda d: d["steps"][0].update(result={}), "must give something back"),
    (lambda d: d["steps"][0].update(kind="rest"), "steps.0.kind"),
])
def test_broken_quests_are_refused(tmp_path, change, message):
    data = _iron()
    change(data)
    with pytest.raises(ContentError) as err:
        load_model(_write(tmp_path, data), Quest)
    assert message in str(err.value)


def test_duplicate_characters_are_refused(tmp_path):
    data = {"characters": [{"id": "hero", "name": "A", "health": 3, "armor": 5}] * 2}
    with pytest.raises(ContentError) as err:
        load_model(_write(tmp_path, data), CharacterFile)
    assert "unique" in str(err.value)


def test_a_run_keeps_its_quest_when_the_pack_changes_and_a_late_pack_is_honoured(tmp_path):
    from rules import get_game
    from rules.core.content import SHIPPED, set_content_dir
    from rules.deathly_thrones.content import RUNS, quests

    game = get_game("deathly-thrones")
    state = game.setup(["p"], {"quest": "iron-throne"}, 1)
    before = game.quest_of(state)
    pack = tmp_path / "pack" / "deathly-thrones" / "quests"
    pack.mkdir(parents=True)
    text = (SHIPPED / "deathly-thrones" / "quests" / "iron-throne.yaml").read_text(encoding="utf-8")
    (pack / "iron-throne.yaml").write_text(
        text.replace("name: The Iron Throne", "name: The Rusted Throne", 1), encoding="utf-8")
    set_content_dir(tmp_path / "pack")
    try:
        assert quests()["iron-throne"].name == "The Rusted Throne"  # the pack is read when set
        assert game.quest_of(state) == before  # the running game keeps its own quest
        fresh = game.setup(["p"], {"quest": "iron-throne"}, 1)
        assert game.quest_of(fresh).name == "The Rusted Throne" and fresh.content != state.content
        # a state saved before runs were pinned reads the files
        legacy = type(state).model_validate({**state.model_dump(), "content": ""})
        assert game.quest_of(legacy).name == "The Rusted Throne"
        assert RUNS.knows(state.content)
    finally:
        set_content_dir(None)
