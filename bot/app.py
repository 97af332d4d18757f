"""Building the configured bot without connecting: the real bot, the tests and the
benchmark all start from `build_bot`."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands

from bot.cogs.character import CharacterCog
from bot.cogs.dice import DiceCog
from bot.cogs.game import GameCog
from bot.cogs.move import MoveCog
from bot.config import Settings
from bot.controller import Controller
from bot.models import keep_states
from bot.sessions import SessionService
from bot.store import Store
from bot.ui.items import modal_text
from rules.core import new_seed
from rules.core.content import set_content_dir
from rules.core.dice import warm_up as warm_up_dice

log = logging.getLogger("pantheon")

SHUTDOWN_EDITS_WAIT = 8.0
"""Seconds a stopping bot waits for its queued table and DM edits (paced per channel, so a busy
channel's last edits may wait a few seconds): a restart does not leave a table behind its game
(Docker stops a container after 10 s)."""
HEARTBEAT_SECONDS = 30.0
"""How often the heartbeat file is written while connected."""
HEARTBEAT_STALE = 90.0
"""A heartbeat older than this means the bot is not connected (or not running)."""


COLLECTOR_THRESHOLDS = (2_000, 100, 20)
"""Python's collector thresholds in the bot (young objects, then the older generations)."""


class PantheonBot(commands.Bot):
    """discord.py's Bot with Pantheon's store, session service and controller attached."""

    def __init__(self, settings: Settings, *, clock: Callable[[], float] = time.time,
                 seed_source: Callable[[], int] = new_seed, run_timers: bool = True,
                 store: Store | None = None):
        intents = discord.Intents.none()
        intents.guilds = True  # channel and thread names; no privileged intents are needed
        shards: dict[str, Any] = {}
        if isinstance(self, discord.AutoShardedClient):  # ShardedPantheonBot: SHARD_COUNT is set
            shards = {"shard_count": settings.shard_count, "shard_ids": settings.shards}
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, allowed_mentions=discord.AllowedMentions.none(),
                         **shards)
        self.settings = settings
        self.clock = clock
        self.seed_source = seed_source
        self.run_timers = run_timers
        self.store: Store | None = store
        self.service: SessionService | None = None
        self.controller: Controller | None = None
        self._timer_task: asyncio.Task | None = None
        self._heartbeat_task: asyncio.Task | None = None

    async def setup_hook(self) -> None:
        if self.settings.content_dir:
            set_content_dir(self.settings.content_dir)
        keep_states(self.settings.kept_states)
        if self.store is None:
            self.store = await Store.open(self.settings.database)
        self.service = SessionService(self.store, clock=self.clock, seed_source=self.seed_source)
        # which turn timers are this process's when several share a database (service/timers.py)
        self.service.shard_count = self.settings.shard_count
        self.service.shard_ids = self.settings.shards
        self.service.lease = self.settings.worker_lease_seconds
        self.controller = Controller(self, self.service)
        await self.add_cog(GameCog(self, self.controller))
        await self.add_cog(DiceCog(self, seed_source=self.seed_source))
        await self.add_cog(MoveCog(self, self.controller))
        await self.add_cog(CharacterCog(self, self.controller))
        # d20's import and grammar (86-90 ms of CPU) in a worker thread, before any /roll can
        # come: no roll pays for them on the event loop.
        await asyncio.to_thread(warm_up_dice)
        # Everything loaded so far (content, registries, discord.py's caches) lives for the whole
        # process: keep it out of the collector's full passes, which otherwise add ~25 ms pauses.
        gc.freeze()
        # A click makes many short-lived objects and few cycles (reference counting frees them);
        # with the default thresholds (700, 10, 10) the collector's passes came every few clicks
        # and its older passes walked the kept states of every busy table: at 200 tables a click
        # cost 1.2-1.4x a lone table's CPU (python -m bench, the load table; 20,000 young objects
        # made rarer but longer pauses: p99 up to 13x the floor). Many clicks in flight keep
        # their young objects alive through the young passes, so the middle generation filled
        # fast: its passes every 100 young ones instead of 20 took 200 tables from 1.21-1.22x a
        # lone table's CPU to 1.13-1.14x (the same moves at each level), with no longer p99.
        gc.set_threshold(*COLLECTOR_THRESHOLDS)
        if self.run_timers:
            self._timer_task = asyncio.create_task(self._timers(), name="pantheon-timers")

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Buttons, menus and text forms are routed by their custom id (bot/ui/items.py): one sent
        before a restart, or a form answered after its 15 minutes, still reaches the controller."""
        if self.controller is None or interaction.type not in (discord.InteractionType.component,
                                                               discord.InteractionType.modal_submit):
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = data.get("custom_id")
        if interaction.type is discord.InteractionType.component:
            # every component of the bot's messages is Pantheon's: one it cannot read (damaged, or
            # from another version) gets a clear answer; a menu's values are checked by the
            # controller (they may be forged)
            await self.controller.on_component(interaction, custom_id if isinstance(custom_id, str) else "",
                                               data.get("values"))
        elif isinstance(custom_id, str) and custom_id.startswith("pm:"):
            await self.controller.on_modal(interaction, custom_id, modal_text(data))

    async def on_ready(self) -> None:
        log.info("connected as %s to %d server(s)", self.user, len(self.guilds))
        if self.settings.heartbeat_path and self._heartbeat_task is None:
            self._heartbeat_task = asyncio.create_task(self._heartbeat(), name="pantheon-heartbeat")

    async def _heartbeat(self) -> None:
        """While connected, the time goes into the heartbeat file (the health check reads it)."""
        path = self.settings.heartbeat_path
        assert path is not None
        while not self.is_closed():
            if self.is_ready() and not self.is_ws_ratelimited():
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(f"{time.time():.0f}\n", encoding="utf-8")
                except OSError as exc:
                    log.warning("heartbeat file %s: %s", path, exc)
            await asyncio.sleep(HEARTBEAT_SECONDS)

    async def sync_commands(self) -> None:
        """Instant sync to the development guild, or a global sync."""
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def _timers(self) -> None:
        while not self.is_closed():
            assert self.controller is not None and self.service is not None  # set in setup_hook
            try:
                await self.controller.tick()
                nxt = await self.service.next_deadline()
            except Exception:  # a timer failure must never stop the loop
                log.exception("turn timers")
                nxt = None
            delay = self.settings.timer_poll_seconds
            if nxt is not None:
                delay = max(0.5, min(delay, nxt - self.clock()))
            await asyncio.sleep(delay)

    async def close(self) -> None:
        for task in (self._timer_task, self._heartbeat_task):
            if task is None:
                continue
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        if self.controller is not None:  # the tables and DMs show the last moves before we go
            try:
                await asyncio.wait_for(self.controller.edits.drain(), SHUTDOWN_EDITS_WAIT)
            except Exception:  # noqa: BLE001 - a timeout too: shutting down regardless
                log.warning("Stopping with message edits still queued (after %s s)", SHUTDOWN_EDITS_WAIT)
        await super().close()
        if self.store is not None and self.service is not None and self.run_timers:
            try:  # the other processes take over this one's guilds' timers at once
                await self.service.stop_timers()
            except Exception:
                log.exception("giving back the turn timers")
        if self.store is not None:
            await self.store.close()
            self.store = None


class ShardedPantheonBot(PantheonBot, commands.AutoShardedBot):
    """The same bot on discord.py's AutoShardedBot: the shards SHARD_IDS of SHARD_COUNT, each its
    own gateway connection in this one process (README: Running at scale)."""


def build_bot(settings: Settings | None = None, **kwargs) -> PantheonBot:
    settings = settings or Settings()
    if settings.shard_count is not None:
        return ShardedPantheonBot(settings, **kwargs)
    return PantheonBot(settings, **kwargs)
