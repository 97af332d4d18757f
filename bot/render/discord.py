"""Panels -> discord.py embeds and files."""

from __future__ import annotations

import io

import discord

from bot.render.panel import (
    DESCRIPTION_MAX,
    FIELD_NAME_MAX,
    FIELD_VALUE_MAX,
    FIELDS_MAX,
    FOOTER_MAX,
    TITLE_MAX,
    Panel,
    clip,
)

EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000


def to_embed(panel: Panel) -> discord.Embed:
    embed = discord.Embed(
        title=clip(panel.title, TITLE_MAX),
        description=clip(panel.description, DESCRIPTION_MAX) or None,
        colour=panel.colour,
    )
    for f in panel.fields[:FIELDS_MAX]:
        embed.add_field(name=clip(f.name, FIELD_NAME_MAX) or "\u200b",
                        value=clip(f.value, FIELD_VALUE_MAX) or "\u200b", inline=f.inline)
    if panel.footer:
        embed.set_footer(text=clip(panel.footer, FOOTER_MAX))
    if panel.image_png:
        embed.set_image(url=f"attachment://{panel.image_name}")
    return embed


def to_message_parts(panels: list[Panel]) -> tuple[list[discord.Embed], list[discord.File]]:
    """Embeds and files for a message, within Discord's limits (10 embeds, 6,000 characters)."""
    embeds: list[discord.Embed] = []
    files: list[discord.File] = []
    total = 0
    for panel in panels[:EMBEDS_MAX]:
        embed = to_embed(panel)
        size = len(embed)
        if total + size > EMBED_TOTAL_MAX:
            if not embeds:
                embed.description = clip(embed.description or "", 1000)
                embed.clear_fields()
            else:
                break
        total += len(embed)
        embeds.append(embed)
        if panel.image_png:
            files.append(discord.File(io.BytesIO(panel.image_png), filename=panel.image_name))
    return embeds, files
