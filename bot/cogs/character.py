"""The /character commands: a person's characters in this server, for games whose records are
characters (By Gods and Kings). Characters are made here or in a first game, brought to a
table from the lobby ("Choose character"), and keep what they gain from game to game."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.controller import Controller, error_text, reply_error
from bot.records import RecordError
from bot.render import Panel
from bot.render.discord import to_embed
from bot.render.panel import clip
from bot.sessions import ServiceError
from rules.core import Game, IllegalAction
from rules.core.text import escape_markdown, shown_name

ARG_MAX = 100
"""The longest name or kit read from a command (cut before anything else looks at it)."""
NO_PINGS = discord.AllowedMentions.none()


def character_games() -> list[Game]:
    return [g for _, g in sorted(rules.GAMES.items())
            if g.record_type is not None and g.record_label == "character"]


def pick_game(game_id: str | None) -> Game:
    games = character_games()
    if not games:
        raise ServiceError("No installed game keeps characters.")
    if game_id:
        found = next((g for g in games if g.id == game_id[:ARG_MAX]), None)
        if found is None:
            raise ServiceError(f"Characters are kept by {', '.join(g.id for g in games)} only.")
        return found
    return games[0]


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise ServiceError("Characters belong to a server: use /character in one of its channels.")
    return interaction.guild_id


def sheet_panel(game: Game, name: str, record, owner: str) -> Panel:
    panel = Panel(title=clip(f"{name} · {game.name}", 200), description=f"A character of {escape_markdown(owner)}.",
                  colour=game.colour)
    for heading, text in game.describe_record(record)[:20]:
        panel.add(heading, text)
    return panel


class CharacterCog(commands.Cog):
    character = app_commands.Group(name="character", description="Your characters in this server",
                                   guild_only=True)

    def __init__(self, bot: commands.Bot, controller: Controller):
        self.bot = bot
        self.service = controller.service

    async def _guard(self, interaction: discord.Interaction, coro) -> None:
        try:
            await coro
        except (ServiceError, RecordError, IllegalAction) as exc:
            await reply_error(interaction, error_text(exc))

    async def _say(self, interaction: discord.Interaction, text: str = "", panel: Panel | None = None,
                   ephemeral: bool = True) -> None:
        await interaction.response.send_message(
            clip(text, 2000), embed=to_embed(panel) if panel else discord.utils.MISSING,
            ephemeral=ephemeral, allowed_mentions=NO_PINGS)

    # ------------------------------------------------------------------ autocomplete
    async def kit_autocomplete(self, interaction: discord.Interaction,
                               current: str) -> list[app_commands.Choice[str]]:
        try:
            game = pick_game(None)
        except ServiceError:
            return []
        current = current[:ARG_MAX].lower()
        return [app_commands.Choice(name=k.label[:100], value=k.value)
                for k in game.record_kinds() if current in k.label.lower()][:25]

    async def name_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None or not character_games():
            return []
        rows = await self.service.records.of(interaction.guild_id, interaction.user.id, pick_game(None))
        current = current[:ARG_MAX].lower()
        return [app_commands.Choice(name=r.name[:100], value=r.name[:100])
                for r in rows if current in r.name.lower()][:25]

    # ------------------------------------------------------------------ commands
    @character.command(name="create", description="Make a new character from a starting kit")
    @app_commands.describe(name="Its name (letters, digits, spaces, - ' .)",
                           kit="The starting kit: stats, equipment and shards")
    @app_commands.autocomplete(kit=kit_autocomplete)
    async def create(self, interaction: discord.Interaction, name: str, kit: str) -> None:
        async def run() -> None:
            game = pick_game(None)
            guild = _guild(interaction)
            kinds = {k.value for k in game.record_kinds()}
            chosen = kit[:ARG_MAX].strip().lower()
            if kinds and chosen not in kinds:
                raise ServiceError(f"Pick a kit from the list: {', '.join(sorted(kinds))}.")
            row, record = await self.service.records.create(
                guild, interaction.user.id, game, name[:ARG_MAX], chosen or None, self.service.clock())
            owner = shown_name(interaction.user.display_name, interaction.user.name)
            await self._say(interaction, f"**{row.name}** is ready. Bring them to a table with "
                            f"`/game new` → Choose {game.record_label}.",
                            sheet_panel(game, row.name, record, owner))
        await self._guard(interaction, run())

    @character.command(name="list", description="Your characters in this server")
    async def list_(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            game = pick_game(None)
            rows = await self.service.records.of(_guild(interaction), interaction.user.id, game)
            if not rows:
                await self._say(interaction, "You have no character here yet: `/character create`, "
                                f"or play a game of {game.name} and one is made for you.")
                return
            panel = Panel(title=f"Your characters · {game.name}", colour=game.colour,
                          description="\n".join(f"**{r.name}**: {r.version} game(s) kept"
                                                for r in rows[:40]))
            await self._say(interaction, panel=panel)
        await self._guard(interaction, run())

    @character.command(name="view", description="A character's sheet: stats and their sources, gear, shards")
    @app_commands.describe(name="Which of your characters", share="Show it to the channel")
    @app_commands.autocomplete(name=name_autocomplete)
    async def view(self, interaction: discord.Interaction, name: str, share: bool = False) -> None:
        async def run() -> None:
            game = pick_game(None)
            row, record = await self.service.records.find(_guild(interaction), interaction.user.id,
                                                          game, name[:ARG_MAX])
            owner = shown_name(interaction.user.display_name, interaction.user.name)
            await self._say(interaction, panel=sheet_panel(game, row.name, record, owner),
                            ephemeral=not share)
        await self._guard(interaction, run())

    @character.command(name="retire", description="Retire one of your characters for good")
    @app_commands.describe(name="Which of your characters", confirm="Type its name again to confirm")
    @app_commands.autocomplete(name=name_autocomplete)
    async def retire(self, interaction: discord.Interaction, name: str, confirm: str) -> None:
        async def run() -> None:
            game = pick_game(None)
            if " ".join(confirm[:ARG_MAX].split()).lower() != " ".join(name[:ARG_MAX].split()).lower():
                raise ServiceError("To retire a character, type its name again in `confirm`.")
            gone = await self.service.records.retire(_guild(interaction), interaction.user.id, game,
                                                     name[:ARG_MAX])
            await self._say(interaction, f"**{gone}** retires from adventuring: the character is "
                            "gone from your list.")
        await self._guard(interaction, run())

