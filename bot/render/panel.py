"""One neutral panel model for every game view, and its two renderings.

A renderer turns a game's view into Panels; this module turns a Panel into a
discord.Embed (for the channel and DMs) or into plain text (for the local table).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pydantic import BaseModel, Field

from rules.core.game import name_players

# Discord's limits (see shared notes): a panel is clipped to them, never rejected.
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048


class PanelField(BaseModel):
    name: str
    value: str
    inline: bool = False


class Panel(BaseModel):
    title: str
    description: str = ""
    fields: list[PanelField] = Field(default_factory=list)
    colour: int = 0x5865F2
    footer: str = ""
    image_png: bytes | None = None
    """An optional picture (a board), attached as `image_name` and shown in the embed."""
    image_name: str = "board.png"
    text_art: str = ""
    """A plain-text drawing of the picture, shown instead of it on the local table."""
    text_art_of: Callable[[], str] | None = Field(default=None, exclude=True)
    """`text_art` made only when the local table shows the panel (Discord never does)."""

    def add(self, name: str, value: str, inline: bool = False) -> Panel:
        self.fields.append(PanelField(name=name, value=value, inline=inline))
        return self

    def named(self, names: dict[str, str], plain: dict[str, str] | None = None) -> Panel:
        """A copy with every player reference replaced by the player's display name: `names`
        where Discord reads markdown (escaped names), `plain` (names as typed; default `names`)
        in the footer, which Discord shows as plain text, and in the local table's drawing."""
        plain = names if plain is None else plain
        return Panel(
            title=name_players(self.title, names),
            description=name_players(self.description, names),
            fields=[
                PanelField(name=name_players(f.name, names), value=name_players(f.value, names),
                           inline=f.inline)
                for f in self.fields
            ],
            colour=self.colour,
            footer=name_players(self.footer, plain),
            image_png=self.image_png,
            image_name=self.image_name,
            text_art=name_players(self.text_art, plain),
            text_art_of=None if self.text_art_of is None else partial(_named_art, self.text_art_of, plain),
        )


def _named_art(art: Callable[[], str], names: dict[str, str]) -> str:
    return name_players(art(), names)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def to_text(panel: Panel) -> str:
    """The panel as plain text, for the terminal."""
    lines = [f"== {panel.title} =="]
    if panel.description:
        lines.append(panel.description)
    for f in panel.fields:
        lines.append(f"-- {f.name}")
        lines.append(f.value)
    art = panel.text_art or (panel.text_art_of() if panel.text_art_of is not None else "")
    if art:
        lines.append(art)
    elif panel.image_png:
        lines.append(f"[image {panel.image_name}, {len(panel.image_png)} bytes]")
    if panel.footer:
        lines.append(f"({panel.footer})")
    return "\n".join(lines)
