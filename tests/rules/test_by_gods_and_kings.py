"""By Gods and Kings battle rules: the Kobold example, the three saves, turn order with ties,
every status, death, revival and the wipe, Discard and Sacrifice on another's turn, elemental
synchronization, NPCs, the full Field, deploying abilities, camp.

The helpers build a battle from a scenario made for the test (registered as a content version
of its own, as a server's pack would be), then play single turns through the rules' own
functions and the game's actions.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.by_gods_and_kings import GAME as G
from rules.by_gods_and_kings import cards, flow
from rules.by_gods_and_kings.catalogue import CATALOGUES
from rules.by_gods_and_kings.content import ScenarioDef
from rules.by_gods_and_kings.effects import lose, mitigated, set_status, taunt
from rules.by_gods_and_kings.effects_model import StatusSpec
from rules.by_gods_and_kings.enemy import numbers
from rules.by_gods_and_kings.reactions import reaction_refs
from rules.by_gods_and_kings.state import BgkState, Held
from rules.by_gods_and_kings.stats import max_hp, sheet
from rules.core import Event, IllegalAction

KOBOLD_BATTLE: dict[str, Any] = {"kind": "battle", "name": "Test", "enemies": [{"enemy": "kobold"}]}


def scenario_state(steps: list[dict[str, Any]], party: int = 4, seats: int = 1, seed: int = 0,
                   options: dict[str, str] | None = None) -> BgkState:
    """A game playing a scenario made of these steps (followed by nothing)."""
    players = [f"p{i}" for i in range(seats)]
    s = G.setup(players, {"party": str(party), **(options or {})}, seed)
    cat = s.cat
    scenario = ScenarioDef.model_validate({"name": "A Test", "steps": steps})
    s.content = CATALOGUES.add(cat.model_copy(update={"scenarios": {**cat.scenarios, "test": scenario}}))
    s.scenario = "test"
    flow.restart(s)
    flow.begin_step(s, [])
    return s


def battle_state(enemies: list[str], party: int = 4, seats: int = 1, npcs: list[str] | None = None,
                 then_camp: bool = True, options: dict[str, str] | None = None) -> BgkState:
    steps = [{"kind": "battle", "name": "The Test", "enemies": [{"enemy": e} for e in enemies],
              "npcs": npcs or [], "loot": ["dawn"]}]
    if then_camp:
        steps.append(KOBOLD_BATTLE)
    return scenario_state(steps, party, seats, options=options)


def take(s: BgkState, card: str) -> str:
    """One copy of `card` out of the draw pile or the discard pile (or, failing those, out of a
    hand or a Field, where the bottom card of the draw pile takes its place)."""
    for pile in (s.deck, s.discard):
        if card in pile:
            pile.remove(card)
            return card
    units = [*s.party, *s.foes, *s.npcs]
    for unit in units:
        for pile in (getattr(unit, "hand", []), unit.field):
            if card in pile:
                swap = next(c for c in s.deck if c != card)
                s.deck.remove(swap)
                pile[pile.index(card)] = swap
                return card
    raise AssertionError(f"no {card} left")


def top(s: BgkState, *drawn: str) -> None:
    """The next cards drawn, in order."""
    for card in drawn:
        take(s, card)
    s.deck.extend(reversed(drawn))


def put(s: BgkState, uid: str, hand: list[str] | None = None, field: list[str] | None = None) -> None:
    """Replace a unit's hand and/or Field (the old cards go to the discard pile)."""
    unit = s.unit(uid)
    if hand is not None:
        s.discard.extend(unit.hand)  # type: ignore[union-attr]
        unit.hand = [take(s, c) for c in hand]  # type: ignore[union-attr]
    if field is not None:
        s.discard.extend(unit.field)
        unit.field = [take(s, c) for c in field]


def skip_opening(s: BgkState) -> None:
    """Every unit puts its last card on the Field; the first round has not begun."""
    for uid in list(s.opening):
        unit = s.unit(uid)
        unit.field.append(unit.hand.pop())  # type: ignore[union-attr]
    s.opening = []


