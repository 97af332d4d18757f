"""By Gods and Kings' renderer: enemies with HP and Field totals against their thresholds, the
party with hands and Fields, the turn order, and the numbers each character holds."""

from __future__ import annotations

from bot.render.base import RenderContext
from bot.render.by_gods_and_kings import ByGodsAndKingsRenderer, hp_bar
from bot.render.panel import to_text
from rules.by_gods_and_kings import GAME
from rules.core import Rng


def test_the_table_shows_enemies_party_order_and_target_numbers():
    """The table: a line per unit and the turn order; the Fields, thresholds and numbers held in
    the picture (and, in the terminal, its text); each character's hand in its player's view."""
    s = GAME.setup(["a", "b"], {"party": "4"}, 3)
    rng = Rng(seed=1)
    renderer = ByGodsAndKingsRenderer(GAME)
    seen_numbers = seen_order = False
    for _ in range(200):
        if GAME.result(s) is not None:
            break
        view = GAME.view(s, None)
        panel = renderer.table(view, RenderContext())[0]
        text = to_text(panel)
        assert "hand " not in text and "Party" in text
        if view.foes:
            assert panel.image_png is not None and "Field " in text
            assert "fires at" in text  # each enemy's Field total against its thresholds
        seen_numbers = seen_numbers or "enemy targets " in text
        seen_order = seen_order or f"Round {view.round}: " in text
        p = rng.choice(GAME.to_act(s))
        s = GAME.apply(s, p, GAME.auto_action(s, p, rng).key).state
    assert seen_numbers and seen_order
    mine = to_text(renderer.private(GAME.view(s, "a"), RenderContext()))
    assert mine.startswith("== Your characters (2)") and "hand " in mine


def test_hp_bar():
    assert hp_bar(50, 100) == "█████░░░░░ 50/100"
    assert hp_bar(0, 90) == "░" * 10 + " 0/90"


def test_the_battlefield_picture_has_a_card_for_each_unit():
    import io

    from PIL import Image

    from bot.render.by_gods_and_kings import picture_height

    s = GAME.setup(["a"], {"party": "4"}, 3)
    view = GAME.view(s, None)
    panel = ByGodsAndKingsRenderer(GAME).table(view, RenderContext())[0]
    image = Image.open(io.BytesIO(panel.image_png))
    assert image.format == "PNG" and image.width == 400  # two units a row
    assert image.height == picture_height(len(view.foes), len(view.party) + len(view.npcs))
    assert panel.image_name == "battlefield.png" and ByGodsAndKingsRenderer.draws_pictures


def test_a_battlefield_picture_is_drawn_once_per_battlefield(monkeypatch):
    from bot.render import by_gods_and_kings as module

    module.BATTLEFIELDS.clear()
    drawn, real = [], module.draw_battlefield
    monkeypatch.setattr(module, "draw_battlefield", lambda *v: drawn.append(1) or real(*v))
    renderer = ByGodsAndKingsRenderer(GAME)
    s = GAME.setup(["a", "b"], {"party": "4"}, 3)
    rng = Rng(seed=1)
    pictures = set()
    for _ in range(60):
        view = GAME.view(s, None)
        picture = renderer.table(view, RenderContext())[0].image_png
        before = len(drawn)
        assert renderer.table(view, RenderContext())[0].image_png == picture and len(drawn) == before
        if picture is not None:
            pictures.add(picture)
        p = rng.choice(GAME.to_act(s))
        s = GAME.apply(s, p, GAME.auto_action(s, p, rng).key).state
    assert len(drawn) == len(pictures) > 5  # one drawing per battlefield shown
