"""/roll: the table's dice, for any game or none (Avrae's dice language, through d20)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.render import Panel
from bot.render.discord import to_embed
from rules.core import DiceError, Rng, new_seed, roll_expression
from rules.core.text import shown_name

ADVANTAGE = {"adv": " (advantage)", "dis": " (disadvantage)"}


class DiceCog(commands.Cog):
    def __init__(self, bot: commands.Bot, seed_source=new_seed):
        self.bot = bot
        self.seed_source = seed_source

    @app_commands.command(name="roll", description="Roll dice: 2d10, d16+3, 4d6kh3, 4d6ro<3, 1d20+5 adv")
    @app_commands.describe(dice="Dice as on Avrae: NdM, kh/kl/p keep or drop, ro/rr reroll, e explode, "
                                "mi/ma, [notes], adv/dis")
    async def roll(self, interaction: discord.Interaction, dice: str) -> None:
        try:
            result = roll_expression(dice, Rng(seed=self.seed_source()))
        except DiceError as exc:
            await interaction.response.send_message(str(exc), ephemeral=True,
                                                    allowed_mentions=discord.AllowedMentions.none())
            return
        lines = [f"*{result.note}*"] if result.note else []
        lines.append(f"{result.breakdown} = **{result.total}**")
        # a display name of blanks (Hangul fillers ...) shows the account name instead
        roller = shown_name(interaction.user.display_name, shown_name(interaction.user.name, "a player"))
        panel = Panel(title=f"🎲 {result.expression} → {result.total}{ADVANTAGE.get(result.advantage or '', '')}",
                      description="\n".join(lines), colour=0x9B59B6,
                      footer=f"rolled by {roller}")
        await interaction.response.send_message(embed=to_embed(panel),
                                                allowed_mentions=discord.AllowedMentions.none())
