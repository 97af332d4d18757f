"""The Guilty Gods automatic player uses what issue 29 (item 9) found unused: a support that opens
a closed slot (Shade Hound's, Fern Sentinel's, Veil Stalker's) and Astraega's Protection."""

from __future__ import annotations

from rules.core import Rng
from rules.guilty_gods import GAME as G
from rules.guilty_gods import planner, policy
from rules.guilty_gods.planner import Plan, rows
from rules.guilty_gods.state import GgState
from tests.rules.test_guilty_gods import act, board, card

OPENER = {"scope": "individual", "cost": 1, "automatic": True, "effect": {"open_slots": True}}
CARDS = [
    card("K1", "attack", ["physical", "magical", "supernatural"], left="closed", right="closed"),
    card("K2", "attack", ["divine"], left="open", right="closed"),
    card("KH", "attack", ["magical"], support=OPENER),
]


def _rows(s: GgState, seals: int) -> list[planner.Shape]:
    return list(rows(s, "a", "attack", seals, planner.MAX_ROW))


def test_the_search_opens_a_closed_slot_with_a_support_it_can_pay():
    s = board({"a": ["K1", "K2", "KH"]}, cards=CARDS, phase="act", seals={"a": 1})
    joined = [x for x in _rows(s, 1) if [c.id for c in x.cards] == ["K1", "K2"]]
    assert len(joined) == 1
    [shape] = joined
    assert {i: c.id for i, c in shape.supports.items()} == {0: "KH"} and shape.cost == 1
    # the support goes under K1 before K2 joins through the slot it opens
    assert shape.steps() == [("K1", "row"), ("KH", "s0"), ("K2", "e")]
    assert not [x for x in _rows(s, 0) if len(x.cards) > 1], "no seal: no opener, no combo"
    # without the opener in hand the two cards never join
    s2 = board({"a": ["K1", "K2"]}, cards=CARDS, phase="act", seals={"a": 1})
    assert not [x for x in _rows(s2, 1) if len(x.cards) > 1]


def test_the_automatic_player_clicks_such_a_plan_through_to_the_table():
    s = board({"a": ["K1", "K2", "KH"]}, cards=CARDS, phase="act", seals={"a": 1})
    [shape] = [x for x in _rows(s, 1) if [c.id for c in x.cards] == ["K1", "K2"]]
    plan = Plan(steps=shape.steps(), cost=shape.cost, value=1.0)
    for _ in range(12):
        key = planner.next_key(s, "a", plan, "renew.keep:none")
        s, _ = act(s, "a", key)
        if key == "go":
            break
    assert s.attack is not None and [p.card for p in s.attack.row] == ["K1", "K2"]
    assert s.attack.row[0].support == "KH" and s.seats["a"].seals == 0


def _low_lilium(gnosis: int, seals: int) -> GgState:
    # a weak hand (one one-sphere attack card): no plan worth Chain of Actions
    return board({"a": ["L01", "L03", "L03"], "b": ["U01"] * 5}, seals={"a": seals},
                 gnosis={"a": gnosis}, phase="summoner")


def test_protection_is_worth_nothing_when_it_cannot_be_paid_or_the_initiative_comes_back():
    s = _low_lilium(3, 2)
    assert policy.protection_value(s, "a", Plan(cost=0), 2, 1) > 1.0
    assert policy.protection_value(s, "a", Plan(cost=1), 2, 1) == 0.0, "1 seal left after the move"
    assert policy.protection_value(s, "a", Plan(cost=0, chain=True), 2, 1) == 0.0
    high = _low_lilium(10, 2)
    assert 0.0 < policy.protection_value(high, "a", Plan(cost=0), 2, 1) < 1.0


def test_near_death_with_seals_for_protection_the_automatic_player_summons_astraega():
    assert policy.choose_summoner(_low_lilium(3, 2), "a") == "astraega"
    assert policy.choose_summoner(_low_lilium(3, 1), "a") != "astraega", "Protection unpaid"
    # and then, attacked for the last of its Gnosis, it fires Protection
    s = _low_lilium(2, 2)
    s, _ = act(s, "a", "summon.who:astraega")
    s.current, s.phase = 1, "act"
    s.seats["b"].summoner = None
    s, _ = act(s, "b", "attack.card:U01", "go")
    s, _ = act(s, "a", "hit")
    assert s.phase == "skills" and s.skill_player == "a"
    assert G.auto_action(s, "a", Rng(seed=1)).key == "skill:protect"
