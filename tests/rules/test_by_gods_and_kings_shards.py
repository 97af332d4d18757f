"""By Gods and Kings shards, gear and shard levels.

One test per shard ability, generated from the shipped content: a small battle in which the
first character wears only that shard fires the ability (Discard and Sacrifice through the
reaction path, spending a real card; hands through the deploy step), and every part of the
effect the content writes is checked on every target. Then the levels: thresholds, what a
level adds to abilities (synchronizations included) and to stats, the view, the validation.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from rules.by_gods_and_kings import cards
from rules.by_gods_and_kings.abilities import ability, synchronize
from rules.by_gods_and_kings.catalogue import cached_catalogue, load_catalogue
from rules.by_gods_and_kings.content import Effect
from rules.by_gods_and_kings.effects import lose, mitigated
from rules.by_gods_and_kings.levels import hero_shard_level, max_level, shard_level
from rules.by_gods_and_kings.reactions import react
from rules.by_gods_and_kings.state import BgkState, Held, Hero, Status
from rules.by_gods_and_kings.stats import max_hp, sheet, stat
from rules.by_gods_and_kings.turn import fire
from rules.by_gods_and_kings.view import build_view
from rules.core import ContentError, Event
from tests.rules.test_by_gods_and_kings import battle_state, put, skip_opening
from tests.rules.test_by_gods_and_kings_content import broken

CAT = cached_catalogue()
CASES = [(sid, ab.trigger) for sid, sh in CAT.shards.items() for ab in sh.abilities]
SPENT_CARD = "7s"
"""The card a Discard or Sacrifice spends (worth 7)."""
HAND_SPENT = 15
"""The value of the three Field cards a hand spends, in these tests."""


def xp_for(level: int) -> int:
    """The experience that makes a shard reach `level`."""
    return 0 if level == 1 else CAT.shard_levels[level - 2]


def arena(shard_id: str, level: int = 1) -> tuple[BgkState, Hero]:
    """A battle against the Kobold Chieftain (HP enough for any ability); Gilbert (c0) wears only
    this shard, at this level; Pierre (c1) wears none."""
    s = battle_state(["kobold-chieftain"], party=2)
    skip_opening(s)
    hero, other = s.party
    hero.shards, hero.equipped = [shard_id], [shard_id]
    hero.shard_xp = {shard_id: xp_for(level)}
    other.shards, other.equipped = [], []
    for h in s.party:
        h.hp = max_hp(s, h)
    return s, hero


def prepare(s: BgkState, hero: Hero, target: str, trigger: str) -> str | None:
    """Make the ability's targets worth it (wounds, a status to cleanse, a Field to wipe, room
    in the hand); returns the unit chosen (None: self, every foe, every ally)."""
    put(s, "e0", field=["2c", "3d"])
    for h in s.party:
        h.hp = 10
        h.statuses = [Status(kind="poison", amount=2, turns=2)]
    put(s, "c0", hand=[SPENT_CARD] if trigger == "discard" else [],
        field=[SPENT_CARD] if trigger == "sacrifice" else [])
    put(s, "c1", hand=["9h"], field=[])
    if target == "fallen":
        lose(s, s.party[1], s.party[1].hp, [], "a test")
    return {"foe": "e0", "ally": "c1", "fallen": "c1"}.get(target)


def targets_of(s: BgkState, hero: Hero, target: str) -> list[str]:
    return {"foe": ["e0"], "foes": [f.id for f in s.living_foes()], "ally": ["c1"], "fallen": ["c1"],
            "self": [hero.id], "allies": [h.id for h in s.living_allies()]}[target]


def fire_ability(s: BgkState, hero: Hero, shard_id: str, trigger: str, chosen: str | None) -> tuple[int, list[Event]]:
    """Fire it as the game does; returns the value of the cards spent."""
    events: list[Event] = []
    ab = ability(s, f"{shard_id}.{trigger}")
    aim = chosen or ("self" if ab.target == "self" else "all")
    if trigger in ("discard", "sacrifice"):
        react(s, s.seat_of(hero.id), {"ability": f"{hero.id}.{shard_id}.{trigger}", "card": SPENT_CARD,
                                      "target": aim}, events)
        return cards.value(SPENT_CARD), events
    s.phase, s.actor, s.queue, s.spent = "deploy", hero.id, [f"{shard_id}.{trigger}"], HAND_SPENT
    fire(s, f"{shard_id}.{trigger}", f"now.{aim}", events)
    return HAND_SPENT, events


def snapshot(s: BgkState, uid: str) -> dict[str, Any]:
    u = s.unit(uid)
    return {"hp": u.hp, "shield": u.shield, "def": stat(s, u, "defense"), "max": max_hp(s, u),
            "hand": len(getattr(u, "hand", [])), "field": list(u.field),
            "statuses": {x.kind for x in u.statuses}}


@pytest.mark.parametrize(("shard_id", "trigger"), CASES, ids=[f"{a}.{b}" for a, b in CASES])
def test_every_shard_ability_does_what_its_content_says(shard_id: str, trigger: str):
    s, hero = arena(shard_id)
    ab = ability(s, f"{shard_id}.{trigger}")
    effect: Effect = ab.effect
    chosen = prepare(s, hero, ab.target, trigger)
    extra_stat = stat(s, hero, effect.stat) if effect.stat else 0
    aimed = targets_of(s, hero, ab.target)
    before = {uid: snapshot(s, uid) for uid in ["c0", "c1", "e0"]}
    spent, events = fire_ability(s, hero, shard_id, trigger, chosen)
    assert any(e.kind == "ability" or ab.name in e.text for e in events)
    extra = extra_stat + (spent if effect.add_card else 0)
    checked = 0
    for uid in aimed:
        b, u = before[uid], s.unit(uid)
        if effect.damage:
            raw = effect.damage + extra
            dealt = raw if effect.pierce else mitigated(raw, b["def"])
            assert b["hp"] - u.hp == min(b["hp"], dealt), f"{uid}: damage"
            checked += 1
        if effect.revive:
            assert u.hp >= min(effect.revive, b["max"]) and b["hp"] == 0, f"{uid}: revived"
            if not effect.heal:
                assert u.hp == min(effect.revive, b["max"])
            checked += 1
        if effect.heal:
            start = min(effect.revive, b["max"]) if effect.revive else b["hp"]
            assert u.hp == min(max_hp(s, u), start + effect.heal + extra), f"{uid}: heal"
            checked += 1
        if effect.shield:
            assert u.shield == b["shield"] + effect.shield + extra, f"{uid}: shield"
            checked += 1
        if effect.cleanse:
            assert b["statuses"] and u.statuses == [], f"{uid}: cleansed"
            checked += 1
        for spec in effect.statuses:
            got = u.status(spec.kind)
            assert got is not None and (got.amount, got.turns) == (spec.amount, spec.turns), f"{uid}: {spec.kind}"
            checked += 1
        if effect.taunt:
            got = u.status("taunt")
            assert got is not None and (got.source, got.turns) == (hero.id, effect.taunt), f"{uid}: taunt"
            checked += 1
        if effect.draw:
            had = b["hand"] - (1 if trigger == "discard" and uid == hero.id else 0)
            assert len(getattr(u, "hand", [])) == min(cards.HAND_LIMIT, had + effect.draw), f"{uid}: draw"
            checked += 1
        if effect.wipe_field:
            assert b["field"] and u.field == [] and set(b["field"]) <= set(s.discard), f"{uid}: wipe"
            checked += 1
    assert checked, "the ability's effect was checked"
    for uid in {"c0", "c1", "e0"} - set(aimed):
        if uid == hero.id:
            continue
        assert s.unit(uid).hp == before[uid]["hp"], f"{uid} is not a target and keeps its HP"


# --- the content -------------------------------------------------------------------------------
def test_the_shards_of_the_content():
    shards = list(CAT.shards.values())
    assert len(shards) >= 26
    assert len({s.name for s in shards}) == len(shards), "names are unique"
    assert all(s.name.startswith("Shard of ") for s in shards)
    kinds = Counter(s.kind for s in shards)
    assert set(kinds) == {"shielding", "restorative", "manipulation", "damaging", "elemental"}
    assert min(kinds.values()) >= 4
    assert CAT.shards["cunning"].name == "Shard of Cunning" and CAT.shards["maji"].name == "Shard of the Maji"
    names = [a.name for s in shards for a in s.abilities]
    names += [x.name for x in CAT.syncs]
    assert len(names) == len(set(names)), "ability and synchronization names are unique"
    triggers = Counter(a.trigger for s in shards for a in s.abilities)
    assert set(triggers) == {"discard", "sacrifice", "flush", "straight", "three"}
    assert all(s.growth is not None for s in shards), "every shard grows with its levels"
    elementals = [s for s in shards if s.kind == "elemental"]
    assert {s.element for s in elementals} == set(CAT.elements)
    maji = CAT.shards["maji"].bonuses[0].ally_shard
    assert set(maji) == {s.id for s in elementals}, "the Maji's bonus counts every elemental shard"


def test_the_gear_of_the_content():
    items = list(CAT.items.values())
    weapons = [i for i in items if i.slot == "weapon"]
    for kind in ("sword", "spear", "axe", "greatsword", "runeblade", "scythe", "club", "staff", "bow",
                 "dagger"):
        mine = sorted((i for i in weapons if i.type == kind), key=lambda i: i.tier)
        assert {1, 2, 3} <= {i.tier for i in mine}, kind
        power = [i.stats.physical + i.stats.magic for i in mine]
        assert power == sorted(power) and len(set(power)) == len(power), f"{kind}: each tier is stronger"
    rusty = CAT.items["rusty-sword"]
    assert (rusty.tier, rusty.stats.physical, rusty.stats.magic) == (1, 4, 1)
    by_slot = Counter(i.slot for i in items)
    assert by_slot["body"] >= 3 and by_slot["head"] >= 3 and by_slot["shield"] >= 3 and by_slot["offhand"] >= 3
    for slot in ("body", "head"):
        armor = [i.stats for i in items if i.slot == slot]
        assert max(a.defense for a in armor) - min(a.defense for a in armor) >= 3, f"{slot}: light to heavy"
        assert any(a.spd < 0 for a in armor), f"heavy {slot} armor slows"
    # the rulebook's ranking at tier 1: axe > greatsword > spear (the strongest one-handed) > sword
    # > dagger (the weakest); the staff is the strongest magical weapon
    t1 = {i.type: i.stats for i in weapons if i.tier == 1}
    assert t1["axe"].physical > t1["greatsword"].physical > t1["spear"].physical > t1["sword"].physical
    assert min(w.physical + w.magic for w in t1.values()) == t1["dagger"].physical + t1["dagger"].magic
    assert t1["staff"].magic >= max(w.magic for w in t1.values())


# --- levels ------------------------------------------------------------------------------------
def test_level_thresholds():
    levels = CAT.shard_levels
    assert levels == sorted(levels) and levels[0] >= 1 and len(levels) >= 2
    assert shard_level(CAT, "fury", 0) == 1
    for i, need in enumerate(levels):
        assert shard_level(CAT, "fury", need - 1) == i + 1
        assert shard_level(CAT, "fury", need) == i + 2
    assert shard_level(CAT, "fury", levels[-1] * 10) == max_level(CAT) == len(levels) + 1
    s, hero = arena("fury", level=3)
    assert hero_shard_level(s.cat, hero, "fury") == 3
    hero.shard_xp = {}
    assert hero_shard_level(s.cat, hero, "fury") == 1, "no experience: level 1"


def measure(shard_id: str, trigger: str, level: int) -> dict[str, int]:
    """What the ability did to its first target at this level: damage, healing, shield, revival
    HP and the amounts of its statuses."""
    s, hero = arena(shard_id, level)
    ab = ability(s, f"{shard_id}.{trigger}")
    chosen = prepare(s, hero, ab.target, trigger)
    for h in s.party:
        h.hp = 1 if h.alive else 0
    uid = targets_of(s, hero, ab.target)[0]
    b = snapshot(s, uid)
    used = stat(s, hero, ab.effect.stat) if ab.effect.stat else 0
    fire_ability(s, hero, shard_id, trigger, chosen)
    u = s.unit(uid)
    out = {"damage": b["hp"] - u.hp if ab.effect.damage else 0,
           "heal": u.hp - b["hp"] if ab.effect.heal or ab.effect.revive else 0,
           "shield": u.shield - b["shield"], "stat": used}
    for spec in ab.effect.statuses:
        got = u.status(spec.kind)
        out[spec.kind] = got.amount if got else -1
    return out


def effect_of(shard_id: str, trigger: str) -> Effect:
    return next(a.effect for a in CAT.shards[shard_id].abilities if a.trigger == trigger)


def grows(shard_id: str, trigger: str) -> bool:
    """Whether the shard's growth changes this ability."""
    g, e = CAT.shards[shard_id].growth, effect_of(shard_id, trigger)
    if g is None:
        return False
    return bool((g.power and (e.scaled or e.revive)) or (g.status and any(x.amount for x in e.statuses)))


