"""Renderers: a game's views -> neutral panels -> Discord embeds or terminal text."""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from bot.render.base import GameRenderer, RenderContext
from bot.render.panel import Panel, PanelField, to_text
from rules import GAMES

ENTRY_POINTS = "pantheon.renderers"
"""A game's renderer registers beside the game itself (pyproject.toml):
`<game id> = "<module>:RENDERER"` (a GameRenderer[ThatGamesView] subclass), imported on first
use, so a game installed as its own package brings its renderer the same way."""


@cache
def _registered() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINTS)}


@cache
def _renderer_type(game_id: str) -> type[GameRenderer[Any]]:
    ep = _registered().get(game_id)
    if ep is None:
        return GameRenderer
    renderer: type[GameRenderer[Any]] = ep.load()
    return renderer


def get_renderer(game_id: str) -> GameRenderer[Any]:
    """The renderer of this game, built with the registered game; the default (JSON) renderer
    for a game without its own. Games are registered untyped (`Game[Any, Any]`), so the
    renderer's view type is `Any` here: pass it views of `GAMES[game_id]`."""
    return _renderer_type(game_id)(GAMES[game_id])


__all__ = ["GameRenderer", "Panel", "PanelField", "RenderContext", "get_renderer", "to_text"]