def begin(s: BgkState, uid: str, order: list[str] | None = None) -> tuple[bool, list[Event]]:
    """Start `uid`'s turn in a round ordered so (default: it alone)."""
    b = s.battle
    assert b is not None
    b.round = max(b.round, 1)
    b.order = order or [uid]
    b.pos = b.order.index(uid)
    events: list[Event] = []
    decided = flow.start_turn(s, s.unit(uid), events)
    return decided, events


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def keys(s: BgkState, seat: str = "p0") -> list[str]:
    return [a.key for a in G.legal_actions(s, seat)]


# --- the Kobold example ---------------------------------------------------------------------
def test_the_kobold_example():
    """6 on its Field; a 3 picks the character holding 3; a King makes 16 and fires its ability."""
    s = battle_state(["kobold"], party=4)
    skip_opening(s)
    assert numbers(s) == [("c0", 1, 4), ("c1", 5, 7), ("c2", 8, 10), ("c3", 11, 13)]
    put(s, "e0", field=["6c"])
    top(s, "3d", "Kh")
    decided, events = begin(s, "e0")
    assert decided and s.phase == "enemy", "the blow is announced: the party could react"
    assert s.intent is not None
    assert (s.intent.target, s.intent.pick, s.intent.card, s.intent.ability) == ("c0", "3d", "Kh", 0)
    assert cards.total(s.foes[0].field) == 16
    assert "3♦ (3): it goes for Gilbert" in texts(events)
    assert "reaches 16 (threshold 15): Kobold Frenzy" in texts(events)
    assert G.to_act(s) == ["p0"]
    gilbert = s.party[0]
    hp = gilbert.hp
    out = G.apply(s, "p0", "land")
    after = out.state
    assert "Kobold uses Kobold Frenzy" in texts(out.events)
    frenzy = s.cat.enemies["kobold"].abilities[0]
    raw = frenzy.effect.damage + sheet(s, s.foes[0]).physical
    assert hp - after.party[0].hp == mitigated(raw, 11) == raw - 5, "through Gilbert's DEF 11"
    assert after.party[0].status("bleed") is not None
    assert after.foes[0].field == [] and {"6c", "Kh", "3d"} <= set(after.discard)


def test_the_kobold_attacks_when_its_field_stays_below_the_threshold_and_blows_may_land_at_once():
    s = battle_state(["kobold"], party=2, options={"blows": "fast"})
    skip_opening(s)
    put(s, "e0", field=[])
    top(s, "Qd", "4c")
    decided, events = begin(s, "e0")
    assert not decided and s.foes[0].field == ["4c"]
    pierre = s.party[1]
    assert numbers(s) == [("c0", 1, 7), ("c1", 8, 13)]
    assert "Q♦ (12): it goes for Pierre" in texts(events)
    raw = sheet(s, s.foes[0]).physical + 4
    assert sheet(s, pierre).hp - pierre.hp == mitigated(raw, 7) == raw - 3


# --- saves -----------------------------------------------------------------------------------------
def save_scene(save: str, target: int, fail: dict[str, Any]) -> BgkState:
    step = {"kind": "save", "name": "A Danger", "save": save, "target": target, "fail": fail}
    s = scenario_state([step, KOBOLD_BATTLE], party=3)
    assert s.phase == "save" and s.saving == ["c0", "c1", "c2"]
    return s


def test_gilbert_sacrifices_a_7_for_an_agility_save_of_18():
    s = save_scene("agility", 18, {"damage": 20})
    put(s, "c0", field=["7c"])
    gilbert = s.party[0]
    assert sheet(s, gilbert).spd == 11
    acts = {a.key: a.label for a in G.legal_actions(s, "p0")}
    assert acts["save:c0:7c"] == "Gilbert: sacrifice 7♣ (18)"
    out = G.apply(s, "p0", "save:c0:7c")
    made = [e for e in out.events if e.kind == "save"][0]
    assert made.data["passed"] and made.data["total"] == 18
    after = out.state
    assert after.party[0].hp == gilbert.hp and after.party[0].field == []
    assert "7c" in after.discard
    assert after.saving == ["c1", "c2"]


