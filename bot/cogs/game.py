"""The /game commands. Each translates between Discord and the session service."""

from __future__ import annotations

import datetime

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import inbox, table
from bot.controller import Controller, can_manage, channel_of, error_text, reply_error
from bot.models import utc_day
from bot.render import Panel
from bot.render.discord import to_embed
from bot.render.panel import clip
from bot.sessions import ServiceError
from rules.core import IllegalAction, name_players
from rules.core.text import count, escape_markdown

OPTIONS_MAX = 300
"""The longest `options:` text read (a game has a handful of short options)."""
NAME_MAX = 60
"""The longest game name read or echoed."""
ECHO_MAX = 40
"""The most of a user's text repeated in a reply."""


def echo(text: str) -> str:
    """A piece of the user's text, fit to be repeated between backticks in a reply."""
    return clip(text.replace("`", "'"), ECHO_MAX)


def parse_options(text: str | None) -> dict[str, str]:
    """`key=value` pairs separated by commas or spaces."""
    text = text or ""
    if len(text) > OPTIONS_MAX:
        raise ServiceError(f"That is too many options ({len(text)} characters); "
                           "a game's options look like `target=100 storytelling=on`.")
    out: dict[str, str] = {}
    for part in text.replace(",", " ").split():
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise ServiceError(f"Options look like `key=value` (for example `target=100`); "
                               f"`{echo(part)}` does not.")
        out[key.strip()] = value.strip()
    return out


LOG_LINE_MAX = 260
"""15 log lines of at most this length fit one embed description."""
LOG_READ = 60
"""Log entries read for one `/game log`: the steps that told the reader nothing are left out."""
LOG_SHOWN = 15
LOG_PAGES = 10
"""At most this many reads of `LOG_READ` entries for one `/game log` (600 entries back)."""
_ENDED = (".", "!", "?", "…", ":")


def join_events(texts: list[str]) -> str:
    """One action's event lines as one log line: a line that ends its sentence is followed by a
    space, any other by "; " (never ".;")."""
    out = ""
    for text in texts:
        text = text.strip()
        if not text:
            continue
        if out:
            out += " " if out.rstrip("*_)\"'").endswith(_ENDED) else "; "
        out += text
    return out


