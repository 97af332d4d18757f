"""Guilty Gods' combat picture: the cards face to face, each defense sphere in front of the attack
sphere it meets, the slots the rules count at the joins, text readable at phone width, no empty
half without a defense."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render import gg_combat
from bot.render.base import RenderContext
from bot.render.guilty_gods import GuiltyGodsRenderer
from bot.render.panel import to_text
from rules.core import Rng
from rules.guilty_gods import GAME
from rules.guilty_gods.combos import join_total
from rules.guilty_gods.content import SPHERES, CreatureDef, Slot, load_decks
from rules.guilty_gods.view import MoveView, PlacedView

OPEN = Slot(open=True, cost=0)


def _card(kind: str, spheres: list[str]) -> CreatureDef:
    base = next(c for d in load_decks().values() for c in d.creatures if c.kind == kind)
    return base.model_copy(update={"spheres": spheres})


def _placed(kind: str, facing: int, spheres: list[str], **more) -> PlacedView:
    return PlacedView(card=_card(kind, spheres), support=None, spheres=spheres, opened=None,
                      facing=facing, west=more.pop("west", OPEN), east=more.pop("east", OPEN), **more)


def _move(kind: str, row: list[PlacedView]) -> MoveView:
    return MoveView(player="a" if kind == "attack" else "b", kind=kind, row=row, group=None,
                    chain=False, cost=0)


def _combat() -> tuple[MoveView, MoveView]:
    """Attack: [M D] at place 0, [P] at place 1; defense: [D] facing place 0."""
    attack = _move("attack", [_placed("attack", 0, ["magical", "divine"], damage=1),
                              _placed("attack", 1, ["physical"], damage=1)])
    defense = _move("defense", [_placed("defense", 0, ["divine"], stopped=False)])
    return attack, defense


def _pixel(image: Image.Image, centre: tuple[float, float], cell: int) -> tuple[int, int, int]:
    """A sphere's colour, read beside its letter."""
    x, y = centre
    value = image.getpixel((int(x - cell * 0.32), int(y)))
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def test_each_defense_sphere_stands_in_front_of_the_attack_sphere_it_meets():
    attack, defense = _combat()
    plan = gg_combat.plan(attack, defense)
    image = gg_combat.draw(plan, defended=True)
    colours = gg_combat.SPHERE_COLOURS
    pale = gg_combat._pale(colours["divine"], gg_combat.ATTACK_BG)
    for k in range(4):
        top, bottom = plan.sphere_at(0, True, k), plan.sphere_at(0, False, k)
        assert top[0] == bottom[0]  # the same column: face to face
        assert 0 < bottom[1] - top[1] < 2 * plan.cell + gg_combat.MID + 4 * gg_combat.PAD
    d = SPHERES.index("divine")
    # the divine spheres meet: the attack one is stopped (pale), the defense one counts
    assert _pixel(image, plan.sphere_at(0, True, d), plan.cell) == pale
    assert _pixel(image, plan.sphere_at(0, False, d), plan.cell) == colours["divine"]
    # the defense card has no sphere where the attack's magical one is: nothing drawn there
    m = SPHERES.index("magical")
    assert _pixel(image, plan.sphere_at(0, True, m), plan.cell) == colours["magical"]
    assert _pixel(image, plan.sphere_at(0, False, m), plan.cell) == gg_combat.DEFENSE_BG
    # a card without a physical sphere leaves that place empty, it does not pack to the left
    p = SPHERES.index("physical")
    assert _pixel(image, plan.sphere_at(0, True, p), plan.cell) == gg_combat.ATTACK_BG
    assert _pixel(image, plan.sphere_at(1, True, p), plan.cell) == colours["physical"]


def test_a_sphere_that_gets_through_is_marked_in_the_gap():
    attack, defense = _combat()
    plan = gg_combat.plan(attack, defense)
    image = gg_combat.draw(plan, defended=True)
    _, card_y = plan.card_at(0, True)
    gap = card_y + plan.top_h + 4
    for k, sphere in enumerate(SPHERES):
        x, _ = plan.sphere_at(0, True, k)
        through = sphere == "magical"  # the divine one is stopped, the card has no other
        assert (image.getpixel((int(x), gap)) == gg_combat.RED) is through, sphere


