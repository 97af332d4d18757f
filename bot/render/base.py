"""What a game's renderer provides: its views turned into panels."""

from __future__ import annotations

from typing import Any, ClassVar, Generic

from pydantic import BaseModel, Field

from bot.render.panel import Panel
from rules.core import ViewT
from rules.core.game import Event, Game


class RenderContext(BaseModel):
    """Facts about the session that the game state does not hold."""

    names: dict[str, str] = Field(default_factory=dict)
    """player id -> display name (automatic players included)."""
    to_act: list[str] = Field(default_factory=list)
    finished: bool = False


class GameRenderer(Generic[ViewT]):
    """A game's views as panels, generic in the game's view model: a game's renderer declares
    `class MyRenderer(GameRenderer[MyView])` and is built with a `Game[MyState, MyView]`.

    The base class is also the default renderer (the view as JSON) for a game without its
    own module: subclasses override `table` and `private` (and `events` for dice)."""

    game_id: ClassVar[str] = ""
    draws_pictures: ClassVar[bool] = False
    """The table carries a picture (drawing and encoding take milliseconds): the bot renders
    it in a worker thread, off the event loop."""

    def __init__(self, game: Game[Any, ViewT]):
        self.game: Game[Any, ViewT] = game

    def table(self, view: ViewT, ctx: RenderContext) -> list[Panel]:
        """The public table: the first panel is the table embed; an image may ride on it."""
        return [Panel(title=self.game.name, description=f"```{view.model_dump_json(indent=1)[:3900]}```",
                      colour=self.game.colour)]

    def draw_ahead(self, view: ViewT) -> bool:
        """Draw the pictures `table` will show for this view into the renderer's own cache (in a
        worker thread, while the move is saved: bot/table.py `draw_ahead`); True if `table`
        then draws nothing for this view (it may run on the event loop). Default: nothing
        drawn ahead (False)."""
        return False

    def private(self, view: ViewT, ctx: RenderContext) -> Panel:
        """One player's private view (their hand ...)."""
        return Panel(title=f"{self.game.name}: your view",
                     description=f"```{view.model_dump_json(indent=1)[:3900]}```",
                     colour=self.game.colour)

    def events(self, events: list[Event], ctx: RenderContext) -> list[Panel]:
        """Panels for what just happened (a dice result ...). Default: none; the log line shows it."""
        return []