def test_pierre_with_an_empty_field_fails_a_defensive_save_of_18_and_takes_15_a_turn_for_3_turns():
    s = save_scene("defensive", 18, {"statuses": [{"kind": "poison", "amount": 15, "turns": 3}]})
    pierre = s.party[1]
    assert sheet(s, pierre).defense == 7 and pierre.field == []
    assert [k for k in keys(s) if k.startswith("save:c1")] == ["save:c1:risk"]
    s = G.apply(s, "p0", "save:c1:risk").state
    poison = s.party[1].status("poison")
    assert poison is not None and (poison.amount, poison.turns) == (15, 3)
    for key in ("save:c0:risk", "save:c2:risk"):
        s = G.apply(s, "p0", key).state
    assert s.phase == "opening", "the battle after the scene"
    skip_opening(s)
    pierre = s.party[1]
    full = pierre.hp
    for _turn in range(3):
        begin(s, "c1")
        flow.finish_turn(s, pierre)
    assert full - pierre.hp == 45 and pierre.status("poison") is None
    begin(s, "c1")
    assert full - pierre.hp == 45


def test_helga_passes_a_magical_save_of_11_without_sacrificing():
    s = save_scene("magical", 11, {"damage": 30})
    put(s, "c2", field=["9h"])
    assert sheet(s, s.party[2]).magic == 14
    out = G.apply(s, "p0", "save:c2:risk")
    made = [e for e in out.events if e.kind == "save"][0]
    assert made.data["passed"] and made.data["total"] == 14
    assert out.state.party[2].field == ["9h"]


def test_a_failed_save_never_takes_the_last_hp():
    s = save_scene("agility", 60, {"damage": 200})
    s = G.apply(s, "p0", "save:c0:risk").state
    assert s.party[0].hp == 1


# --- turn order ------------------------------------------------------------------------------------
def test_turn_order_by_spd_characters_win_ties_with_enemies_and_choose_among_themselves():
    s = battle_state(["kobold", "giant-rat"], party=8, seats=2)
    skip_opening(s)
    # SPD: Pierre 13, Wilma 12 = Giant Rat 12, Gilbert 11, Sable 10, Brann 9, Helga 8 = Kobold 8,
    # Maelis 7, Osric 6. Freeze Gilbert down to Sable's 10.
    set_status(s.party[0], StatusSpec(kind="freeze", amount=1, turns=2), [])
    events: list[Event] = []
    flow.begin_round(s, events)
    assert s.phase == "order" and s.battle is not None
    names = [s.unit(u).name for u in s.battle.order]
    assert names == ["Pierre", "Wilma", "Giant Rat", "Gilbert", "Sable", "Brann", "Helga", "Kobold",
                     "Maelis", "Osric"]
    assert G.to_act(s) == ["p0"], "Gilbert's player chooses (first of the tied in party order)"
    assert sorted(k for k in keys(s) if not k.startswith("use.")) == ["first:c0", "first:c7"]
    s = G.apply(s, "p0", "first:c7").state
    assert s.battle is not None
    order = [s.unit(u).name for u in s.battle.order]
    assert order.index("Sable") < order.index("Gilbert")
    assert s.phase != "order"


def test_ties_between_characters_follow_party_order_with_the_option():
    s = battle_state(["kobold"], party=8, options={"ties": "order"})
    skip_opening(s)
    set_status(s.party[0], StatusSpec(kind="freeze", amount=1, turns=2), [])
    flow.begin_round(s, [])
    assert s.phase != "order" and s.battle is not None
    order = s.battle.order
    assert order.index("c0") < order.index("c7")


# --- statuses ----------------------------------------------------------------------------------------
def test_bleed_and_poison_strike_at_the_start_of_each_turn_and_end():
    s = battle_state(["kobold"], party=1)
    skip_opening(s)
    gilbert, kobold = s.party[0], s.foes[0]
    set_status(gilbert, StatusSpec(kind="bleed", amount=4, turns=2), [])
    set_status(kobold, StatusSpec(kind="poison", amount=5, turns=1), [])
    hp = gilbert.hp
    begin(s, "c0")
    assert hp - gilbert.hp == 4
    flow.finish_turn(s, gilbert)
    begin(s, "c0")
    flow.finish_turn(s, gilbert)
    assert hp - gilbert.hp == 8 and not gilbert.statuses
    khp = kobold.hp
    s.options["blows"] = "fast"
    begin(s, "e0")
    assert khp - kobold.hp == 5 and kobold.status("poison") is None


@pytest.mark.parametrize("kind,stat", [("burn", "defense"), ("petrify", "physical"),
                                       ("freeze", "spd"), ("choke", "magic")])
