"""Guilty Gods' words at the table and in the hand: every cost given, the sphere letters spelled
out and written one way everywhere, skills named in words."""

from __future__ import annotations

import re

from bot.render.base import RenderContext
from bot.render.guilty_gods import LEGEND, GuiltyGodsRenderer, creature_line
from bot.render.panel import to_text
from rules.core import Rng
from rules.guilty_gods import GAME
from rules.guilty_gods.content import load_decks
from rules.guilty_gods.help import card_line

RENDERER = GuiltyGodsRenderer(GAME)


def _cards():
    return [c for d in load_decks().values() for c in d.creatures]


def _play(until, seeds=range(12), steps=1500):
    """The first (state, view, events of the last move) of random duels where `until` holds."""
    for seed in seeds:
        s = GAME.setup(["a", "b"], {}, seed)
        rng = Rng(seed=seed + 70)
        events: list = []
        for _ in range(steps):
            if s.phase == "over":
                break
            view = GAME.view(s, None)
            if until(s, view, events):
                return s, view, events
            p = rng.choice(GAME.to_act(s))
            out = GAME.apply(s, p, GAME.auto_action(s, p, rng).key)
            s, events = out.state, out.events
    raise AssertionError("never happened")


def test_the_hand_gives_every_cost():
    automatic = [c for c in _cards() if c.support.automatic]
    by_level = [c for c in _cards() if c.support.cost == "N"]
    assert automatic and by_level
    for card in _cards():
        line = creature_line(card)
        assert "(auto)" not in line and "N ◆" not in line
    for card in automatic:
        cost = card.support.cost
        said = "free" if cost == 0 else "◆ equal to the supported card's level" if cost == "N" else f"{cost} ◆"
        assert f"automatic ({said} when played)" in creature_line(card), card.name
    for card in by_level:
        assert "◆ equal to the supported card's level" in creature_line(card), card.name


def test_the_hand_spells_the_sphere_letters_out():
    s, _, _ = _play(lambda s, v, e: s.phase == "act")
    mine = to_text(RENDERER.private(GAME.view(s, s.player), RenderContext()))
    assert LEGEND in mine
    for letter, name in (("P", "physical"), ("M", "magical"), ("S", "supernatural"), ("D", "divine")):
        assert f"{letter} {name}" in LEGEND


def _two_sphere_defense(s, view, events):
    return view.defense is not None and any(len(p.card.spheres) > 1 for p in view.defense.row) \
        and any(e.kind == "defense" for e in events)


def test_a_card_spells_its_spheres_one_way_everywhere():
    """A defense card prints its spheres reversed; the texts still write them in one order."""
    s, view, events = _play(_two_sphere_defense)
    placed = next(p for p in view.defense.row if len(p.card.spheres) > 1)
    card = placed.card
    spelled = "".join(x for x in "PMSD" if any(sp[0].upper() == x for sp in placed.spheres))
    assert card.sphere_marks == "".join(x for x in "PMSD" if any(sp[0].upper() == x for sp in card.spheres))
    table = to_text(RENDERER.table(view, RenderContext())[0])
    log = next(e.text for e in events if e.kind == "defense")
    assert f"{card.name} [{spelled}]" in table and f"{card.name} [{spelled}]" in log
    assert card.sphere_marks in card.short and card.sphere_marks in card_line(card)
    assert card.sphere_marks in creature_line(card)


def test_the_table_names_the_skills_activated():
    s, view, _ = _play(lambda s, v, e: v.combat is not None and len(v.combat.fired) > 0)
    table = to_text(RENDERER.table(view, RenderContext())[0])
    assert not re.search(r"\b[ad]:(own|sup|group|protect)", table)
    assert view.combat.skills and all(name in table for name in view.combat.skills)
    fired = view.combat.fired[0]
    side, what = fired.split(":")
    move = s.attack if side == "a" else s.defense
    if what.startswith(("own", "sup")):
        i = int(what.split(".")[1])
        card = s.cards[move.row[i].card if what.startswith("own") else move.row[i].support]
        assert view.combat.skills[0].startswith(card.name)