def clip_line(text: str, limit: int = LOG_LINE_MAX) -> str:
    """`text` within `limit` characters, cut at a word, never inside a pair of markdown marks."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    for mark in ("**", "__", "~~", "||", "`"):
        while cut.count(mark) % 2:
            cut = cut[: cut.rfind(mark)]
    return cut.rstrip(" ;,") + "…"


def log_line(entry, viewer: str | None, names: dict[str, str] | None = None) -> str | None:
    """One log entry as `viewer` may read it, with the players' names: the events they may see,
    or None when they may see none (a step of a choice, a card drawn by another player: the
    reader is told nothing, so no line tells that something hidden happened). Never the action
    key: it may name a card the viewer must not know."""
    texts = [ev.text for ev in entry.events if ev.visible_for(viewer)]
    if not texts:
        return None
    return clip_line(name_players(join_events(texts), names or {}))


def unknown_game(game_id: str) -> ServiceError:
    return ServiceError(f"Unknown game `{echo(game_id)}`. Installed: {', '.join(sorted(rules.GAMES))}.")


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    current = current.lower()
    return [
        app_commands.Choice(name=f"{g.name} ({g.min_players}-{g.max_players} players)"[:100], value=gid)
        for gid, g in sorted(rules.GAMES.items())
        if current in gid or current in g.name.lower()
    ][:25]


AWAY_DAYS_MAX = 60


def away_until(text: str | None, now: float) -> float | None:
    """When a person away is back: a day (YYYY-MM-DD, its start in UTC) or a number of days from
    now; None: until they say so. ServiceError for anything else, or beyond `AWAY_DAYS_MAX`."""
    if text is None or not text.strip():
        return None
    text = text.strip()[:20]
    if text.isascii() and text.isdigit():
        at = now + int(text) * 86400
    else:
        try:
            day = datetime.datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=datetime.UTC)
        except ValueError:
            raise ServiceError("That is not a day: write it as 2026-12-24, or a number of days.") from None
        at = day.timestamp()
    if at <= now:
        raise ServiceError("That day has come already.")
    if at > now + AWAY_DAYS_MAX * 86400:
        raise ServiceError(f"Away for at most {AWAY_DAYS_MAX} days; leave it empty to be away "
                           "until you use `/game back`.")
    return at


class GameCog(commands.Cog):
    game = app_commands.Group(name="game", description="Play a tabletop game at this channel's table",
                              guild_only=False)

    def __init__(self, bot: commands.Bot, controller: Controller):
        self.bot = bot
        self.controller = controller
        self.service = controller.service

    async def _guard(self, interaction: discord.Interaction, coro) -> None:
        try:
            await coro
        except (ServiceError, IllegalAction) as exc:
            await reply_error(interaction, error_text(exc))

    async def _session_here(self, interaction: discord.Interaction, *, finished: bool = False):
        """The game at this table (in a DM: the user's newest game); `finished` allows an ended one."""
        if interaction.guild_id is None:
            sessions = await self.service.sessions_of_user(interaction.user.id)
            if not sessions:
                raise ServiceError("You are not playing any game right now.")
            return sessions[-1]
        session = await self.service.active_in_channel(channel_of(interaction))
        if session is None and finished:
            session = await self.service.latest_in_channel(channel_of(interaction))
        if session is None:
            raise ServiceError("No game is open in this channel. Start one with `/game new`.")
        return session

    # --------------------------------------------------------------- /game new
    @game.command(name="new", description="Open a table for a game in this channel")
    @app_commands.describe(game="Which game", options="Game options as key=value, e.g. target=100")
    @app_commands.autocomplete(game=game_autocomplete)
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None) -> None:
        await self._guard(interaction, self._new(interaction, game, options))

    async def _new(self, interaction: discord.Interaction, game_id: str, options: str | None) -> None:
        if interaction.guild_id is None:
            raise ServiceError("Open a table in a server channel; your private views come by DM.")
        if game_id not in rules.GAMES:
            raise unknown_game(game_id)
        session = await self.service.open_lobby(
            guild_id=interaction.guild_id, channel_id=channel_of(interaction), game_id=game_id,
            host_id=interaction.user.id, host_name=interaction.user.display_name,
            options=parse_options(options))
        message_id = await self.controller.send_response(interaction, table.lobby_payload(session))
        if message_id:
            await self.service.set_table_message(session.id, channel_of(interaction), message_id)

    # --------------------------------------------------------------- /game hand
    @game.command(name="hand", description="Show your hand and your moves (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        async def run():
            session = await self._session_here(interaction)
            await self.controller.show_hand(interaction, session)
        await self._guard(interaction, run())

    # --------------------------------------------------------------- /game turns
    @game.command(name="turns", description="Every table where it is your turn, longest waiting first")
    async def turns(self, interaction: discord.Interaction) -> None:
        async def run():
            waiting = await self.service.turns_of(interaction.user.id)
            await interaction.response.send_message(embed=to_embed(inbox.turns_panel(waiting)),
                                                    ephemeral=True)
        await self._guard(interaction, run())

    # --------------------------------------------------------------- /game status
    @game.command(name="status", description="Post the table again at the bottom of the channel")
    async def status(self, interaction: discord.Interaction) -> None:
        async def run():
            session = await self._session_here(interaction)
            payload = await table.render_table(session) if session.state_json else table.lobby_payload(session)
            old = (session.table_channel_id, session.table_message_id)
            message_id = await self.controller.send_response(interaction, payload)
            if message_id and interaction.guild_id is not None:
                await self.service.set_table_message(session.id, channel_of(interaction), message_id)
                if old[1] and old[1] != message_id:
                    try:
                        await self.bot.get_partial_messageable(old[0]).get_partial_message(old[1]).edit(
                            content="The table moved to a newer message below.", view=None)
                    except discord.HTTPException:
                        pass
        await self._guard(interaction, run())

    # --------------------------------------------------------------- /game rules
    @game.command(name="rules", description="How a game is played")
    @app_commands.describe(game="Which game (default: the one at this table)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def rules_cmd(self, interaction: discord.Interaction, game: str | None = None) -> None:
        async def run():
            game_id = game
            if game_id is None:
                session = await self.service.active_in_channel(channel_of(interaction)) \
                    if interaction.guild_id else None
                if session is None:
                    raise ServiceError("Name a game: `/game rules game:<name>`.")
                game_id = session.game_id
            if game_id not in rules.GAMES:
                raise unknown_game(game_id)
            page = table.rules_page_payload(game_id, 0)
            await interaction.response.send_message(ephemeral=True, **page.send_kwargs())
        await self._guard(interaction, run())

    # --------------------------------------------------------------- /game log
    @game.command(name="log", description="The last moves of the game at this table")
    async def log(self, interaction: discord.Interaction) -> None:
        async def run():
            session = await self._session_here(interaction, finished=True)
            seat = session.seat_of_user(interaction.user.id)
            viewer = seat.player_id if seat else None
            names = session.names()
            lines: list[str] = []
            before: int | None = None
            # back through the log until enough lines are found: how many steps told this reader
            # nothing (other players' private steps) must not change which lines they see
            for _ in range(LOG_PAGES):
                if len(lines) >= LOG_SHOWN:
                    break
                entries = await self.service.recent_log(session.id, limit=LOG_READ, before=before)
                # no step numbers: their gaps would count the steps hidden from this reader
                lines = [f"• {line}" for e in entries if (line := log_line(e, viewer, names))] + lines
                if len(entries) < LOG_READ:
                    break
                before = entries[0].version
            lines = lines[-LOG_SHOWN:]
            panel = Panel(title=f"{session.game().name}: last moves",
                          description="\n".join(lines) or "Nothing to show yet.",
                          colour=session.game().colour)
            await interaction.response.send_message(embed=to_embed(panel), ephemeral=True)
        await self._guard(interaction, run())

    # --------------------------------------------------------------- /game leave
    @game.command(name="leave", description="Leave the game here; the automatic player takes your seat")
    async def leave(self, interaction: discord.Interaction) -> None:
        async def run():
            session = await self._session_here(interaction)
            if session.status == "lobby":
                session = await self.service.leave_lobby(session.id, interaction.user.id)
                await interaction.response.send_message("You left the lobby.", ephemeral=True)
                await self._refresh_lobby(session)
                return
            result = await self.controller.within_budget(
                interaction, self.service.leave_game(session.id, interaction.user.id), private=True)
            if result.session.status == "abandoned":
                text = "You left; with nobody left at the table, the game is over."
            else:
                text = "You left the game; the automatic player plays your seat from now on."
            await self.controller.acknowledge(interaction, text)
            await self.controller.publish(result, actor=interaction.user.id, interaction=interaction)
            if result.session.status == "abandoned":
                await self.controller.update_table(result.session)
        await self._guard(interaction, run())

    # --------------------------------------------------------------- /game back
    @game.command(name="away", description="Put your seats in every game on hold while you are away")
    @app_commands.describe(until="The day you are back (YYYY-MM-DD, UTC) or a number of days; "
                                 "empty: until /game back")
    async def away(self, interaction: discord.Interaction, until: str | None = None) -> None:
        async def run():
            back_at = away_until(until, self.service.clock())
            results = await self.controller.within_budget(
                interaction, self.service.set_away(interaction.user.id, back_at), private=True)
            said = f"until {utc_day(back_at)}" if back_at else "until you use `/game back`"
            await self.controller.acknowledge(
                interaction, f"You are away {said}: {count(len(results), 'table')} wait for you "
                             "(no automatic player, no reminders).")
            for result in results:
                await self.controller.publish(result)
        await self._guard(interaction, run())

    @game.command(name="back", description="Back from away, or take your seat back from the automatic player")
    async def back(self, interaction: discord.Interaction) -> None:
        async def run():
            returned = await self.controller.within_budget(
                interaction, self.service.come_back(interaction.user.id), private=True)
            for result in returned:
                await self.controller.publish(result)
            session = await self.service.active_in_channel(channel_of(interaction)) \
                if interaction.guild_id is not None else None
            seat = session.seat_of_user(interaction.user.id) if session is not None else None
            if session is None or seat is None or not seat.auto:
                if not returned:
                    raise ServiceError("You are already playing this seat, and you are not away."
                                       if seat is not None else
                                       "You are not away, and no seat of yours is played by the "
                                       "automatic player here.")
                await self.controller.acknowledge(
                    interaction, f"Welcome back: your turns are timed again at "
                                 f"{count(len(returned), 'table')}.")
                return
            result = await self.service.take_back_seat(session.id, interaction.user.id)
            await self.controller.acknowledge(interaction, "Your seat is yours again.")
            await self.controller.publish(result, initial=True, actor=interaction.user.id,
                                          interaction=interaction)
        await self._guard(interaction, run())

    async def _refresh_lobby(self, session) -> None:
        if session.table_message_id and session.table_channel_id:
            try:
                await self.bot.get_partial_messageable(session.table_channel_id).get_partial_message(
                    session.table_message_id).edit(**table.lobby_payload(session).edit_kwargs())
            except discord.HTTPException:
                pass

    # --------------------------------------------------------------- /game end
    @game.command(name="end", description="End the game at this table (host or Manage Channels)")
    async def end(self, interaction: discord.Interaction) -> None:
        async def run():
            session = await self._session_here(interaction)
            session = await self.service.end(session.id, interaction.user.id,
                                             can_manage=can_manage(interaction))
            await self.controller.acknowledge(
                interaction, f"{interaction.user.mention} ended the game of **{session.game().name}**.",
                ephemeral=False)
            if session.state_json:
                await self.controller.show_ended(session, note="The game was ended.")
            else:
                await self._refresh_lobby(session)
        await self._guard(interaction, run())

    # --------------------------------------------------------------- /game autoplay
    @game.command(name="autoplay", description="Give a player's seat to the automatic player (host)")
    @app_commands.describe(player="The player whose seat the automatic player takes")
    async def autoplay(self, interaction: discord.Interaction, player: discord.User) -> None:
        async def run():
            session = await self._session_here(interaction)
            seat = session.seat_of_user(player.id)
            if seat is None:
                raise ServiceError(f"{escape_markdown(player.display_name)} is not playing in this game.")
            result = await self.controller.within_budget(interaction, self.service.hand_to_auto(
                session.id, seat.player_id, interaction.user.id, can_manage=can_manage(interaction)), private=True)
            await self.controller.acknowledge(interaction, f"The automatic player now plays {escape_markdown(seat.name)}'s seat.")
            await self.controller.publish(result, interaction=interaction)  # the host may be pinged
        await self._guard(interaction, run())

    # --------------------------------------------------------------- /game stats
    @game.command(name="stats", description="Wins per player in this server")
    @app_commands.describe(game="Only this game")
    @app_commands.autocomplete(game=game_autocomplete)
    async def stats(self, interaction: discord.Interaction, game: str | None = None) -> None:
        async def run():
            if interaction.guild_id is None:
                raise ServiceError("Statistics are kept per server: use this in a server channel.")
            if game is not None and game not in rules.GAMES:
                raise unknown_game(game)
            rows = await self.service.stats(interaction.guild_id, game)
            panel = Panel(title="Pantheon: wins in this server", colour=0x5865F2)
            by_game: dict[str, list] = {}
            for row in rows:
                by_game.setdefault(row.game_id, []).append(row)
            for game_id, game_rows in sorted(by_game.items()):
                name = rules.GAMES[game_id].name if game_id in rules.GAMES else game_id
                lines = []
                for r in sorted(game_rows, key=lambda r: (-r.won, -r.played, r.name))[:15]:
                    line = f"**{escape_markdown(r.name)}**: {r.won} won of {r.played}"
                    extras = [f"{tag.replace(':', ' ', 1)} {v.get('won', 0)}/{v.get('played', 0)}"
                              for tag, v in sorted(r.tags.items())]
                    if extras:
                        line += " (" + ", ".join(extras[:6]) + ")"
                    lines.append(line)
                panel.add(name, "\n".join(lines))
            if not rows:
                panel.description = "No finished games yet."
            await interaction.response.send_message(embed=to_embed(panel))
        await self._guard(interaction, run())