def test_the_joins_show_the_slots_the_rules_count(monkeypatch):
    """A defense card lies turned round: at a join the picture shows the slots whose seals the
    join costs (the west card's printed left, the east card's printed right), not the printed
    sides."""
    drawn: list[tuple[Slot, bool]] = []
    real = gg_combat._slot_tab

    def spy(d, x, y, slot, opened, east):
        drawn.append((slot, east))
        real(d, x, y, slot, opened, east)

    monkeypatch.setattr(gg_combat, "_slot_tab", spy)
    turned = 0
    for seed in range(6):
        s = GAME.setup(["a", "b"], {}, seed)
        rng = Rng(seed=seed + 40)
        for _ in range(1500):
            if s.phase == "over":
                break
            view = GAME.view(s, None)
            for move, shown in ((s.attack, view.attack), (s.defense, view.defense)):
                if move is None or shown is None or len(move.row) < 2:
                    continue
                joins = sum(w.east.cost + e.west.cost for w, e in zip(shown.row, shown.row[1:], strict=False))
                assert joins == join_total(s, move)
                if move.kind == "defense":
                    for pv, placed in zip(shown.row, move.row, strict=True):
                        card = s.cards[placed.card]
                        if card.left != card.right and placed.opened is None and placed.support is None:
                            assert (pv.west, pv.east) == (card.right, card.left)
                            turned += 1
            if view.attack is not None and view.defense is not None and len(view.defense.row) > 1:
                drawn.clear()
                gg_combat.draw(gg_combat.plan(view.attack, view.defense), defended=True)
                assert drawn == [(side, east) for p in view.attack.row + view.defense.row
                                 for side, east in ((p.west, False), (p.east, True))]
            p = rng.choice(GAME.to_act(s))
            s = GAME.apply(s, p, GAME.auto_action(s, p, rng).key).state
    assert turned > 0, "no defense combo with differing slots was played: the test proves nothing"


@pytest.mark.parametrize("cards", range(1, 8))
@pytest.mark.parametrize("defended", [False, True])
def test_text_is_readable_at_phone_width(monkeypatch, cards, defended):
    """Shown 400 pixels wide (a phone), no text of the picture is under 11 pixels."""
    sizes: list[int] = []
    real = gg_combat.font

    def spy(size: int):
        sizes.append(size)
        return real(size)

    monkeypatch.setattr(gg_combat, "font", spy)
    gg_combat._SPHERES.clear()
    long_name = _card("attack", ["physical"]).model_copy(update={"name": "Mossback Tortoise of the Deepest"})
    row = [_placed("attack", i, ["physical", "supernatural"], damage=1) for i in range(cards)]
    row[0] = row[0].model_copy(update={"card": long_name, "support": long_name})
    defense = _move("defense", [_placed("defense", 0, ["physical"], stopped=False)]) if defended else None
    plan = gg_combat.plan(_move("attack", row), defense)
    image = gg_combat.draw(plan, defended)
    shown = min(1.0, 400 / image.width)
    assert image.width <= gg_combat.WIDTH and sizes and min(sizes) * shown >= 11
    name = plan.top[0].name  # wrapped on two lines at most, cut with … if longer
    assert 1 <= len(name) <= 2 and " ".join(name).rstrip("…") in long_name.name
    assert all(real(gg_combat.NAME).getlength(line) <= plan.card_w - 2 * gg_combat.PAD for line in name)
    assert (" ".join(name) == long_name.name) is (not name[-1].endswith("…"))
    for f in plan.top:  # every card inside the picture, none on another
        x, y = plan.card_at(f.placed.facing, True)
        assert 0 <= x and x + plan.card_w <= image.width and y + plan.top_h <= image.height
    corners = {plan.card_at(f.placed.facing, True) for f in plan.top}
    assert len(corners) == cards


def test_no_empty_half_without_a_defense():
    attack, defense = _combat()
    with_defense = gg_combat.plan(attack, defense)
    without = gg_combat.plan(attack, None)
    assert without.height < 0.65 * with_defense.height
    below_cards = without.height - (without.band_top[-1] + without.top_h)
    assert below_cards <= gg_combat.MID + len(without.foot) * gg_combat.LINE + gg_combat.MARGIN
    assert without.foot == ["No defense: every sphere goes through"]


def test_the_picture_waits_for_the_defense_then_shows_the_result():
    attack, _ = _combat()
    waiting = _move("attack", [p.model_copy(update={"damage": None}) for p in attack.row])
    assert gg_combat.plan(waiting, None).foot == ["No defense yet"]
    assert all(f.result is None and not any(f.through) for f in gg_combat.plan(waiting, None).top)
    assert gg_combat.draw_combat(waiting, None) != gg_combat.draw_combat(attack, None)


def test_the_local_table_lines_the_spheres_up_instead_of_naming_the_picture():
    attack, defense = _combat()
    art = gg_combat.lineup(attack, defense)
    assert art.splitlines()[1:] == ["1. . M . D  | . . . D   1 through", "2. P . . .  | no card   1 through"]
    s = GAME.setup(["a", "b"], {}, 3)
    rng = Rng(seed=2)
    for _ in range(400):
        view = GAME.view(s, None)
        if view.attack is not None:
            break
        p = rng.choice(GAME.to_act(s))
        s = GAME.apply(s, p, GAME.auto_action(s, p, rng).key).state
    [panel] = GuiltyGodsRenderer(GAME).table(view, RenderContext())
    text = to_text(panel)
    assert panel.image_png and "[image" not in text and "   attack      defense" in text
    assert Image.open(io.BytesIO(panel.image_png)).width <= gg_combat.WIDTH
