"""/move: a typed move for games that have a notation (`Game.parse_move_text`); each game
explains its own notation (`Game.move_hint`, `/game rules`)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.controller import Controller, channel_of, error_text, reply_error
from bot.render.panel import clip
from bot.sessions import NotSeated, ServiceError
from rules.core import IllegalAction

MOVE_MAX = 40
"""The longest typed move read (a move in any notation is short); longer text is refused
before any game parses it."""


class MoveCog(commands.Cog):
    def __init__(self, bot: commands.Bot, controller: Controller):
        self.bot = bot
        self.controller = controller
        self.service = controller.service

    async def _seat(self, interaction: discord.Interaction):
        if interaction.guild_id is None:
            raise ServiceError("Type moves in the channel where the game is played.")
        session = await self.service.active_in_channel(channel_of(interaction))
        if session is None or session.status != "active":
            raise ServiceError("No game is being played in this channel.")
        seat = session.seat_of_user(interaction.user.id)
        if seat is None:
            raise NotSeated()
        return session, seat

    async def move_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        if len(current) > MOVE_MAX:
            return []
        try:
            session, seat = await self._seat(interaction)
        except ServiceError:
            return []
        options = session.game().move_completions(session.state(), seat.player_id, current)
        return [app_commands.Choice(name=o[:100], value=o[:100]) for o in options[:25]]

    @app_commands.command(name="move", description="Type your move in the game's notation (games that have one)")
    @app_commands.describe(move="Your move; the suggestions show the legal ones, /game rules the notation")
    @app_commands.autocomplete(move=move_autocomplete)
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        try:
            if len(move) > MOVE_MAX:
                raise ServiceError(f"A move is short; that text has {len(move)} characters "
                                   f"(at most {MOVE_MAX}).")
            session, seat = await self._seat(interaction)
            keys = session.game().parse_move_text(session.state(), seat.player_id, move)
            result = await self.controller.within_budget(interaction, self.service.act(
                session.id, interaction.user.id, keys, version=session.version, loaded=session), private=True)
        except (ServiceError, IllegalAction) as exc:
            await reply_error(interaction, error_text(exc))
            return
        await self.controller.acknowledge(interaction, f"Played `{clip(move.replace('`', ''), MOVE_MAX)}`.")
        await self.controller.publish(result, actor=interaction.user.id, interaction=interaction)
