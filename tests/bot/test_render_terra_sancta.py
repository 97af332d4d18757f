"""The Terra Sancta renderer: the board PNG, the dice of the turn, the attack panel."""

from __future__ import annotations

import io

from PIL import Image

from bot.render import RenderContext
from bot.render.terra_sancta import BOARD_PX, RENDERER, dice_lines, draw_board
from rules.core import Rng
from rules.terra_sancta import GAME


def _midgame(players: int = 4, steps: int = 120):
    s = GAME.setup([f"p{i}" for i in range(players)], {"factions": "random"}, seed=11)
    rng = Rng(seed=3)
    events = []
    for _ in range(steps):
        if GAME.result(s):
            break
        p = GAME.to_act(s)[0]
        out = GAME.apply(s, p, GAME.auto_action(s, p, rng).key)
        s, events = out.state, out.events
    return s, events


def test_table_has_a_small_readable_board_image_and_the_dice():
    s, _ = _midgame()
    view = GAME.view(s, None)
    panels = RENDERER(GAME).table(view, RenderContext())
    png = panels[0].image_png
    assert png and len(png) < 300_000
    img = Image.open(io.BytesIO(png))
    assert img.size == (BOARD_PX, BOARD_PX) and 500 <= BOARD_PX <= 700
    assert view.dice and any(f.name == "Dice" for f in panels[0].fields)
    assert len(dice_lines(view)) == len(view.dice)


def test_board_marks_the_last_move_and_attack():
    s, _ = _midgame()
    view = GAME.view(s, None)
    plain = view.model_copy(update={"last_move": None, "last_attack": None})
    assert draw_board(view) != draw_board(plain)


def test_wounded_pieces_get_a_health_bar():
    s = GAME.setup(["a", "b"], {"seat_factions": "grove,bots"}, seed=1)
    view = GAME.view(s, None)
    before = draw_board(view)
    view.pieces[0].hp = 3
    assert draw_board(view) != before


def test_events_panel_lists_the_attack_dice():
    s, _ = _midgame(2, 400)
    # find an attack event in a fresh short game
    s = GAME.setup(["a", "b"], {"seat_factions": "darkness,bots"}, seed=2)
    rng = Rng(seed=2)
    for _ in range(600):
        p = GAME.to_act(s)[0]
        out = GAME.apply(s, p, GAME.auto_action(s, p, rng).key)
        s = out.state
        if any(e.kind in ("attack", "shot") for e in out.events):
            panels = RENDERER(GAME).events(out.events, RenderContext())
            assert panels and "d" in panels[0].description and panels[0].title == "Attack"
            return
    raise AssertionError("no attack in 600 steps")


def test_private_panel_lists_own_pieces_and_faction_choice_has_no_image():
    s = GAME.setup(["a", "b"], {}, seed=1)
    panels = RENDERER(GAME).table(GAME.view(s, None), RenderContext())
    assert panels[0].image_png is None and "choose a faction" in panels[0].description
    s = GAME.setup(["a", "b"], {"seat_factions": "grove,bots"}, seed=1)
    panel = RENDERER(GAME).private(GAME.view(s, "a"), RenderContext())
    assert "Rook e1" in panel.fields[0].value and "Elder Oak" in panel.fields[0].value


def test_a_position_is_drawn_and_encoded_once(monkeypatch):
    from bot.render import terra_sancta as board

    monkeypatch.setattr(board, "_boards", type(board._boards)())
    painted, encoded = [], []
    paint, encode = board.paint_board, board.palette_png
    monkeypatch.setattr(board, "paint_board", lambda v: painted.append(1) or paint(v))
    monkeypatch.setattr(board, "palette_png", lambda img: encoded.append(1) or encode(img))
    s, _ = _midgame(2, 40)
    first = draw_board(GAME.view(s, None))
    again = draw_board(GAME.view(s, "p0"))  # another view of the same position
    assert again == first and (len(painted), len(encoded)) == (1, 1)
    p = GAME.to_act(s)[0]
    moved = GAME.apply(s, p, GAME.auto_action(s, p, Rng(seed=1)).key).state
    if GAME.view(moved, None).selected != GAME.view(s, None).selected:  # a new highlight: drawn anew
        assert draw_board(GAME.view(moved, None)) != first and len(painted) == 2


def test_the_board_is_a_small_palette_png():
    s, _ = _midgame(4, 60)
    png = draw_board(GAME.view(s, None))
    img = Image.open(io.BytesIO(png))
    assert img.mode == "P" and len(png) < 25_000