def test_stat_downs(kind, stat):
    s = battle_state(["kobold"], party=1)
    gilbert, kobold = s.party[0], s.foes[0]
    for unit in (gilbert, kobold):
        before = getattr(sheet(s, unit), stat)
        set_status(unit, StatusSpec(kind=kind, amount=1, turns=2), [])
        assert getattr(sheet(s, unit), stat) == max(0, before - 1)
    set_status(gilbert, StatusSpec(kind=kind, amount=50, turns=2), [])
    assert getattr(sheet(s, gilbert), stat) == 0, "a stat never drops below 0"


def test_stun_means_no_draw_and_never_touches_enemies_or_npcs():
    s = battle_state(["kobold"], party=1, npcs=["tam"])
    skip_opening(s)
    gilbert = s.party[0]
    set_status(gilbert, StatusSpec(kind="stun", amount=0, turns=1), [])
    n = len(gilbert.hand)
    decided, events = begin(s, "c0")
    assert decided and s.phase == "play" and len(gilbert.hand) == n
    assert "stunned" in texts(events)
    for uid in ("e0", "n0"):
        events = []
        for kind in ("stun", "paralyze"):
            set_status(s.unit(uid), StatusSpec(kind=kind, turns=2), events)
        assert not s.unit(uid).statuses and "cannot be stunned" in texts(events)


def test_paralyze_means_no_play_but_discard_and_sacrifice_still_work():
    s = battle_state(["kobold"], party=1)
    skip_opening(s)
    gilbert = s.party[0]
    set_status(gilbert, StatusSpec(kind="paralyze", turns=1), [])
    n = len(gilbert.hand)
    decided, events = begin(s, "c0")
    assert not decided and "paralyzed" in texts(events)
    assert len(gilbert.hand) == n + 1, "it still draws"
    assert gilbert.status("paralyze") is None, "it lasted one turn"
    set_status(gilbert, StatusSpec(kind="paralyze", turns=2), [])
    assert [ref for _, ref, _ in reaction_refs(s, "p0")] == ["bulwark.discard"]


def test_sleep_skips_the_turn():
    s = battle_state(["kobold"], party=1)
    skip_opening(s)
    gilbert = s.party[0]
    set_status(gilbert, StatusSpec(kind="sleep", turns=1), [])
    n = len(gilbert.hand)
    decided, events = begin(s, "c0")
    assert not decided and len(gilbert.hand) == n and "asleep" in texts(events)


@pytest.mark.parametrize("flip,misses", [("9c", True), ("Kd", True), ("8c", False), ("Ah", False)])
def test_blind_flips_the_top_card_and_9_to_king_misses(flip, misses):
    s = battle_state(["kobold-chieftain"], party=1)
    skip_opening(s)
    gilbert = s.party[0]
    set_status(gilbert, StatusSpec(kind="blind", turns=1), [])
    put(s, "c0", hand=["5c"])
    top(s, flip, "2d")
    decided, _ = begin(s, "c0")
    assert decided and gilbert.miss is misses and flip in s.discard
    s = G.apply(s, "p0", "play.card:5c").state
    hp = s.foes[0].hp
    out = G.apply(s, "p0", "atk:e0")
    assert (out.state.foes[0].hp == hp) is misses
    assert ("misses" in texts(out.events)) is misses


def test_numb_stops_abilities_of_characters_and_enemies():
    s = battle_state(["kobold"], party=1)
    skip_opening(s)
    gilbert = s.party[0]
    put(s, "c0", hand=["Kh"], field=["2h", "7h"])
    set_status(gilbert, StatusSpec(kind="numb", turns=1), [])
    assert reaction_refs(s, "p0") == []
    top(s, "3c")
    begin(s, "c0")
    s = G.apply(s, "p0", "play.card:Kh").state
    assert cards.hands(s.party[0].field) == ["flush"]
    assert "deploy" not in keys(s), "numbed: no Flush ability"
    s = battle_state(["kobold"], party=1, options={"blows": "fast"})
    skip_opening(s)
    put(s, "e0", field=["6c"])
    set_status(s.foes[0], StatusSpec(kind="numb", turns=1), [])
    top(s, "3d", "Kh")
    _, events = begin(s, "e0")
    assert "basic attack" in texts(events) and s.foes[0].field == ["6c", "Kh"]


