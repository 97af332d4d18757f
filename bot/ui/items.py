"""Persistent components (DynamicItems): they keep working after a restart.

Each item only parses its custom id and hands the click to the bot's controller
(`bot.controller.Controller`), where the session service is called.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ui import ids


def _controller(interaction: discord.Interaction) -> Any:
    return interaction.client.controller  # type: ignore[attr-defined]


class _Routed:
    """Rebuilds the item from its custom id and hands every click to the controller."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(item.custom_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values")
        await _controller(interaction).on_component(interaction, self.custom_id, values)


class ActionButton(_Routed, discord.ui.DynamicItem[discord.ui.Button], template=ids.LOOSE["pa"]):
    def __init__(self, custom_id: str, label: str = "?", style=discord.ButtonStyle.secondary,
                 row: int | None = None, disabled: bool = False):
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label, style=style,
                                           disabled=disabled), row=row)


class ActionSelect(_Routed, discord.ui.DynamicItem[discord.ui.Select], template=ids.LOOSE["ps"]):
    def __init__(self, custom_id: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, row: int | None = None):
        super().__init__(discord.ui.Select(custom_id=custom_id, options=options or [],
                                           placeholder=placeholder), row=row)


class HandButton(_Routed, discord.ui.DynamicItem[discord.ui.Button], template=ids.LOOSE["ph"]):
    def __init__(self, custom_id: str, label: str = "My hand", row: int | None = None):
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label, emoji="🂠",
                                           style=discord.ButtonStyle.primary), row=row)


class LobbyButton(ActionButton, template=ids.LOOSE["pl"]):
    """Join, Leave, Add bot, Start, Cancel."""


class OptionSelect(ActionSelect, template=ids.LOOSE["po"]):
    """A lobby option (host only)."""


DYNAMIC_ITEMS = (ActionButton, ActionSelect, HandButton, LobbyButton, OptionSelect)


class TextModal(discord.ui.Modal):
    """Asks for a line of text for an action (a storytelling line ...)."""

    def __init__(self, custom_id: str, title: str, prompt: str, required: bool):
        super().__init__(title=title[:45], custom_id=custom_id, timeout=900)
        self.line = discord.ui.TextInput(label=prompt[:45], style=discord.TextStyle.paragraph,
                                         required=required, max_length=400, custom_id="line")
        self.add_item(self.line)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).on_modal(interaction, self.custom_id, self.line.value or "")
