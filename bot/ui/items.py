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
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Any:
        factory: Any = cls  # a DynamicItem subclass, built from its custom id alone
        return factory(getattr(item, "custom_id", ""))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values")  # checked by the controller: may be forged
        custom_id: str = getattr(self, "custom_id", "")
        await _controller(interaction).on_component(interaction, custom_id, values)


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


class PrivateActionButton(ActionButton, template=ids.LOOSE["pv"]):
    """An action button in one seat's private view (a DM or an ephemeral message)."""


class PrivateActionSelect(ActionSelect, template=ids.LOOSE["pw"]):
    """An action select menu in one seat's private view."""


class HandButton(_Routed, discord.ui.DynamicItem[discord.ui.Button], template=ids.LOOSE["ph"]):
    def __init__(self, custom_id: str, label: str = "My hand", row: int | None = None):
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label, emoji="🂠",
                                           style=discord.ButtonStyle.primary), row=row)


class LobbyButton(ActionButton, template=ids.LOOSE["pl"]):
    """Join, Leave, Add bot, Start, Cancel."""


class OptionSelect(ActionSelect, template=ids.LOOSE["po"]):
    """A lobby option (host only)."""


class RecordSelect(ActionSelect, template=ids.LOOSE["pr"]):
    """A person's records (characters ...) to bring into a game (ephemeral, in the lobby)."""

    def __init__(self, custom_id: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, row: int | None = None, max_values: int = 1):
        super().__init__(custom_id, options, placeholder, row)
        self.item.max_values = max_values


DYNAMIC_ITEMS = (ActionButton, ActionSelect, PrivateActionButton, PrivateActionSelect, HandButton,
                 LobbyButton, OptionSelect, RecordSelect)


class TextModal(discord.ui.Modal):
    """Asks for a line of text for an action (a storytelling line ...).

    Its submission is handled by custom id (`PantheonBot.on_interaction` -> the controller's
    `on_modal`), not by this object, so a form sent before a restart still arrives."""

    def __init__(self, custom_id: str, title: str, prompt: str, required: bool):
        super().__init__(title=title[:45], custom_id=custom_id, timeout=900)
        self.line: discord.ui.TextInput[TextModal] = discord.ui.TextInput(label=prompt[:45], style=discord.TextStyle.paragraph,
                                         required=required, max_length=400, custom_id="line")
        self.add_item(self.line)


def modal_text(data: object, input_id: str = "line") -> str:
    """The value of one text input in a modal submission's raw data (action rows, or the newer
    label components), or "" when it is missing or not text."""
    stack = [data]
    seen = 0
    while stack and seen < 50:  # a forged payload cannot make this walk long
        node = stack.pop()
        seen += 1
        if isinstance(node, dict):
            if node.get("custom_id") == input_id and isinstance(node.get("value"), str):
                return node["value"]
            stack.extend(v for k, v in node.items() if k in ("components", "component"))
        elif isinstance(node, list):
            stack.extend(node[:10])
    return ""