def test_taunt_skips_the_target_card():
    s = battle_state(["kobold"], party=4, options={"blows": "fast"})
    skip_opening(s)
    taunt(s.party[3], s.foes[0], 2, [])
    top(s, "4c", "2d")
    _, events = begin(s, "e0")
    assert "taunted and turns on Wilma" in texts(events)
    assert s.foes[0].field[-1] == "4c", "no target card was drawn"


# --- death, revival, the wipe ---------------------------------------------------------------------------
def test_a_fallen_character_does_nothing_and_gets_up_after_the_battle_with_its_field_wiped():
    s = battle_state(["kobold"], party=2)
    skip_opening(s)
    gilbert = s.party[0]
    put(s, "c0", hand=["5c", "6c"], field=["2h", "7h"])
    events: list[Event] = []
    lose(s, gilbert, gilbert.hp, events, "a test")
    assert not gilbert.alive and "falls" in texts(events)
    assert reaction_refs(s, "p0") == [] or all(h.id != "c0" for h, _, _ in reaction_refs(s, "p0"))
    flow.begin_round(s, [])
    assert s.battle is None or "c0" not in s.battle.order
    lose(s, s.foes[0], s.foes[0].hp, events, "a test")
    assert flow.battle_over(s, events)
    gilbert = s.party[0]
    assert gilbert.hp == 1 and gilbert.field == [] and gilbert.hand == ["5c", "6c"]
    assert {"2h", "7h"} <= set(s.discard)
    assert s.phase == "camp" and s.stash == ["dawn"]


def test_a_shard_revives_a_fallen_character_who_keeps_its_field():
    s = battle_state(["kobold-chieftain"], party=3)
    skip_opening(s)
    gilbert = s.party[0]
    put(s, "c0", field=["2h", "7h"])
    lose(s, gilbert, gilbert.hp, [], "a test")
    put(s, "c2", hand=["5s"], field=["5c", "5d"])
    top(s, "2c")
    begin(s, "c2")
    s = G.apply(s, "p0", "play.card:5s").state
    s = G.apply(s, "p0", "deploy").state
    assert s.phase == "deploy" and s.queue == ["mercy.three", "maji.three"]
    # one fallen character: choosing the ability aims it
    s = G.apply(s, "p0", "fire.ability:mercy.three").state
    assert s.queue == ["maji.three"]
    gilbert = s.party[0]
    assert gilbert.hp == 25 and gilbert.field == ["2h", "7h"]


def test_the_wipe_loses_the_loot_and_starts_the_scenario_over():
    s = battle_state(["kobold"], party=2)
    skip_opening(s)
    s.stash = ["fine-sword"]
    s.party[0].bag.append("iron-helm")
    events: list[Event] = []
    for h in s.party:
        lose(s, h, h.hp, events, "a test")
    assert flow.battle_over(s, events)
    assert s.attempt == 2 and s.step == 0 and s.stash == [] and s.phase == "opening"
    assert [h.hp for h in s.party] == [max_hp(s, h) for h in s.party]
    assert "iron-helm" not in s.party[0].bag
    assert s.count_cards() == 52
    assert G.result(s) is None


def test_the_last_attempt_lost_ends_the_game():
    s = battle_state(["kobold"], party=2, options={"attempts": "1"})
    skip_opening(s)
    for h in s.party:
        lose(s, h, h.hp, [], "a test")
    flow.battle_over(s, [])
    result = G.result(s)
    assert result is not None and result.winners == [] and result.tags["outcome"] == "defeat"
    assert G.to_act(s) == [] and G.may_act(s) == []


# --- Discard and Sacrifice at any moment -------------------------------------------------------------------
def test_discard_on_an_enemys_turn_shields_the_target_before_the_blow_lands():
    s = battle_state(["kobold"], party=2, seats=2)
    skip_opening(s)
    put(s, "c0", hand=["8s"])
    put(s, "e0", field=[])
    top(s, "Jd", "9c")
    decided, _ = begin(s, "e0")
    assert decided and s.intent is not None and s.intent.target == "c1"
    assert G.to_act(s) == ["p1"] and G.may_act(s) == ["p0"]
    # Gilbert has one reaction and one card: only the target is left to choose
    acts = {a.key: a.label for a in G.legal_actions(s, "p0")}
    assert acts == {"use.target:c0": "Brace: on Gilbert", "use.target:c1": "Brace: on Pierre"}
    s = G.apply(s, "p0", "use.target:c1").state
    pierre = s.party[1]
    assert pierre.shield == 6 + 8 and s.party[0].hand == [] and "8s" in s.discard
    hp = pierre.hp
    s = G.apply(s, "p1", "land").state
    dealt = mitigated(sheet(s, s.foes[0]).physical + 9, 7)
    assert s.party[1].shield == max(0, 14 - dealt) and hp - s.party[1].hp == max(0, dealt - 14)


