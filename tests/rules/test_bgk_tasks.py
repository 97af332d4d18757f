"""By Gods and Kings: tasks between scenarios (tasks.yaml; camp.py, campaign.py): in the camp
before setting out a saved character takes one task it has not done, for its reward, kept in
its record."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from rules.by_gods_and_kings import GAME as G
from rules.by_gods_and_kings import flow
from rules.by_gods_and_kings.campaign import Character, new_character
from rules.by_gods_and_kings.catalogue import cached_catalogue, load_catalogue
from rules.by_gods_and_kings.state import BgkState
from rules.core import ContentError, IllegalAction, Rng
from rules.core.content import SHIPPED

CAT = cached_catalogue()


def camp(*chars: Character, scenario: str = "kobold-warren") -> BgkState:
    out = G.start(["a"], {"party": str(len(chars)), "scenario": scenario}, 5, records={"a": list(chars)})
    assert out.state.phase == "camp" and out.state.battle is None
    return out.state


def task_keys(s: BgkState) -> list[str]:
    return [a.key for a in G.legal_actions(s, "a") if a.key.startswith("task:")]


def test_a_new_character_is_offered_the_tasks_that_need_no_cleared_scenario():
    s = camp(new_character(CAT, "Ada", "gilbert"))
    assert task_keys(s) == ["task:c0:ore-carts"]
    (act,) = [a for a in G.legal_actions(s, "a") if a.key.startswith("task:")]
    assert act.label == "Ada: take on Guard the Ore Carts (+3 shard exp.)"
    assert act.group == "Ada: shards and equipment", "in the character's menu: no menu more"


def test_a_hireling_takes_no_task_nobody_would_keep_it():
    out = G.start(["a"], {"party": "2"}, 5, records={"a": [new_character(CAT, "Ada", "gilbert")]})
    assert out.state.party[1].record is None
    assert task_keys(out.state) == ["task:c0:ore-carts"]


def test_a_cleared_scenario_opens_its_tasks():
    ada = new_character(CAT, "Ada", "gilbert").model_copy(update={"cleared": {"kobold-warren": 1, "sallow-fen": 2}})
    assert task_keys(camp(ada)) == ["task:c0:ore-carts", "task:c0:millbrook-drift", "task:c0:reedby-nets"]


def test_a_task_gives_its_reward_and_only_one_task_is_taken_in_a_camp():
    ada = new_character(CAT, "Ada", "gilbert").model_copy(update={"cleared": {"sallow-fen": 1}})
    s = camp(ada)
    out = G.apply(s, "a", "task:c0:reedby-nets")
    hero = out.state.party[0]
    assert hero.bag == ["ward-talisman"] and hero.tasks == ["reedby-nets"]
    assert hero.shard_xp == {"flames": 1, "bulwark": 1}, "1 experience for each equipped shard"
    (event,) = [e for e in out.events if e.kind == "task"]
    assert event.text.startswith("Ada takes on a task: **Mend the Reedby Nets**.")
    assert "Ward Talisman (in the bag)" in event.text and "reedby-nets" not in event.text
    assert task_keys(out.state) == [], "one task a camp"
    assert s.party[0].bag == [] and s.party[0].tasks == [], "the state before the move is unchanged"
    with pytest.raises(IllegalAction):
        G.apply(out.state, "a", "task:c0:ore-carts")


def test_the_record_keeps_the_task_and_its_reward_and_it_is_not_offered_again():
    s = camp(new_character(CAT, "Ada", "gilbert"))
    s = G.apply(s, "a", "task:c0:ore-carts").state
    s = G.apply(s, "a", "ready").state
    assert s.battle is not None and s.origin[0].tasks == ["ore-carts"]
    back = G.records_out(s)["a"][0]
    assert isinstance(back, Character)
    assert back.tasks == ["ore-carts"] and back.shard_xp == {"flames": 3, "bulwark": 3}
    again = camp(back)
    assert task_keys(again) == [], "each task is done once"
    sheet = dict(G.describe_record(back))
    assert "tasks done: Guard the Ore Carts" in sheet["Adventures"]


def test_a_lost_scenario_keeps_the_reward_earned_before_setting_out():
    ada = new_character(CAT, "Ada", "gilbert").model_copy(update={"cleared": {"kobold-warren": 1}})
    s = G.start(["a"], {"party": "1", "attempts": "1"}, 5, records={"a": [ada]}).state
    s = G.apply(s, "a", "task:c0:millbrook-drift").state
    s = G.apply(s, "a", "ready").state
    for h in s.party:
        h.hp = 0
    flow.battle_over(s, [])
    assert s.outcome == "defeat"
    back = G.records_out(s)["a"][0]
    assert isinstance(back, Character)
    assert back.bag == ["iron-cudgel"] and back.tasks == ["millbrook-drift"]


def test_no_task_is_offered_in_a_camp_between_battles():
    s = camp(new_character(CAT, "Ada", "gilbert"))
    assert "take a task" in G.view(s, "a").prompt
    s = G.apply(s, "a", "ready").state
    s.phase, s.ready = "camp", []
    assert s.visited and task_keys(s) == []
    assert G.view(s, "a").prompt == "Camp: claim loot, change shards and equipment, then get ready."


def test_a_task_round_trips_through_the_saved_form():
    s = G.apply(camp(new_character(CAT, "Ada", "gilbert")), "a", "task:c0:ore-carts").state
    again = G.load_state(G.dump_state(s))
    assert again.party[0].tasks == ["ore-carts"] and G.dump_state(again) == G.dump_state(s)
    assert len(G.dump_state(s)) < 4096


def test_the_automatic_player_sets_out_from_a_camp_with_tasks():
    s = camp(new_character(CAT, "Ada", "gilbert"), new_character(CAT, "Bo", "pierre"))
    assert task_keys(s)
    chooser = Rng(seed=0)
    for _ in range(20):
        if s.phase != "camp":
            break
        s = G.apply(s, "a", G.auto_action(s, "a", chooser).key).state
    assert s.phase != "camp" and s.visited == [s.scenario_def.start]


# --- content checks -------------------------------------------------------------------------------
def _broken(pack: Path, change) -> str:
    data = yaml.safe_load((SHIPPED / "by-gods-and-kings" / "tasks.yaml").read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    change(data["tasks"][1])
    (pack / "tasks.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_catalogue()
    return str(err.value)


@pytest.mark.parametrize("change,message", [
    (lambda t: t["reward"].update(item="no-such-thing"), "tasks.1.reward.item: unknown item 'no-such-thing'"),
    (lambda t: t["reward"].update(item="fury"), "a task gives items only"),
    (lambda t: t.update(after="no-such-place"), "tasks.1.after: unknown scenario 'no-such-place'"),
    (lambda t: t.update(reward={"experience": 0}), "the reward gives nothing"),
])
def test_a_broken_task_is_refused_naming_the_file_and_the_entry(pack, change, message):
    text = _broken(pack, change)
    assert message in text and "tasks.yaml" in text
