"""Renderers: a game's views -> neutral panels -> Discord embeds or terminal text."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from bot.render.base import GameRenderer, RenderContext
from bot.render.panel import Panel, PanelField, to_text
from rules import GAMES

# game id -> module exposing RENDERER (a GameRenderer[ThatGamesView] subclass), imported on first use.
_MODULES: dict[str, str] = {
    "deathly-thrones": "bot.render.deathly_thrones",
    "gods-of-magic": "bot.render.gods_of_magic",
    "terra-sancta": "bot.render.terra_sancta",
}


def get_renderer(game_id: str) -> GameRenderer[Any]:
    """The renderer of this game, built with the registered game; the default (JSON) renderer
    for a game without its own module. Games are registered untyped (`Game[Any, Any]`), so the
    renderer's view type is `Any` here: pass it views of `GAMES[game_id]`."""
    game = GAMES[game_id]
    module = _MODULES.get(game_id)
    if module is None:
        return GameRenderer(game)
    renderer: type[GameRenderer[Any]] = import_module(module).RENDERER
    return renderer(game)


__all__ = ["GameRenderer", "Panel", "PanelField", "RenderContext", "get_renderer", "to_text"]