def test_sacrifice_on_another_characters_turn():
    s = battle_state(["kobold"], party=3, seats=2)
    skip_opening(s)
    pierre = s.party[1]
    pierre.hp -= 30
    put(s, "c2", field=["9d", "4c"])
    begin(s, "c0")
    assert s.phase == "play" and G.to_act(s) == ["p0"]
    # Helga (third character) belongs to the first seat too: its reactions sit beside the turn
    assert "use.ability:c2.mercy.sacrifice" in keys(s, "p0")
    s = G.apply(s, "p0", "use.ability:c2.mercy.sacrifice").state
    assert s.phase == "play" and "use.card:9d" in keys(s, "p0")
    s = G.apply(s, "p0", "use.card:9d").state
    s = G.apply(s, "p0", "use.target:c1").state
    assert s.party[1].hp == pierre.hp + 6 + 9 and s.party[2].field == ["4c"]
    assert s.buildings == {} and s.phase == "play"


def test_reactions_can_be_backed_out_of():
    s = battle_state(["kobold"], party=3)
    skip_opening(s)
    put(s, "c2", field=["9d", "4c"])
    begin(s, "c0")
    s = G.apply(s, "p0", "use.ability:c2.mercy.sacrifice").state
    s = G.apply(s, "p0", "use.card:9d").state
    assert "use.back" in keys(s)
    s = G.apply(s, "p0", "use.back").state
    assert any(k.startswith("use.card:") for k in keys(s))
    s = G.apply(s, "p0", "use.back").state
    assert s.buildings == {} and any(k.startswith("play.card:") for k in keys(s))


# --- playing a turn ------------------------------------------------------------------------------------------
def test_a_full_field_pushes_a_card_of_the_players_choice():
    s = battle_state(["kobold"], party=1)
    skip_opening(s)
    put(s, "c0", hand=["5s"], field=["2c", "9d", "Jh"])
    top(s, "3c")
    begin(s, "c0")
    s = G.apply(s, "p0", "play.card:5s").state
    assert sorted(keys(s)) == ["play.back", "play.out:2c", "play.out:9d", "play.out:Jh"]
    s = G.apply(s, "p0", "play.out:9d").state
    assert s.party[0].field == ["2c", "Jh", "5s"] and "9d" in s.discard and s.phase == "resolve"


def test_a_hand_may_fire_its_abilities_or_be_declined_for_a_basic_attack():
    s = battle_state(["kobold-chieftain"], party=1)
    skip_opening(s)
    put(s, "c0", hand=["Kh"], field=["2h", "7h"])
    top(s, "3c")
    begin(s, "c0")
    s = G.apply(s, "p0", "play.card:Kh").state
    acts = {a.key: a.label for a in G.legal_actions(s, "p0")}
    assert acts["deploy"] == "Fire Flame Blade" and acts["atk:e0"] == "Hit Kobold Chieftain with K♥ + Physical (18 before DEF)"
    declined = G.apply(s, "p0", "atk:e0").state
    assert declined.party[0].field == ["2h", "7h", "Kh"]
    s = G.apply(s, "p0", "deploy").state
    assert s.party[0].field == [] and s.spent == 19
    hp = s.foes[0].hp
    out = G.apply(s, "p0", "fire.how:now.e0")
    assert hp - out.state.foes[0].hp == mitigated(10 + 8, sheet(s, s.foes[0]).defense)
    assert out.state.foes[0].status("burn") is not None


