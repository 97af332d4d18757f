"""Pantheon's components, routed by their custom ids: they keep working after a restart.

Every click reaches `PantheonBot.on_interaction`, which hands its custom id (and a menu's values)
to the bot's controller (`bot.controller.Controller`), where the session service is called.
discord.py keeps none of these views: they are sent as finished (`RoutedView`), so no view per
message stays in memory and discord.py dispatches nothing to their items (it would otherwise
rebuild the whole message's view on every click to find the one clicked).
"""

from __future__ import annotations

import discord


class RoutedView(discord.ui.View):
    """A view whose clicks are routed by custom id (see the module's docstring), never stored by
    discord.py: it counts as finished and as holding nothing to dispatch."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


class ActionButton(discord.ui.Button[RoutedView]):
    def __init__(self, custom_id: str, label: str = "?", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None, disabled: bool = False, emoji: str | None = None):
        super().__init__(custom_id=custom_id, label=label, style=style, disabled=disabled, row=row, emoji=emoji)


class ActionSelect(discord.ui.Select[RoutedView]):
    def __init__(self, custom_id: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, row: int | None = None, max_values: int = 1):
        super().__init__(custom_id=custom_id, options=options or [], placeholder=placeholder, row=row,
                         max_values=max_values)


class HandButton(ActionButton):
    """"My hand": the seat's private view, ephemeral."""

    def __init__(self, custom_id: str, label: str = "My hand", row: int | None = None):
        super().__init__(custom_id, label=label, style=discord.ButtonStyle.primary, row=row, emoji="🃏")


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
