"""By Gods and Kings: a failed save that opens another path (SaveStep.fail_next) and a look into
an area before the party votes for it (review.py)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from rules.by_gods_and_kings import GAME as G
from rules.by_gods_and_kings import flow
from rules.by_gods_and_kings.camp import SAVE_STATS
from rules.by_gods_and_kings.catalogue import CATALOGUES, load_catalogue
from rules.by_gods_and_kings.content import ScenarioDef
from rules.by_gods_and_kings.review import REVIEW_MAX
from rules.by_gods_and_kings.state import BgkState
from rules.by_gods_and_kings.stats import stat
from rules.core import Event, IllegalAction, Rng

KOBOLD = {"kind": "battle", "name": "A Kobold", "enemies": [{"enemy": "kobold"}]}
TRAP = {"kind": "save", "name": "A Trap Door", "save": "agility", "target": 30, "who": "one",
        "fail": {"damage": 3}, "fail_next": "pit"}


def play(scenario: dict[str, Any] | ScenarioDef, party: int = 4, seats: int = 1
         ) -> tuple[BgkState, list[Event]]:
    """A game of this scenario from its start, and the events of entering it."""
    s = G.setup([f"p{i}" for i in range(seats)], {"party": str(party)}, 0)
    cat = s.cat
    sc = scenario if isinstance(scenario, ScenarioDef) else ScenarioDef.model_validate(scenario)
    s.content = CATALOGUES.add(cat.model_copy(update={"scenarios": {**cat.scenarios, "test": sc}}))
    s.scenario = "test"
    flow.restart(s)
    events: list[Event] = []
    flow.begin_step(s, events)
    return s, events


def trap_map(**trap: Any) -> dict[str, Any]:
    """A: the trap door, then a kobold, then B; the pit (a kobold) leads to B too; B: the end."""
    return {"name": "Trap", "start": "a", "areas": {
        "a": {"name": "Hall A", "steps": [{**TRAP, **trap}, KOBOLD], "next": ["b"]},
        "pit": {"name": "The Pit", "text": "Dark and damp.", "steps": [KOBOLD, KOBOLD], "next": ["b"]},
        "b": {"name": "Hall B", "steps": [KOBOLD]}}}


# --- the map ------------------------------------------------------------------------------------------
def test_an_area_reached_only_by_a_failed_save_is_on_the_map_and_counted():
    sc = ScenarioDef.model_validate(trap_map())
    assert sc.areas["a"].ways() == ["b", "pit"]
    assert (sc.shortest(), sc.longest()) == (2, 3), "A's kobold then B; or the pit's two then B"


@pytest.mark.parametrize("change,message", [
    ({"who": "all"}, "only a save made by one character"),
    ({"fail_next": "cellar"}, "at areas.a.steps.0.fail_next: unknown area 'cellar'"),
    ({"fail_next": "a"}, "goes round in a circle"),
])
def test_a_path_must_be_made_by_one_save_lead_somewhere_and_not_loop(change, message):
    with pytest.raises(ValidationError) as err:
        ScenarioDef.model_validate(trap_map(**change))
    assert message in str(err.value)


def test_without_its_failed_save_the_pit_would_be_unreachable():
    data = trap_map()
    del data["areas"]["a"]["steps"][0]["fail_next"]
    with pytest.raises(ValidationError, match="no way leads here"):
        ScenarioDef.model_validate(data)


# --- playing it -------------------------------------------------------------------------------------
def _fail(s: BgkState) -> tuple[BgkState, list[Event]]:
    uid = s.saving[0]
    assert stat(s, s.hero(uid), SAVE_STATS["agility"][0]) < 30
    out = G.apply(s, "p0", f"save:{uid}:risk")
    return out.state, out.events


def test_a_failed_save_sends_the_party_down_the_path():
    s, _ = play(trap_map())
    assert s.phase == "save" and len(s.saving) == 1
    s, events = _fail(s)
    kinds = [e.kind for e in events]
    assert kinds.index("save_damage") < kinds.index("path_opened") < kinds.index("area") < kinds.index("battle")
    opened = next(e for e in events if e.kind == "path_opened")
    assert "The Pit" in opened.text and "pit" not in opened.text.replace("The Pit", "")
    assert s.visited == ["a", "pit"] and s.area == "pit" and s.step == 0 and s.phase == "opening"
    assert "**The Pit**. Dark and damp." in [e.text for e in events]


def test_a_passed_save_goes_on_in_the_area():
    s, _ = play(trap_map(target=1))
    out = G.apply(s, "p0", f"save:{s.saving[0]}:risk")
    assert not any(e.kind == "path_opened" for e in out.events)
    assert out.state.visited == ["a"] and out.state.step == 1 and out.state.phase == "opening"


def _warren_from_the_idol_chamber() -> ScenarioDef:
    warren = load_catalogue().scenarios["kobold-warren"]
    keep = ("shaft", "pit", "grotto", "hall")
    return warren.model_copy(update={"start": "shaft", "areas": {k: warren.areas[k] for k in keep}})


def test_the_lever_trap_of_the_warren_drops_the_party_into_the_broodmothers_nest():
    """The rulebook's worked example: had Gilbert failed the lever trap's Agility Save, he
    would have fallen and opened another path for the party."""
    s, _ = play(_warren_from_the_idol_chamber(), party=4)
    s, events = _fail(s)
    assert s.area == "pit" and s.battle is not None
    assert s.battle.foes[0].enemy == "rat-broodmother"
    assert "Sappers" not in " ".join(e.text for e in events)


def test_a_game_that_falls_into_the_pit_plays_to_its_end_with_the_automatic_player():
    s, _ = play(_warren_from_the_idol_chamber(), party=4)
    s, _ = _fail(s)
    chooser = Rng(seed=3)
    for _ in range(G.max_steps):
        if G.result(s) is not None:
            break
        G.check_invariants(s)
        p = G.to_act(s)[0]
        s = G.apply(s, p, G.auto_action(s, p, chooser).key).state
    assert G.result(s) is not None and s.visited[:2] == ["shaft", "pit"]


# --- looking before choosing -----------------------------------------------------------------------
def fork() -> dict[str, Any]:
    looked = {"name": "The Den", "text": "Bones everywhere.", "steps": [
        {"kind": "save", "name": "Loose Floor", "save": "defensive", "target": 23, "who": "all",
         "fail": {"damage": 4}},
        {"kind": "battle", "name": "Den Fight", "enemies": [{"enemy": "kobold"}, {"enemy": "kobold", "min_party": 2},
                                                           {"enemy": "stone-golem", "min_party": 5}],
         "npcs": ["tam"], "loot": ["tower-shield"]},
        {"kind": "rest", "name": "Nap", "heal": 3}], "next": ["end"]}
    return {"name": "Fork", "start": "a", "areas": {
        "a": {"name": "Hall A", "steps": [{"kind": "rest", "name": "R", "heal": 1}], "next": ["den", "end"]},
        "den": looked, "end": {"name": "The End", "steps": [KOBOLD]}}}


def test_a_seat_looks_into_a_way_on_and_the_whole_party_reads_it():
    s, _ = play(fork(), party=4, seats=2)
    assert s.phase == "route"
    looks = [a for a in G.legal_actions(s, "p1") if a.key.startswith("review:")]
    assert [(a.key, a.label) for a in looks] == [("review:den", "Look into The Den first"),
                                                ("review:end", "Look into The End first")]
    before = G.dump_state(s)
    out = G.apply(s, "p1", "review:den")
    (event,) = out.events
    assert event.kind == "review" and event.visible_to is None
    assert event.text == ("⟨p1⟩ looks ahead into **The Den**. Bones everywhere. Inside: a danger (a "
                          "Defensive Save); then a fight: Kobold ×2 (Tam the Miner on the party's "
                          "side); then a place to rest. And it leads on to The End.")
    assert "Tower Shield" not in event.text and "23" not in event.text, "loot and targets stay hidden"
    assert G.dump_state(out.state) == before, "a look changes nothing: the seat still votes"
    assert G.to_act(out.state) == ["p0", "p1"]
    s = G.apply(out.state, "p1", "route:den").state
    assert G.legal_actions(s, "p1") == [], "a seat that voted has nothing more to look at"
    with pytest.raises(IllegalAction):
        G.apply(s, "p1", "review:end")


def test_a_look_names_the_enemies_of_the_partys_size_and_the_end():
    s, _ = play(fork(), party=5)
    text = G.apply(s, "p0", "review:den").events[0].text
    assert "Kobold ×2, Stone Golem" in text
    end = G.apply(s, "p0", "review:end").events[0].text
    assert end == "⟨p0⟩ looks ahead into **The End**. Inside: a fight: Kobold. And the scenario ends there."


def test_a_look_is_cut_to_one_message_and_only_ways_on_can_be_looked_into():
    data = fork()
    data["areas"]["den"]["text"] = "x" * 600
    data["areas"]["den"]["steps"] = [KOBOLD] * 20
    s, _ = play(data)
    text = G.apply(s, "p0", "review:den").events[0].text
    assert len(text) <= REVIEW_MAX and text.endswith("…")
    with pytest.raises(IllegalAction):
        G.apply(s, "p0", "review:a")


def test_the_automatic_player_never_looks_it_votes():
    s, _ = play(fork(), party=4, seats=3)
    chooser = Rng(seed=1)
    for _ in range(3):
        p = G.to_act(s)[0]
        key = G.auto_action(s, p, chooser).key
        assert key.startswith("route:")
        s = G.apply(s, p, key).state
    assert s.phase != "route"