def test_several_abilities_fire_in_the_order_chosen():
    s = battle_state(["kobold-chieftain"], party=2)
    skip_opening(s)
    put(s, "c1", hand=["6h"], field=["4h", "5h"])
    top(s, "3c")
    begin(s, "c1")
    s = G.apply(s, "p0", "play.card:6h").state
    assert cards.hands(s.party[1].field) == ["flush", "straight"]
    s = G.apply(s, "p0", "deploy").state
    assert s.queue == ["storms.straight", "storms.flush", "cunning.straight"]
    out = G.apply(s, "p0", "fire.ability:cunning.straight")    # one foe: aimed at once
    s = out.state
    assert "Sleight" in texts(out.events) and s.queue == ["storms.straight", "storms.flush"]
    s = G.apply(s, "p0", "fire.ability:storms.flush").state
    s = G.apply(s, "p0", "fire.how:now.all").state
    assert s.queue == ["storms.straight"]
    out = G.apply(s, "p0", "fire.how:now.e0")
    assert "Thunder Arrow" in texts(out.events)
    assert out.state.battle is not None and out.state.battle.round == 2, "the turn is over"


# --- elemental synchronization ---------------------------------------------------------------------------------
def test_a_held_arrow_and_a_sword_strike_together_for_three_fold_damage():
    s = battle_state(["kobold-chieftain"], party=2)
    skip_opening(s)
    put(s, "c1", hand=["6c"], field=["4c", "5d"])
    put(s, "c0", hand=["Kh"], field=["2h", "7h"])
    top(s, "3s", "2s")
    begin(s, "c1", order=["c1", "c0", "e0"])
    s = G.apply(s, "p0", "play.card:6c").state
    s = G.apply(s, "p0", "deploy").state
    assert s.queue == ["storms.straight", "cunning.straight"]
    s = G.apply(s, "p0", "fire.ability:storms.straight").state
    assert "fire.how:hold.e0" in keys(s)
    s = G.apply(s, "p0", "fire.how:hold.e0").state
    assert s.party[1].held is not None and s.party[1].held.ref == "storms.straight"
    s = G.apply(s, "p0", "fire.how:now.e0").state           # Sleight, the last one
    assert s.actor == "c0" and s.phase == "play"
    s = G.apply(s, "p0", "play.card:Kh").state
    s = G.apply(s, "p0", "deploy").state
    acts = {a.key: a.label for a in G.legal_actions(s, "p0")}
    assert acts["fire.how:sync.c1.e0"].startswith("Wildfire ×3: with Pierre's Thunder Arrow")
    hp, armor = s.foes[0].hp, sheet(s, s.foes[0]).defense
    out = G.apply(s, "p0", "fire.how:sync.c1.e0")
    after = out.state
    gilbert, pierre = sheet(after, after.party[0]), sheet(after, after.party[1])
    raw = ((10 + gilbert.physical) + (10 + pierre.physical)) * 3
    assert hp - after.foes[0].hp == min(hp, mitigated(raw, armor))
    assert after.party[1].held is None
    assert "Wildfire" in texts(out.events)


def test_a_held_ability_nobody_released_fires_alone_at_its_holders_next_turn():
    s = battle_state(["kobold-chieftain"], party=2)
    skip_opening(s)
    s.party[1].held = Held(shard="storms", trigger="straight", target="e0", spent=15)
    hp = s.foes[0].hp
    _, events = begin(s, "c1")
    assert "Thunder Arrow (held)" in texts(events) or "Thunder Arrow" in texts(events)
    assert s.party[1].held is None
    assert hp - s.foes[0].hp == mitigated(10 + sheet(s, s.party[1]).physical, sheet(s, s.foes[0]).defense)
    assert s.foes[0].status("numb") is not None


def test_every_pair_of_elements_synchronizes():
    cat = G.setup(["p0"], {}, 0).cat
    for a in cat.elements:
        for b in cat.elements:
            assert cat.sync(a, b).multiplier >= 2


# --- NPCs --------------------------------------------------------------------------------------------------------
def test_the_administrator_plays_an_npcs_card_and_target_and_it_fires_at_its_threshold():
    s = battle_state(["kobold"], party=2, seats=2, npcs=["tam"])
    skip_opening(s)
    put(s, "n0", hand=["Kh", "2c"], field=["6c"])
    top(s, "3d")
    decided, _ = begin(s, "n0")
    assert decided and s.phase == "npc" and G.to_act(s) == ["p0"]
    labels = {a.key: a.label for a in G.legal_actions(s, "p0")}
    assert "fires Pickaxe Swing" in labels["npc.card:Kh"]
    hp = s.foes[0].hp
    out = G.apply(s, "p0", "npc.card:Kh")
    after = out.state
    assert "Pickaxe Swing" in texts(out.events)
    assert hp - after.foes[0].hp == mitigated(8 + 5, 2)
    assert after.npcs[0].field == []
    assert ("n0", 11, 13) in numbers(after) or any(u == "n0" for u, _, _ in numbers(after))