GROWN = [case for case in CASES if grows(*case)]


@pytest.mark.parametrize(("shard_id", "trigger"), GROWN, ids=[f"{a}.{b}" for a, b in GROWN])
def test_a_higher_level_adds_its_growth_to_the_ability(shard_id: str, trigger: str):
    growth = CAT.shards[shard_id].growth
    assert growth is not None
    low, high = measure(shard_id, trigger, 1), measure(shard_id, trigger, 3)
    effect = effect_of(shard_id, trigger)
    stat_gain = high["stat"] - low["stat"]
    if effect.stat:
        assert stat_gain == 2 * getattr(growth.equip, effect.stat), "the stat it adds grew too"
    step = 2 * growth.power + stat_gain
    expected = {"damage": step if effect.damage else 0,
                "heal": (step if effect.heal else 0) + (2 * growth.power if effect.revive else 0),
                "shield": step if effect.shield else 0}
    for key, value in expected.items():
        assert high[key] - low[key] == value, f"{key}: two levels of growth"
    for spec in effect.statuses:
        more = 2 * growth.status if spec.amount else 0
        assert high[spec.kind] - low[spec.kind] == more, spec.kind


@pytest.mark.parametrize("shard_id", sorted(CAT.shards))
def test_a_higher_level_adds_its_growth_to_the_stats(shard_id: str):
    growth = CAT.shards[shard_id].growth
    assert growth is not None
    s, hero = arena(shard_id, 1)
    low = sheet(s, hero)
    hero.shard_xp = {shard_id: xp_for(3)}
    high = sheet(s, hero)
    for f in ("hp", "defense", "physical", "magic", "spd"):
        assert getattr(high, f) - getattr(low, f) == 2 * getattr(growth.equip, f), f
    hero.equipped = []
    assert sheet(s, hero).hp == sheet(s, hero.model_copy(update={"shard_xp": {}})).hp, \
        "an unequipped shard adds nothing, whatever its level"


