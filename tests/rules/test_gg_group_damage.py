"""Guilty Gods: a group support's "+1 damage" adds 1 to the whole move, not 1 per card, and every
text that shows it says so (issue 29, item 10)."""

from __future__ import annotations

from rules.guilty_gods.content import load_decks
from rules.guilty_gods.help import rules_pages
from tests.rules.test_guilty_gods import act, action, board, card

ROW = [
    card("R1", "attack", ["physical"], right="open"),
    card("R2", "attack", ["magical"], left="open", right="open"),
    card("R3", "attack", ["supernatural"], left="open"),
    card("RG", "attack", ["divine"], support={"scope": "group", "cost": 1, "effect": {"damage": 1}}),
    card("RI", "attack", ["divine"], support={"scope": "individual", "cost": 1,
                                               "effect": {"damage": 1}}),
]
WHOLE = "+1 damage to the whole move, not per card"


def test_a_group_plus_one_adds_one_to_a_three_card_combo_that_all_gets_through():
    s = board({"a": ["R1", "R2", "R3", "RG"]}, cards=ROW, seals={"a": 2}, phase="act")
    s, _ = act(s, "a", "attack.card:R1", "add.card:R2", "add.at:e", "add.card:R3", "add.at:e",
               "add.card:RG", "add.at:g", "go")
    s, _ = act(s, "b", "hit")
    assert s.tally.raw == [1, 1, 1], "each of the three cards gets through"
    skill = action(s, "a", "skill:group")
    assert WHOLE in skill.label
    s, ev = act(s, "a", "skill:group")
    [fired] = [e for e in ev if e.kind == "skill"]
    assert WHOLE in fired.text
    [dmg] = [e for e in ev if e.kind == "damage"]
    assert dmg.data["damage"] == 4 and s.seats["b"].gnosis == 6, "3 through the spheres + 1"


def test_the_texts_say_once_for_the_move_for_a_group_and_not_for_an_individual_support():
    group = next(c for c in ROW if c.id == "RG").support
    single = next(c for c in ROW if c.id == "RI").support
    assert WHOLE in group.describe() and WHOLE in group.text()
    assert "whole move" not in single.describe() and single.text() == "+1 damage"
    shipped = [c for d in load_decks().values() for c in d.creatures
               if c.support.scope == "group" and c.support.effect.damage]
    assert shipped, "the decks have group damage supports"
    pages = " ".join(p.body for p in rules_pages(load_decks()))
    for c in shipped:
        assert WHOLE in c.support.describe()
        assert f"support: {c.support.describe()}" in pages
    assert "1 more in all, not 3" in pages