# --- camp -------------------------------------------------------------------------------------------------------
def test_camp_loot_shards_only_between_battles_and_at_most_three():
    s = battle_state(["kobold"], party=3, seats=2)
    skip_opening(s)
    assert not any(k.startswith(("shard:", "unshard:", "claim:")) for k in keys(s))
    lose(s, s.foes[0], s.foes[0].hp, [], "a test")
    flow.battle_over(s, [])
    assert s.phase == "camp" and G.to_act(s) == ["p0", "p1"]
    assert "claim:dawn:c0" in keys(s, "p0") and "claim:dawn:c1" in keys(s, "p1")
    s = G.apply(s, "p0", "claim:dawn:c0").state
    assert "dawn" in s.party[0].shards and "dawn" not in s.party[0].equipped
    s = G.apply(s, "p0", "shard:c0:dawn").state
    assert len(s.party[0].equipped) == 3
    s.party[0].shards.append("echoes")
    assert "shard:c0:echoes" not in keys(s), "at most three shards"
    s.party[0].shards.remove("echoes")
    s = G.apply(s, "p0", "unshard:c0:flames").state
    assert sheet(s, s.party[2]).magic == 14, "Pierre's Shard of Storms still counts"
    s = G.apply(s, "p1", "unshard:c1:storms").state
    assert sheet(s, s.party[2]).magic == 11, "the Maji's bonus needs another's elemental shard"
    s = G.apply(s, "p0", "ready").state
    s = G.apply(s, "p1", "ready").state
    assert s.step == 1 and s.battle is not None, "the next battle (Fields carried over: no opening)"
    assert s.stash == []


# --- seats and options ----------------------------------------------------------------------------------------
def test_characters_are_dealt_round_the_seats_and_every_seat_gets_one():
    s = G.setup(["a", "b", "c"], {"party": "7"}, 1)
    assert [h.seat for h in s.party] == ["a", "b", "c", "a", "b", "c", "a"]
    assert G.seat_label(s, "a") == "Gilbert, Wilma, Brann"
    assert len(G.setup(["a"], {}, 1).party) == 4, "by default four characters"
    assert len(G.setup([f"p{i}" for i in range(6)], {}, 1).party) == 6, "or one per seat"
    with pytest.raises(IllegalAction, match="cannot give each"):
        G.setup(["a", "b", "c"], {"party": "2"}, 1)
    with pytest.raises(IllegalAction):
        G.setup(["a"], {"party": "9"}, 1)
    assert G.min_players == 1 and G.max_players == 8 and G.has_private_view and G.id == "by-gods-and-kings"


def test_the_opening_deal_draws_five_and_each_character_puts_one_on_its_field():
    s = G.setup(["a", "b"], {"party": "3"}, 2)
    assert s.phase == "opening" and s.opening == ["c0", "c1", "c2"]
    assert all(len(h.hand) == 5 and h.field == [] for h in s.party)
    assert G.to_act(s) == ["a", "b"]
    card = s.party[0].hand[0]
    s = G.apply(s, "a", f"open:c0:{card}").state
    assert s.party[0].field == [card] and len(s.party[0].hand) == 4


def test_enemy_hp_follows_the_party_size():
    from rules.by_gods_and_kings.stats import SMALL_PARTY_HP, scaled_hp

    kobold, chief = (G.setup(["p0"], {}, 0).cat.enemies[x].hp for x in ("kobold", "kobold-chieftain"))
    for party in (1, 2, 3):
        s = battle_state(["kobold", "kobold-chieftain"], party=party)
        assert [f.hp for f in s.foes] == [-(-kobold * SMALL_PARTY_HP[party] // 100),
                                          -(-chief * SMALL_PARTY_HP[party] // 100)]
    for party in (4, 8):
        s = battle_state(["kobold", "kobold-chieftain"], party=party)
        assert [f.hp for f in s.foes] == [kobold, scaled_hp(chief, "boss", party)]
    assert scaled_hp(380, "boss", 4) == 380 and scaled_hp(380, "boss", 8) == 718