def test_level_one_is_the_content_as_written():
    s, hero = arena("fury", 1)
    assert hero.shard_xp == {"fury": 0}
    got = measure("fury", "straight", 1)
    raw = 10 + sheet(s, hero).physical
    assert got["damage"] == mitigated(raw, stat(s, s.foes[0], "defense")) and got["bleed"] == 4


def test_a_synchronization_adds_both_shards_growth_before_multiplying():
    def wildfire(flames: int, storms: int) -> int:
        s = battle_state(["kobold-chieftain"], party=2)
        skip_opening(s)
        gilbert, pierre = s.party
        gilbert.shard_xp, pierre.shard_xp = {"flames": xp_for(flames)}, {"storms": xp_for(storms)}
        pierre.held = Held(shard="storms", trigger="straight", target="e0", spent=15)
        s.spent = 19
        hp, armor = s.foes[0].hp, stat(s, s.foes[0], "defense")
        synchronize(s, gilbert, "flames.flush", pierre, "e0", [])
        raw = hp - s.foes[0].hp
        assert raw == mitigated(((10 + sheet(s, gilbert).physical) + (10 + sheet(s, pierre).physical)) * 3
                                + 3 * (2 * (flames - 1) + 2 * (storms - 1)), armor)
        return raw
    flames, storms = CAT.shards["flames"].growth, CAT.shards["storms"].growth
    assert flames is not None and storms is not None
    # the equip growth raises Physical too: compare raw damage against the formula above, and
    # check that the levels changed the outcome at all
    assert wildfire(2, 3) > wildfire(1, 1)


