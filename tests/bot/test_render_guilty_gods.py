"""Guilty Gods' renderer: the table names both gods' state, the combat picture shows the two
lines face to face, and a hand shows only in its owner's view."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.base import RenderContext
from bot.render.guilty_gods import GuiltyGodsRenderer
from bot.render.panel import to_text
from rules.core import Rng
from rules.guilty_gods import GAME


def _to_combat(seed: int = 3):
    s = GAME.setup(["a", "b"], {}, seed)
    rng = Rng(seed=2)
    for _ in range(400):
        view = GAME.view(s, None)
        if view.attack is not None and view.defense is not None:
            return s
        p = rng.choice(GAME.to_act(s))
        s = GAME.apply(s, p, GAME.auto_action(s, p, rng).key).state
    raise AssertionError("no defended attack in 400 steps")


def test_the_table_shows_both_gods_and_the_combat_picture():
    s = _to_combat()
    renderer = GuiltyGodsRenderer(GAME)
    [panel] = renderer.table(GAME.view(s, None), RenderContext())
    text = to_text(panel)
    assert "Gnosis" in text and "seals" in text and "Attack by" in text and "Defense by" in text
    image = Image.open(io.BytesIO(panel.image_png))
    assert image.format == "PNG" and image.width >= 200 and image.height > 300
    assert len(panel.image_png) < 200_000


def test_a_hand_is_only_in_its_owners_view():
    s = _to_combat()
    renderer = GuiltyGodsRenderer(GAME)
    table = to_text(renderer.table(GAME.view(s, None), RenderContext())[0])
    for player in ("a", "b"):
        mine = to_text(renderer.private(GAME.view(s, player), RenderContext()))
        hand = s.seats[player].hand
        assert hand and all(s.cards[c].name in mine for c in hand)
    assert "Your hand" not in table


def test_a_combat_picture_is_drawn_once_per_combat(monkeypatch):
    """The picture is kept by the moves it shows: the table's next render (another edit, the
    status) takes it; another combat gets its own picture."""
    from bot.render import guilty_gods as module

    module.COMBATS.clear()
    drawn, real = [], module.draw_combat
    monkeypatch.setattr(module, "draw_combat", lambda a, d: drawn.append(1) or real(a, d))
    renderer = GuiltyGodsRenderer(GAME)
    view = GAME.view(_to_combat(), None)
    panel = renderer.table(view, RenderContext())[0]
    assert renderer.table(view, RenderContext())[0].image_png == panel.image_png and len(drawn) == 1
    assert panel.image_png == module.combat_picture(view) and len(drawn) == 1
    other = GAME.view(_to_combat(seed=5), None)
    assert (other.attack, other.defense) != (view.attack, view.defense)
    assert renderer.table(other, RenderContext())[0].image_png != panel.image_png and len(drawn) == 2
    picture = Image.open(io.BytesIO(panel.image_png))
    assert picture.mode == "P" and len(panel.image_png) < 12_000


def test_a_font_is_loaded_once_per_size_and_thread():
    import threading

    from bot.render.drawing import font

    assert font(13) is font(13) and font(13) is not font(14)
    elsewhere = []
    worker = threading.Thread(target=lambda: elsewhere.append(font(13)))
    worker.start()
    worker.join()
    assert elsewhere[0] is not font(13)  # FreeType: one thread at a time per font
