"""/roll: the table's dice, for any game or none."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.render import Panel
from bot.render.discord import to_embed
from rules.core import DiceError, Rng, new_seed, roll_expression


class DiceCog(commands.Cog):
    def __init__(self, bot: commands.Bot, seed_source=new_seed):
        self.bot = bot
        self.seed_source = seed_source

    @app_commands.command(name="roll", description="Roll dice, e.g. 2d10, d16+3 or 4d6kh3")
    @app_commands.describe(dice="A dice expression: NdM, +/- numbers, khN / klN to keep the highest / lowest")
    async def roll(self, interaction: discord.Interaction, dice: str) -> None:
        try:
            result = roll_expression(dice, Rng(seed=self.seed_source()))
        except DiceError as exc:
            await interaction.response.send_message(str(exc), ephemeral=True)
            return
        panel = Panel(title=f"🎲 {result.expression} → {result.total}",
                      description=result.describe(), colour=0x9B59B6,
                      footer=f"rolled by {interaction.user.display_name}")
        await interaction.response.send_message(embed=to_embed(panel))
