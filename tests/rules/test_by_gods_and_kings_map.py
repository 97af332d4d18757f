"""By Gods and Kings scenario maps: areas, route votes (majority, ties to the first seat, one
way on taken without a vote, the ending area), legacy content and states from before maps,
map validation, the three kinds of saves of the shipped scenarios, the view and the table."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.render.base import RenderContext
from bot.render.by_gods_and_kings import ByGodsAndKingsRenderer
from bot.render.panel import to_text
from rules.by_gods_and_kings import GAME as G
from rules.by_gods_and_kings import flow
from rules.by_gods_and_kings.camp import SAVE_STATS, winning_route
from rules.by_gods_and_kings.catalogue import CATALOGUES, load_catalogue
from rules.by_gods_and_kings.content import LEGACY_AREA, BattleStep, SaveStep, ScenarioDef
from rules.by_gods_and_kings.effects import lose
from rules.by_gods_and_kings.state import BgkState
from rules.by_gods_and_kings.stats import max_hp, stat
from rules.core import ContentError, Event, IllegalAction, Rng
from rules.core.content import SHIPPED

GAME_DIR = "by-gods-and-kings"
REST = {"kind": "rest", "name": "A Breather", "heal": 5}
BATTLE = {"kind": "battle", "name": "A Kobold", "enemies": [{"enemy": "kobold"}]}


def fork(**changes: Any) -> dict[str, Any]:
    """A: a rest, then B or C (rests too), both leading to D: a battle, the end."""
    data: dict[str, Any] = {
        "name": "The Fork", "objective": "Reach the kobold and beat it.", "start": "a",
        "areas": {
            "a": {"name": "Hall A", "text": "A dusty hall.", "steps": [REST], "next": ["b", "c"]},
            "b": {"name": "Hall B", "steps": [REST], "next": ["d"]},
            "c": {"name": "Hall C", "text": "A cold hall.", "steps": [REST], "next": ["d"]},
            "d": {"name": "Hall D", "steps": [BATTLE]},
        }}
    data.update(changes)
    return data


def map_state(scenario: dict[str, Any], party: int = 4, seats: int = 1, seed: int = 0
              ) -> tuple[BgkState, list[Event]]:
    """A game playing this scenario from its start, and the events of entering it."""
    players = [f"p{i}" for i in range(seats)]
    s = G.setup(players, {"party": str(party)}, seed)
    cat = s.cat
    sc = ScenarioDef.model_validate(scenario)
    s.content = CATALOGUES.add(cat.model_copy(update={"scenarios": {**cat.scenarios, "test": sc}}))
    s.scenario = "test"
    flow.restart(s)
    events: list[Event] = []
    flow.begin_step(s, events)
    return s, events


def keys(s: BgkState, seat: str) -> list[str]:
    return [a.key for a in G.legal_actions(s, seat)]


def win(s: BgkState) -> list[Event]:
    """Every foe of the battle falls."""
    events: list[Event] = []
    for f in s.foes:
        f.hp = 0
    assert flow.battle_over(s, events)
    return events


def ready_all(s: BgkState) -> BgkState:
    for p in s.players:
        s = G.apply(s, p, "ready").state
    return s


# --- route votes ----------------------------------------------------------------------------------
def test_entering_the_start_reads_its_text_and_the_objective():
    s, events = map_state(fork())
    area = next(e for e in events if e.kind == "area")
    assert "**Hall A**. A dusty hall." in area.text and "Objective: Reach the kobold" in area.text
    assert s.visited == ["a"] and s.area == "a"


def test_every_seat_votes_at_once_and_the_majority_decides():
    s, _ = map_state(fork(), seats=3)
    assert s.phase == "route", "A is only a rest: its ways on are put to the vote"
    assert G.to_act(s) == ["p0", "p1", "p2"]
    assert keys(s, "p0") == ["route:b", "route:c", "review:b", "review:c"]
    assert [a.label for a in G.legal_actions(s, "p2")] == [
        "Go to Hall B", "Go to Hall C", "Look into Hall B first", "Look into Hall C first"]
    s = G.apply(s, "p1", "route:c").state
    assert G.to_act(s) == ["p0", "p2"] and keys(s, "p1") == []
    with pytest.raises(IllegalAction):
        G.apply(s, "p1", "route:b")
    s = G.apply(s, "p0", "route:b").state
    assert s.phase == "route" and s.votes == {"p1": "c", "p0": "b"}
    out = G.apply(s, "p2", "route:c")
    s = out.state
    chosen = next(e for e in out.events if e.kind == "route_chosen")
    assert chosen.data["area"] == "c" and "Hall C 2" in chosen.text and "Hall B 1" in chosen.text
    assert "**Hall C**. A cold hall." in " ".join(e.text for e in out.events if e.kind == "area")
    assert s.visited == ["a", "c", "d"], "C has one way on: D is entered without a vote"
    assert s.area == "d" and s.phase == "opening" and s.votes == {}


def test_a_tie_goes_to_the_first_seats_vote():
    s, _ = map_state(fork(), seats=2)
    s = G.apply(s, "p1", "route:c").state
    s = G.apply(s, "p0", "route:b").state
    assert s.visited == ["a", "b", "d"]
    s, _ = map_state(fork(), seats=2)
    s = G.apply(s, "p0", "route:c").state
    s = G.apply(s, "p1", "route:b").state
    assert s.visited == ["a", "c", "d"]


def test_a_tie_the_first_seat_is_not_in_goes_to_the_first_seat_that_is():
    s, _ = map_state(fork(), party=5, seats=5)
    s.votes = {"p4": "b", "p3": "b", "p2": "c", "p1": "c", "p0": "x"}
    assert winning_route(s) == "c"
    s.votes = {"p1": "b", "p2": "b", "p3": "c", "p0": "c", "p4": "x"}
    assert winning_route(s) == "c"
    s.votes = {"p1": "b", "p2": "b", "p3": "c", "p0": "c", "p4": "b"}
    assert winning_route(s) == "b", "the most votes win over the first seat"


def test_a_lone_seat_still_chooses_among_several_ways():
    s, _ = map_state(fork(), seats=1)
    assert s.phase == "route" and G.to_act(s) == ["p0"]
    assert keys(s, "p0") == ["route:b", "route:c", "review:b", "review:c"]
    s = G.apply(s, "p0", "route:b").state
    assert s.visited == ["a", "b", "d"]


def test_one_way_on_after_a_battle_is_taken_after_camp_without_a_vote():
    data = fork(start="x")
    data["areas"]["x"] = {"name": "Hall X", "steps": [BATTLE], "next": ["a"]}
    s, _ = map_state(data, seats=2)
    assert s.phase == "opening" and s.area == "x"
    events = win(s)
    assert s.phase == "camp" and not any(e.kind == "game_over" for e in events)
    s = ready_all(s)
    assert s.visited == ["x", "a"] and s.phase == "route", "through A (a rest) to its fork"


def test_the_ending_area_ends_the_scenario():
    s, _ = map_state(fork(), seats=1)
    s = G.apply(s, "p0", "route:b").state
    assert s.area == "d" and s.scenario_def.areas["d"].ending
    events = win(s)
    assert s.phase == "over" and s.outcome == "victory"
    assert any(e.kind == "game_over" for e in events)
    result = G.result(s)
    assert result is not None and result.winners == ["p0"]


def test_a_battle_in_an_area_with_a_way_on_leads_to_camp_not_victory():
    data = fork()
    data["areas"]["b"]["steps"] = [BATTLE, REST]
    s, _ = map_state(data, seats=1)
    s = G.apply(s, "p0", "route:b").state
    win(s)
    assert s.phase == "camp" and s.outcome == ""
    s = ready_all(s)
    assert s.visited == ["a", "b", "d"] and s.phase == "opening"


def test_a_wipe_starts_over_from_the_start_area():
    s, _ = map_state(fork(), seats=1)
    s = G.apply(s, "p0", "route:c").state
    assert s.area == "d"
    events: list[Event] = []
    for h in s.party:
        lose(s, h, h.hp, events, "a test")
    assert flow.battle_over(s, events)
    assert s.attempt == 2 and s.visited == ["a"] and s.area == "a" and s.phase == "route"
    assert [h.hp for h in s.party] == [max_hp(s, h) for h in s.party]


def test_the_automatic_player_votes_and_a_hurt_party_heads_for_a_rest():
    data = fork()
    data["areas"]["b"]["steps"] = [BATTLE]
    s, _ = map_state(data, seats=1)
    for h in s.party:
        h.hp = 1
    picks = {G.auto_action(s, "p0", Rng(seed=n)).key for n in range(20)}
    assert picks == {"route:c"}, "C holds a rest, B a battle"
    for h in s.party:
        h.hp = max_hp(s, h)
    picks = {G.auto_action(s, "p0", Rng(seed=n)).key for n in range(20)}
    assert picks == {"route:b", "route:c"}, "a healthy party goes either way"


# --- the view and the table -------------------------------------------------------------------------
def test_the_view_and_the_table_show_objective_area_way_and_votes():
    s, _ = map_state(fork(), seats=3)
    s = G.apply(s, "p2", "route:c").state
    view = G.view(s, None)
    assert view.objective == "Reach the kobold and beat it." and view.area == "Hall A"
    assert [(r.name, r.votes) for r in view.routes] == [("Hall B", []), ("Hall C", ["p2"])]
    text = to_text(ByGodsAndKingsRenderer(G).table(view, RenderContext(names={"p2": "Ada"}))[0])
    assert "Objective" in text and "Reach the kobold" in text
    assert "Where next?" in text and "**Hall C**: a place to rest, then Hall D · voted by Ada" in text
    for p in ("p0", "p1"):
        s = G.apply(s, p, "route:b").state
    view = G.view(s, None)
    assert view.visited == ["Hall A", "Hall B", "Hall D"] and view.routes == [] and view.area == "Hall D"
    text = to_text(ByGodsAndKingsRenderer(G).table(view, RenderContext())[0])
    assert "Where next?" not in text  # the way so far is told at the next fork (tests/bot/test_render_bgk_phone.py)


# --- legacy content and states ------------------------------------------------------------------------
LEGACY = {"name": "An Old Scenario", "intro": "Long ago.", "steps": [REST, BATTLE, BATTLE]}


def test_a_legacy_steps_list_is_a_map_of_one_area():
    sc = ScenarioDef.model_validate(LEGACY)
    assert sc.start == LEGACY_AREA and list(sc.areas) == [LEGACY_AREA]
    area = sc.areas[LEGACY_AREA]
    assert area.name == "An Old Scenario" and area.ending and len(area.steps) == 3
    with pytest.raises(ValueError, match="ends with a battle"):
        ScenarioDef.model_validate({**LEGACY, "steps": [BATTLE, REST]})
    with pytest.raises(ValueError, match="not both"):
        ScenarioDef.model_validate({**fork(), "steps": [BATTLE]})


def test_an_old_state_without_the_map_fields_loads_and_plays_on():
    s, _ = map_state(LEGACY, seats=1)
    assert s.phase == "opening" and s.step == 1
    win(s)
    old = json.loads(G.dump_state(s))
    for field in ("area", "visited", "votes"):
        old.pop(field, None)
    s = G.load_state(json.dumps(old))
    assert s.area == "" and s.area_id == LEGACY_AREA and s.visited == [] and s.phase == "camp"
    view = G.view(s, None)
    assert view.area == "An Old Scenario"
    s = ready_all(s)
    assert s.step == 2 and s.phase in ("opening", "order", "play", "enemy"), "the next battle, not the start"
    assert s.visited == []
    win(s)
    assert s.outcome == "victory"


def test_a_catalogue_pinned_before_maps_is_restored_under_its_version():
    cat = json.loads(CATALOGUES.dump(CATALOGUES.current()))
    cat["scenarios"] = {"old": {"name": "An Old Scenario", "intro": "", "outro": "",
                                "steps": json.loads(json.dumps([REST, BATTLE]))}}
    old = json.dumps(cat)
    version = hashlib.sha256(old.encode()).hexdigest()[:16]
    CATALOGUES.restore(version, old)
    restored = CATALOGUES.get(version)
    assert restored.scenarios["old"].areas[LEGACY_AREA].steps[-1].kind == "battle"
    with pytest.raises(ContentError, match="does not match"):
        CATALOGUES.restore("0" * 16, old)


# --- map validation ------------------------------------------------------------------------------------
def shipped_warren() -> dict[str, Any]:
    return yaml.safe_load((SHIPPED / GAME_DIR / "scenarios/kobold-warren.yaml").read_text(encoding="utf-8"))


def broken_map(pack: Path, change) -> str:
    data = copy.deepcopy(shipped_warren())
    change(data)
    (pack / "scenarios/kobold-warren.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_catalogue()
    return str(err.value)


def test_a_way_on_to_an_unknown_area(pack):
    def change(d):
        d["areas"]["mouth"]["next"] = ["gallery", "dragon-lair"]
    text = broken_map(pack, change)
    assert "kobold-warren.yaml" in text and "areas.mouth.next.1: unknown area 'dragon-lair'" in text


def test_an_area_no_way_leads_to(pack):
    def change(d):
        d["areas"]["mouth"]["next"] = ["gallery"]
    text = broken_map(pack, change)
    assert "kobold-warren.yaml" in text and "areas.shaft: no way leads here" in text


def test_a_map_that_goes_round_in_a_circle(pack):
    def change(d):
        d["areas"]["grotto"]["next"] = ["hall", "shaft"]
    text = broken_map(pack, change)
    assert "kobold-warren.yaml" in text and "areas.shaft.next: the map goes round in a circle (grotto -> shaft -> grotto)" in text


def test_an_ending_area_that_does_not_end_with_a_battle(pack):
    def change(d):
        d["areas"]["grotto"]["next"] = []
    text = broken_map(pack, change)
    assert "areas.grotto.steps" in text and "ends with a battle" in text


def test_an_unknown_start(pack):
    text = broken_map(pack, lambda d: d.update(start="cellar"))
    assert "at start: unknown area 'cellar'" in text


def test_a_legacy_file_still_loads_and_its_errors_name_its_steps(pack):
    steps = [BATTLE, {**BATTLE, "enemies": [{"enemy": "dragon"}]}]
    (pack / "scenarios/old.yaml").write_text(yaml.safe_dump({"name": "Old", "steps": steps[:1]}),
                                             encoding="utf-8")
    assert load_catalogue().scenarios["old"].areas[LEGACY_AREA].ending
    (pack / "scenarios/old.yaml").write_text(yaml.safe_dump({"name": "Old", "steps": steps}),
                                             encoding="utf-8")
    with pytest.raises(ContentError, match=r"old.yaml: at steps.1.enemies.0.enemy: unknown enemy 'dragon'"):
        load_catalogue()


# --- the three saves of the shipped scenarios ------------------------------------------------------------
SAVES = [("kobold-warren", "shaft", "agility"), ("sallow-fen", "reeds", "defensive"),
         ("hollow-barrow", "throne", "magical")]


def shipped_save(scenario: str, area: str) -> SaveStep:
    step = load_catalogue().scenarios[scenario].areas[area].steps[0]
    assert isinstance(step, SaveStep)
    return step


@pytest.mark.parametrize("scenario,area,kind", SAVES)
@pytest.mark.parametrize("passes", [True, False], ids=["passed", "failed"])
def test_each_kind_of_save(scenario, area, kind, passes):
    """The lever trap (agility), the viper (defensive, poison), the king's gaze (magical): Gilbert
    sacrificing a King passes; taking the risk with his stat alone fails and costs the penalty."""
    step = shipped_save(scenario, area)
    assert step.save == kind
    s, _ = map_state({"name": "A Save", "steps": [step.model_dump(exclude={"fail_next"}), BATTLE]}, party=4)
    assert s.phase == "save"
    s.saving = ["c0"]
    gilbert = s.party[0]
    gilbert.field = [s.deck.pop(s.deck.index(next(c for c in s.deck if c.startswith("K"))))]
    king = gilbert.field[0]
    own = stat(s, gilbert, SAVE_STATS[kind][0])
    assert own < step.target <= own + 10, "the King decides"
    hp = gilbert.hp
    out = G.apply(s, "p0", f"save:c0:{king}" if passes else "save:c0:risk")
    made = next(e for e in out.events if e.kind == "save")
    assert made.data["passed"] is passes and made.data["save"] == kind
    after = out.state.party[0]
    penalised = hp - after.hp if step.fail.damage else 0
    got = {x.kind for x in after.statuses}
    if passes:
        assert penalised == 0 and not got and king in out.state.discard
    else:
        assert penalised == min(step.fail.damage, hp - 1) and got == {x.kind for x in step.fail.statuses}
        assert after.field == [king]
    assert out.state.phase == "opening", "the battle after the danger"


def test_the_shipped_scenarios_have_bosses_npcs_loot_and_rests():
    cat = load_catalogue()
    for sc in cat.scenarios.values():
        for area in sc.areas.values():
            if area.ending:
                boss = area.steps[-1]
                assert isinstance(boss, BattleStep)
                assert cat.enemies[boss.enemies[0].enemy].rank in ("boss", "mega_boss")
        kinds = {step.kind for step in sc.steps}
        assert {"battle", "save", "rest"} <= kinds, sc.name
        assert all(len(b.enemies) == 8 for b in sc.steps if isinstance(b, BattleStep)), \
            "one enemy per character, for parties of 1 to 8"


def test_the_rules_pages_explain_maps_and_route_votes():
    text = " ".join(p.body for p in G.rules_pages())
    assert "**Maps and route votes**" in text and "first seat" in text
    assert all(len(p.body) <= 4000 for p in G.rules_pages())