def test_the_view_shows_each_shards_level():
    s, hero = arena("fury", 2)
    view = build_view(s, "p0", [])
    assert view.party[0].shards == ["Shard of Fury (level 2)"]
    assert "Shard of Fury (level 2)" in view.model_dump_json()


def test_the_rules_pages_explain_levels():
    from rules.by_gods_and_kings.help import rules_pages
    pages = rules_pages()
    text = " ".join(p.body for p in pages)
    assert "level" in text and str(CAT.shard_levels[0]) in text
    assert all(len(p.body) <= 4000 for p in pages)
    shards_page = next(p for p in pages if p.title == "Shards")
    assert all(sh.name in shards_page.body for sh in CAT.shards.values()), "no shard cut off the page"


# --- validation ---------------------------------------------------------------------------------
def test_levels_must_increase(pack):
    text = broken(pack, "shards.yaml", lambda d: d.update(levels=[5, 5, 9]))
    assert "shards.yaml" in text and "at levels" in text and "must be more than" in text


def test_levels_must_be_positive(pack):
    text = broken(pack, "shards.yaml", lambda d: d.update(levels=[0, 4]))
    assert "at levels" in text and "at least 1" in text


def test_growth_of_power_needs_an_amount_to_raise(pack):
    at = list(CAT.shards).index("cunning")
    text = broken(pack, "shards.yaml", lambda d: d["shards"][at].update(growth={"power": 2}))
    assert f"at shards.{at}" in text and "growth.power" in text


