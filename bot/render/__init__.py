"""Renderers: a game's views -> neutral panels -> Discord embeds or terminal text."""

from __future__ import annotations

from importlib import import_module

from bot.render.base import GameRenderer, RenderContext
from bot.render.panel import Panel, PanelField, to_text
from rules import GAMES

# game id -> module exposing RENDERER (a GameRenderer subclass).
_MODULES: dict[str, str] = {
    "deathly-thrones": "bot.render.deathly_thrones",
    "gods-of-magic": "bot.render.gods_of_magic",
    "terra-sancta": "bot.render.terra_sancta",
}


def get_renderer(game_id: str) -> GameRenderer:
    game = GAMES[game_id]
    module = _MODULES.get(game_id)
    if module is None:
        return GameRenderer(game)
    return import_module(module).RENDERER(game)


__all__ = ["GameRenderer", "Panel", "PanelField", "RenderContext", "get_renderer", "to_text"]