def test_growth_of_status_needs_a_status_amount(pack):
    at = list(CAT.shards).index("storms")
    text = broken(pack, "shards.yaml", lambda d: d["shards"][at].update(growth={"status": 1}))
    assert f"at shards.{at}" in text and "growth.status" in text


def test_growth_that_raises_nothing(pack):
    text = broken(pack, "shards.yaml", lambda d: d["shards"][0].update(growth={"power": 0}))
    assert "at shards.0.growth" in text and "raises nothing" in text


def test_content_without_levels_keeps_every_shard_at_level_1(pack):
    from tests.rules.test_by_gods_and_kings_content import shipped, write
    data = shipped("shards.yaml")
    del data["levels"]
    write(pack, "shards.yaml", data)
    cat = load_catalogue()
    assert cat.shard_levels == [] and shard_level(cat, "fury", 10_000) == 1


def test_every_pair_of_elements_has_a_synchronization():
    pairs = {x.pair for x in CAT.syncs}
    for a in CAT.elements:
        for b in CAT.elements:
            assert tuple(sorted((a, b))) in pairs
    assert len(pairs) == len(CAT.elements) * (len(CAT.elements) + 1) // 2


def test_an_unknown_element_of_a_shard(pack):
    at = list(CAT.shards).index("gale")
    with pytest.raises(ContentError, match=rf"shards.yaml: at shards.{at}.element: unknown element 'aether'"):
        from tests.rules.test_by_gods_and_kings_content import shipped, write
        data = shipped("shards.yaml")
        data["shards"][at]["element"] = "aether"
        write(pack, "shards.yaml", data)
        load_catalogue()
