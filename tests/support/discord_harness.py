"""An offline Discord for tests: raw gateway payloads in, recorded REST calls out.

The real discord.py client (its parsing, `CommandTree`, Views, `DynamicItem`s)
runs unchanged; only the two network choke points are replaced:
`HTTPClient.request` (bot-token calls) and `AsyncWebhookAdapter.request`
(interaction callbacks, followups, `@original` edits). The fake answers like
Discord does, and keeps the messages it was asked to create so a test can read
what the channel now shows and click what the bot actually sent.

    async with DiscordHarness(build_bot(settings)) as h:
        reply = await h.slash("game new", user=1001, options={"game": "high-card"})
        await h.click(reply.message, h.find_button(reply.message, "Join"), user=1002)

- Each interaction call (`slash`, `click`, `select`, `submit_modal`, `autocomplete`) returns
  when every task it caused has finished (tasks are traced through their context, so
  concurrent calls under `asyncio.gather` wait only for their own). Sleepers are not
  awaited: view timeouts, `view.wait()`, `tasks.loop`s, `asyncio.sleep` of >= 1 s, and the
  tasks `setup_hook` starts (background jobs). `settle()` waits for everything fed so far.
- ERROR records on the `discord` and root loggers, and tasks that die of an exception,
  raise `HarnessError` at the end of the call (or in `settle()`/`close()`), unless inside
  `with h.allow_errors() as caught:`. An interaction nobody answered raises too
  (`require_answer=False` to allow it).
- Discord's rules are enforced: clicks only on components the message has (not disabled),
  only the recipient clicks a DM, only the asker an ephemeral answer; select values must be
  options; required modal inputs; commands hidden by `default_permissions` or unavailable in
  DMs raise `CommandUnavailable`; bodies over Discord's limits answer 400 (50035), empty
  messages 400 (50006), a DM to a `block_dms` user 403 (50007) when the message is sent.
- Every call is checked against Discord's own published API description and what it cannot say
  (tests/support/contract.py: the operation's request schema, 6,000 characters of embeds, unique
  custom ids, `allowed_mentions`, unicode emoji, uploaded `attachment://` pictures): a violation
  is answered 400 (50035) and fails the test, even if the bot handles the 400.
- `DiscordHarness(new_bot, restart_of=old_harness)` continues the same Discord after a
  restart: same messages (old `FakeMessage`s stay live), DM channels and tokens.

Facts it relies on: /work/shared/notes/discord-offline-testing.md (discord.py 2.7).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import copy
import inspect
import itertools
import json
import logging
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NoReturn

import discord
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

from tests.support import contract
from tests.support import payloads as P

DEFAULT_MEMBERS = {1001: "alice", 1002: "bob", 1003: "carol", 1004: "dave"}
OWNER_ID = 1  # the guild's owner: not a member, so nobody gets owner powers by accident
TASK_DEADLINE = 10.0  # seconds to wait for the bot's tasks before reporting them as stuck
SLEEPER_SECONDS = 1.0  # an `asyncio.sleep` this long or longer is a sleeper: never awaited
WAKE_FALLBACK = 0.5  # seconds a wait for the bot's tasks lasts without any signal (a missed one)


class CommandUnavailable(AssertionError):
    """Discord would not offer this command to that user here (permissions or context)."""


class HarnessError(AssertionError):
    """The bot logged an error, left a task failing, or did something Discord refuses."""


# --- records -------------------------------------------------------------------------------


@dataclass
class RestCall:
    """One REST call the bot made, as Discord would have received it."""

    method: str
    path: str  # without the API base and without the query string
    json: Any  # the body; `payload_json` parsed for multipart requests
    files: list[tuple[str, bytes]]
    via: str  # "http" (bot token) or "webhook" (interaction token)
    params: dict[str, Any] | None = None
    status: int = 200  # what the fake answered (an injected failure shows here)
    at: float = field(default_factory=time.perf_counter)  # when the bot made it

    def __repr__(self) -> str:
        return f"<RestCall {self.method} {self.path} {self.status}>"


@dataclass(eq=False)
class FakeMessage:
    """A message as Discord holds it (updated in place by later edits)."""

    id: int
    channel_id: int
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    files: list[tuple[int, str, bytes]] = field(default_factory=list)  # (attachment id, name, bytes)
    ephemeral: bool = False
    deleted: bool = False
    edits: int = 0
    interaction_token: str | None = None
    loading: bool = False  # a deferred "thinking" message not yet filled in
    guild_id: int | None = None
    flags: int = 0
    type: int = 0
    author_id: int = 0

    @property
    def attachments(self) -> dict[str, bytes]:
        return {name: data for _, name, data in self.files}

    def buttons(self) -> list[dict]:
        return [c for c in P.iter_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict]:
        return [c for c in P.iter_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def component(self, custom_id: str) -> dict | None:
        for comp in P.iter_components(self.components):
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    def text(self) -> str:
        return message_text(self.content, self.embeds)

    def __repr__(self) -> str:
        state = " deleted" if self.deleted else (" ephemeral" if self.ephemeral else "")
        return f"<FakeMessage {self.id} in {self.channel_id}{state} {self.text()[:60]!r}>"


def message_text(content: str | None, embeds: list[dict]) -> str:
    parts = [content or ""]
    for embed in embeds:
        parts += [(embed.get("author") or {}).get("name") or "", embed.get("title") or "",
                  embed.get("description") or ""]
        for f in embed.get("fields") or []:
            parts += [str(f.get("name") or ""), str(f.get("value") or "")]
        parts.append((embed.get("footer") or {}).get("text") or "")
    return "\n".join(p for p in parts if p)


@dataclass(eq=False)
class Reply:
    """What one interaction produced."""

    type: int | None = None  # callback type: 4 message, 5 deferred, 6 deferred update, 7 update, 8, 9
    data: dict | None = None  # the callback body's data
    ephemeral: bool = False
    message: FakeMessage | None = None  # the original response, or the edited component message
    followups: list[FakeMessage] = field(default_factory=list)
    calls: list[RestCall] = field(default_factory=list)
    created: list[FakeMessage] = field(default_factory=list)  # every message created meanwhile (DMs too)
    interaction_id: int = 0
    token: str = ""
    channel_id: int | None = None
    guild: bool = True
    source: FakeMessage | None = None  # the message whose component was used, if any

    @property
    def content(self) -> str:
        if self.message is not None:
            return self.message.content
        return (self.data or {}).get("content") or ""

    @property
    def embeds(self) -> list[dict]:
        if self.message is not None:
            return self.message.embeds
        return (self.data or {}).get("embeds") or []

    @property
    def components(self) -> list[dict]:
        if self.message is not None:
            return self.message.components
        return (self.data or {}).get("components") or []

    @property
    def modal(self) -> dict:
        assert self.type == 9, f"the bot answered with type {self.type}, not a modal"
        return self.data or {}

    @property
    def choices(self) -> list[dict]:
        assert self.type == 8, f"the bot answered with type {self.type}, not autocomplete"
        return (self.data or {}).get("choices") or []

    def text(self) -> str:
        parts = [message_text(self.content, self.embeds)]
        parts += [m.text() for m in self.followups if m is not self.message]
        return "\n".join(p for p in parts if p)

    def __repr__(self) -> str:
        return f"<Reply type={self.type} ephemeral={self.ephemeral} {self.text()[:80]!r}>"


@dataclass(eq=False)
class _Interaction:
    id: int
    token: str
    type: int
    kind: int  # 2 command, 3 component, 4 autocomplete, 5 modal
    channel_id: int
    guild: bool
    reply: Reply
    user_id: int = 0
    source: FakeMessage | None = None
    original: FakeMessage | None = None
    answered: bool = False


class _FakeResponse:
    """Just enough of aiohttp's response for discord.py's HTTPException."""

    def __init__(self, status: int, reason: str = "") -> None:
        self.status = status
        self.reason = reason or {400: "Bad Request", 403: "Forbidden", 404: "Not Found",
                                 429: "Too Many Requests"}.get(status, "Error")
        self.headers: dict[str, str] = {}


def http_error(status: int, code: int = 0, message: str = "") -> discord.HTTPException:
    """The exception discord.py raises for such an answer."""
    response = _FakeResponse(status)
    data = {"code": code, "message": message or response.reason}
    if status == 403:
        return discord.Forbidden(response, data)
    if status == 404:
        return discord.NotFound(response, data)
    if status >= 500:
        return discord.DiscordServerError(response, data)
    return discord.HTTPException(response, data)


class _OfflineSession:
    """Stands in for the aiohttp session: any real request is a bug in the harness."""

    closed = False

    def __init__(self, harness: DiscordHarness) -> None:
        self.harness = harness

    def request(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"network access in an offline test: {args!r}")

    get = post = ws_connect = request

    async def close(self) -> None:
        self.closed = True


class _FakeSocket:
    """The websocket under the real DiscordWebSocket: records what the bot sends."""

    def __init__(self) -> None:
        self.closed = False
        self.sent: list[dict] = []

    async def send_str(self, data: str) -> None:
        self.sent.append(json.loads(data))

    async def close(self, *, code: int = 1000, message: bytes = b"") -> bool:
        self.closed = True
        return True


class _ErrorCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self._recent: collections.deque[logging.LogRecord] = collections.deque(maxlen=8)

    def emit(self, record: logging.LogRecord) -> None:
        if not any(r is record for r in self._recent):  # it reaches `discord`, then the root logger
            self._recent.append(record)
            self.records.append(record)


# --- the webhook adapter patch (shared by every harness alive) ------------------------------

_original_webhook_request = AsyncWebhookAdapter.request
_webhook_patch_users = 0


async def _webhook_request(self: AsyncWebhookAdapter, route: Route, session: Any, **kwargs: Any) -> Any:
    harness = getattr(session, "harness", None)
    if isinstance(session, _OfflineSession) and harness is not None:
        return await harness._webhook_request(route, **kwargs)
    return await _original_webhook_request(self, route, session, **kwargs)


def _patch_webhooks() -> None:
    global _webhook_patch_users
    _webhook_patch_users += 1
    AsyncWebhookAdapter.request = _webhook_request  # type: ignore[method-assign]


def _unpatch_webhooks() -> None:
    global _webhook_patch_users
    _webhook_patch_users -= 1
    if _webhook_patch_users <= 0:
        _webhook_patch_users = 0
        AsyncWebhookAdapter.request = _original_webhook_request  # type: ignore[method-assign]


# --- which interaction caused which task ---------------------------------------------------
# A task inherits the context of the code that creates it, so every task started while an
# interaction is fed (and every task those start) lands in that interaction's set.

_SNOWFLAKES = itertools.count(P.SNOWFLAKE_START + 1)  # ids unique across harnesses in a process

_CAUSE: contextvars.ContextVar[set[asyncio.Task] | None] = contextvars.ContextVar(
    "harness_cause", default=None)
_factories: dict[asyncio.AbstractEventLoop, tuple[int, Any]] = {}


def _install_task_factory(loop: asyncio.AbstractEventLoop) -> None:
    users, previous = _factories.get(loop, (0, loop.get_task_factory()))
    if users == 0:
        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task:
            if previous is not None:
                task = previous(loop, coro, **kwargs)
            else:
                task = asyncio.Task(coro, loop=loop, **kwargs)
            caused = _CAUSE.get()
            if caused is not None:
                caused.add(task)
            return task

        loop.set_task_factory(factory)
    _factories[loop] = (users + 1, previous)


def _remove_task_factory(loop: asyncio.AbstractEventLoop) -> None:
    users, previous = _factories.get(loop, (1, None))
    if users <= 1:
        _factories.pop(loop, None)
        loop.set_task_factory(previous)
    else:
        _factories[loop] = (users - 1, previous)


# --- the harness ---------------------------------------------------------------------------


class DiscordHarness:
    """A guild, its channels and members, and the Discord API, for one `commands.Bot`."""

    def __init__(
        self,
        bot: commands.Bot,
        *,
        guild_id: int = 1000,
        channel_ids: tuple[int, ...] = (2000, 2001),
        thread_ids: tuple[int, ...] = (),
        members: dict[int, str] | None = None,
        bot_user_id: int = 9000,
        application_id: int = 9000,
        owner_id: int = OWNER_ID,
        require_answer: bool = True,
        validate: bool = True,
        restart_of: DiscordHarness | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """`restart_of`: a closed harness whose Discord this one continues (a bot restart): same
        guild, channels, members, messages, DM channels and interaction tokens; fresh `calls`."""
        self.bot = bot
        self.guild_id = guild_id
        self.channel_ids = tuple(channel_ids)
        self.thread_ids = tuple(thread_ids)
        self.members = dict(DEFAULT_MEMBERS if members is None else members)
        self.bot_user_id = bot_user_id
        self.application_id = application_id
        self.owner_id = owner_id
        self.require_answer = require_answer  # every interaction must get a callback
        self.validate = validate  # refuse (400, 50035) what breaks Discord's limits
        self.task_deadline = TASK_DEADLINE
        self.clock = clock  # stamps each RestCall (`at`): a test may run the bot on virtual time

        self.calls: list[RestCall] = []
        self.gateway_sent: list[dict] = []  # frames the bot sent (presence ...)
        self.synced_commands: dict[int | None, list[dict]] = {}  # guild id (None: global) -> commands
        self.permissions: dict[int, int] = {}  # user id -> channel permissions, when not the default
        self.errors: list[logging.LogRecord | str] = []  # errors not yet reported

        self._messages: dict[int, FakeMessage] = {}
        self._created: list[FakeMessage] = []  # every message created, in order
        self._ephemerals: dict[int, list[FakeMessage]] = {}  # user id -> ephemeral answers to them
        self._channels: dict[int, list[FakeMessage]] = {}
        self._guild_channels: dict[int, dict] = {}
        self._dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self._dm_users: dict[int, int] = {}  # DM channel id -> user id
        self._blocked_dms: set[int] = set()
        self._failures: list[tuple[str, re.Pattern[str], int, int, str]] = []
        self._slow_answers: dict[int, float] = {}  # user id -> seconds their next answer waits
        self._interactions: dict[str, _Interaction] = {}
        self._command_ids: dict[tuple[str, int | None], int] = {}
        self._seq = 0
        self._started = False
        self._closed = False
        self._collector = _ErrorCollector()
        self._allowing: list[list[Any]] = []
        self._buckets: list[set[asyncio.Task]] = []  # tasks caused by each frame fed
        self._before_start: set[asyncio.Task] = set()
        self._drivers: set[asyncio.Task] = set()
        self._ignored_tasks: list[Callable[[asyncio.Task], bool]] = []
        self._session = _OfflineSession(self)
        # each wait for the bot's tasks: its wake-up future -> the tasks it waits for (re-read);
        # a wait for one frame's tasks is also found by that frame's bucket (see `_wake_now`)
        self._waiters: dict[asyncio.Future, Callable[[], Any]] = {}
        self._bucket_waits: dict[int, set[asyncio.Future]] = {}  # id(bucket) -> its waits
        self._across: dict[asyncio.Future, Callable[[], Any]] = {}  # the waits for no one frame
        # what may be parking on a sleeper: (the task, the bucket of the frame that caused it)
        self._parking: set[tuple[asyncio.Task | None, int | None]] = set()
        self._wake_scheduled = False
        self._unwatch: Callable[[], None] | None = None
        self._socket = _FakeSocket()
        self.ws: DiscordWebSocket | None = None

        if restart_of is not None:
            self._continue(restart_of)
            return
        for position, channel_id in enumerate(self.channel_ids):
            self._guild_channels[channel_id] = P.text_channel(channel_id, guild_id, position=position)
        for thread_id in self.thread_ids:
            parent = self.channel_ids[0]
            self._guild_channels[thread_id] = P.thread_channel(thread_id, guild_id, parent, bot_user_id)
        for channel_id in self._guild_channels:
            self._channels[channel_id] = []

    def _continue(self, old: DiscordHarness) -> None:
        for name in ("guild_id", "channel_ids", "thread_ids", "members", "bot_user_id", "application_id",
                     "owner_id", "synced_commands", "permissions", "_messages", "_channels",
                     "_guild_channels", "_dm_channels", "_dm_users", "_blocked_dms", "_interactions",
                     "_command_ids", "_ephemerals"):
            setattr(self, name, getattr(old, name))

    # --- life cycle -----------------------------------------------------------------------

    async def __aenter__(self) -> DiscordHarness:
        await self.start()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc is None:
            await self.close()
            return
        await self.close(raise_errors=False)
        self._collect()
        if self.errors and hasattr(exc, "add_note"):
            exc.add_note("the bot also reported errors:\n" + _describe(self.errors))

    async def start(self) -> None:
        """Prime the bot as `login()` + `connect()` would, without a network."""
        assert not self._started, "start() was already called"
        self._started = True
        self._before_start = set(asyncio.all_tasks())
        try:
            await self._start()
        except BaseException:
            self._closed = True
            self._restore()
            raise

    async def _start(self) -> None:
        logging.getLogger("discord").addHandler(self._collector)
        logging.getLogger().addHandler(self._collector)
        _patch_webhooks()
        _install_task_factory(asyncio.get_running_loop())
        self._watch_sleepers(asyncio.get_running_loop())

        bot = self.bot
        http = bot.http
        await bot._async_setup_hook()
        http.token = "harness-token"
        http._HTTPClient__session = self._session  # type: ignore[attr-defined]
        over = asyncio.Event()
        over.set()
        http._global_over = over
        http.request = self._http_request  # type: ignore[method-assign]
        state = bot._connection
        state._chunk_guilds = False
        state.guild_ready_timeout = 0.002
        if state.application_id is None:
            state.application_id = self.application_id
        else:
            self.application_id = state.application_id

        ws = DiscordWebSocket(self._socket, loop=asyncio.get_running_loop())  # type: ignore[arg-type]
        ws.token = http.token
        ws._connection = state
        ws._discord_parsers = state.parsers
        ws._dispatch = bot.dispatch
        ws.gateway = DiscordWebSocket.DEFAULT_GATEWAY
        ws.call_hooks = state.call_hooks
        ws._initial_identify = True
        ws.shard_id = None
        ws._rate_limiter.shard_id = None
        ws.shard_count = state.shard_count
        ws.session_id = None
        ws.sequence = None
        ws._max_heartbeat_timeout = state.heartbeat_timeout
        state._update_references(ws)
        bot.ws = ws
        self.ws = ws
        self._socket.sent = self.gateway_sent

        await bot.setup_hook()  # tasks it starts are the bot's background jobs: never awaited
        bot_user = P.user(self.bot_user_id, "pantheon", bot=True)
        ready = P.ready(bot_user, [self.guild_id], self.application_id)
        if isinstance(bot, discord.AutoShardedClient):  # one READY per shard this process runs
            state.shard_count = bot.shard_count = bot.shard_count or 1  # as launch_shards() does
            state.shard_ids = bot.shard_ids or range(bot.shard_count)
            for shard_id in state.shard_ids:
                await self.feed("READY", ready | {"shard": [shard_id, bot.shard_count]})
        else:
            await self.feed("READY", ready)
        members = [P.member(uid, name) for uid, name in self.members.items()]
        members.append(P.member(self.bot_user_id, "pantheon") | {"user": bot_user})
        channels = [c for c in self._guild_channels.values() if c["type"] != 11]
        threads = [c for c in self._guild_channels.values() if c["type"] == 11]
        await self.feed("GUILD_CREATE", P.guild_create(
            self.guild_id, owner_id=self.owner_id, channels=channels, threads=threads, members=members))
        await asyncio.wait_for(bot.wait_until_ready(), timeout=5)
        await self.settle()  # on_ready handlers ...

    async def close(self, *, raise_errors: bool = True) -> None:
        """Close the bot (cogs unload), restore every patch, then report unreported errors."""
        if self._closed or not self._started:
            return
        self._closed = True
        try:
            try:
                await self._wait_tasks(self._caused, deadline=self.task_deadline)
            except HarnessError as exc:
                self._error(str(exc))
            await self.bot.close()
            current = asyncio.current_task()
            for task in asyncio.all_tasks() - self._before_start:  # view timeouts, the bot's sleepers
                if task is current or task in self._drivers or task.done():
                    continue
                if task in self._caused() or _is_sleeper(task) or any(p(task) for p in self._ignored_tasks):
                    task.cancel()
        finally:
            self._restore()
        if raise_errors:
            self._raise_errors()

    def _restore(self) -> None:
        try:
            del self.bot.http.request
        except AttributeError:
            pass
        _unpatch_webhooks()
        _remove_task_factory(asyncio.get_running_loop())
        if self._unwatch is not None:
            self._unwatch()
            self._unwatch = None
        logging.getLogger("discord").removeHandler(self._collector)
        logging.getLogger().removeHandler(self._collector)

    # --- errors ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def allow_errors(self) -> Iterator[list[Any]]:
        """Errors logged inside this block are expected: collected in the yielded list."""
        self._raise_errors()
        caught: list[Any] = []
        self._allowing.append(caught)
        try:
            yield caught
        finally:
            self._collect()
            assert self._allowing.pop() is caught

    def _collect(self) -> None:
        records, self._collector.records = self._collector.records, []
        target = self._allowing[-1] if self._allowing else self.errors
        target.extend(records)

    def _raise_errors(self) -> None:
        self._collect()
        if self._allowing or not self.errors:
            return
        errors, self.errors = self.errors, []
        raise HarnessError("the bot reported errors:\n" + _describe(errors))

    def _error(self, text: str) -> None:
        (self._allowing[-1] if self._allowing else self.errors).append(text)

    # --- tasks ----------------------------------------------------------------------------

    def ignore_task(self, predicate: Callable[[asyncio.Task], bool]) -> None:
        """Never wait for tasks matching this (a background loop the bot starts, say)."""
        self._ignored_tasks.append(predicate)

    async def settle(self) -> None:
        """Wait for every task caused by what was fed (edits after a defer ...); raise on errors.

        Tasks started in `setup_hook` (the bot's background jobs) are not waited for, nor
        sleepers (view timeouts, `asyncio.sleep` of a second or more)."""
        await self._wait_tasks(self._caused, deadline=self.task_deadline)
        self._buckets = [b for b in self._buckets if not all(t.done() for t in b)]
        self._raise_errors()

    def _caused(self) -> set[asyncio.Task]:
        return set().union(*self._buckets) - self._drivers - {asyncio.current_task()}

    def _waits_for(self, task: asyncio.Task) -> bool:
        if task.done() or _is_sleeper(task):
            return False
        return not any(p(task) for p in self._ignored_tasks)

    async def _wait_tasks(self, tasks: Callable[[], Any], *, deadline: float, check: bool = True,
                          bucket: set[asyncio.Task] | None = None) -> None:
        """Await the tasks given (re-read each round: tasks start tasks), except sleepers.
        `bucket`: the tasks are those one frame caused (that set, filled by the task factory),
        so a task parking finds this wait by its frame without asking every other wait."""
        loop = asyncio.get_running_loop()
        end = loop.time() + deadline
        seen: set[asyncio.Task] = set()
        while True:
            current = tasks()
            seen.update(current)
            pending = [t for t in current if self._waits_for(t)]
            if not pending:
                break
            if any(inspect.iscoroutine(t.get_coro())
                   and inspect.getcoroutinestate(t.get_coro()) == inspect.CORO_CREATED for t in pending):
                await asyncio.sleep(0)  # let new tasks reach their first await
                continue
            left = end - loop.time()
            if left <= 0:
                if check:
                    names = "\n".join(f"  {t.get_name()}: {_await_chain(t)}" for t in pending)
                    raise HarnessError(
                        f"the bot's tasks did not finish in {deadline}s (h.ignore_task() skips a "
                        f"background task):\n{names}")
                return
            # woken when a task ends, or when one may have parked on a sleeper (a timer of a
            # second or more was set, a view is waited on): no polling. The fallback timeout
            # only bounds a missed signal; it never changes what is awaited.
            wake = loop.create_future()
            self._waiters[wake] = tasks
            if bucket is not None:
                self._bucket_waits.setdefault(id(bucket), set()).add(wake)
            else:
                self._across[wake] = tasks
            try:
                await asyncio.wait([*pending, wake], timeout=min(left, WAKE_FALLBACK),
                                   return_when=asyncio.FIRST_COMPLETED)
            finally:
                del self._waiters[wake]
                if bucket is not None:
                    waits = self._bucket_waits[id(bucket)]
                    waits.discard(wake)
                    if not waits:
                        del self._bucket_waits[id(bucket)]
                else:
                    del self._across[wake]
        for task in seen:
            if task.done() and not task.cancelled() and task.exception() is not None:
                exc = task.exception()
                self._error(f"task {task.get_name()} failed: {type(exc).__name__}: {exc}")

    def _wake_soon(self) -> None:
        """The current task may be about to park on a sleeper: once it has (the next loop
        turn), the waits that wait for it look again at what is pending. Only those: with many
        tables clicking at once, a view created at one table wakes nobody else's wait."""
        try:
            task = asyncio.current_task()
        except RuntimeError:  # no running loop: nobody waits
            return
        bucket = _CAUSE.get()  # the frame that caused this task (its context is the frame's)
        self._parking.add((task, id(bucket) if bucket is not None and task in bucket else None))
        if not self._wake_scheduled:
            self._wake_scheduled = True
            asyncio.get_running_loop().call_soon(self._wake_now)

    def _wake_now(self) -> None:
        """Wake the waits for what parked: a task known by its frame's bucket wakes the waits
        for that frame's tasks (no other wait's tasks are read: with 200 tables clicking, every
        click sets a timer); a wait that is not for one frame (`settle`), a task outside any
        frame, or no task at all makes every wait look again."""
        self._wake_scheduled = False
        parking, self._parking = self._parking, set()
        to_wake: list[asyncio.Future] = []
        unknown = {task for task, bucket in parking if bucket is None}
        if unknown:
            to_wake += [wake for wake, tasks in self._waiters.items()
                        if None in unknown or not unknown.isdisjoint(tasks())]
        known = {task for task, bucket in parking if bucket is not None}
        if known:
            for _, bucket in parking:
                to_wake += self._bucket_waits.get(bucket, ()) if bucket is not None else ()
            to_wake += [wake for wake, tasks in self._across.items() if not known.isdisjoint(tasks())]
        for wake in to_wake:
            if not wake.done():
                wake.set_result(None)

    def _watch_sleepers(self, loop: asyncio.AbstractEventLoop) -> None:
        """Timers of a second or more (`asyncio.sleep`, view timeouts, `tasks.loop`) and
        `View.wait()` signal `_wake_soon`."""
        harness = self
        had = "call_at" in vars(loop)
        previous = loop.call_at

        def call_at(when: float, callback: Any, *args: Any, **kwargs: Any) -> Any:
            if when - loop.time() >= SLEEPER_SECONDS - 0.001:
                harness._wake_soon()
            return previous(when, callback, *args, **kwargs)

        loop.call_at = call_at  # type: ignore[method-assign]
        view_wait = discord.ui.View.wait

        async def wait(view: discord.ui.View) -> bool:
            harness._wake_soon()
            return await view_wait(view)

        discord.ui.View.wait = wait  # type: ignore[method-assign]

        def restore() -> None:
            if had:
                loop.call_at = previous  # type: ignore[method-assign]
            else:
                with contextlib.suppress(AttributeError):
                    del loop.call_at
            discord.ui.View.wait = view_wait  # type: ignore[method-assign]

        self._unwatch = restore

    # --- gateway --------------------------------------------------------------------------

    async def feed(self, event: str, data: dict) -> set[asyncio.Task]:
        """Send one raw gateway DISPATCH frame; returns the set that collects the tasks it causes
        (`settle()` waits for them)."""
        assert self.ws is not None, "call start() first"
        self._seq += 1
        caused: set[asyncio.Task] = set()  # filled by the task factory, through the context
        self._buckets.append(caused)
        mark = _CAUSE.set(caused)
        try:
            await self.ws.received_message(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))
        finally:
            _CAUSE.reset(mark)
        return caused

    @staticmethod
    def _next_id() -> int:
        return next(_SNOWFLAKES)

    # --- users, channels, permissions -----------------------------------------------------

    def user_name(self, user_id: int) -> str:
        return self.members.get(user_id) or f"user{user_id}"

    def set_permissions(self, user_id: int, permissions: int | discord.Permissions | None) -> None:
        """That user's channel permissions from now on (None: back to an ordinary member's)."""
        if permissions is None:
            self.permissions.pop(user_id, None)
        else:
            self.permissions[user_id] = int(getattr(permissions, "value", permissions))

    def dm_channel_id(self, user_id: int) -> int:
        """The id of the DM channel between the bot and that user (made on first use)."""
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            channel_id = self._dm_channels[user_id] = self._next_id()
            self._dm_users[channel_id] = user_id
            self._channels[channel_id] = []
        return channel_id

    def block_dms(self, user_id: int) -> None:
        """That user refuses DMs from server members: sending there answers 403, code 50007."""
        self._blocked_dms.add(user_id)

    def unblock_dms(self, user_id: int) -> None:
        self._blocked_dms.discard(user_id)

    def slow_answer(self, user_id: int, seconds: float) -> None:
        """The next interaction answer (callback) to this user lands `seconds` late, as a slow
        network may make it land after calls the bot made later (races of answers and edits)."""
        self._slow_answers[user_id] = seconds

    def fail_next(self, method: str, path_regex: str, status: int, code: int = 0, message: str = "") -> None:
        """The next call matching (method, regex searched in the path) fails with that answer."""
        self._failures.append((method.upper(), re.compile(path_regex), status, code, message))

    def _channel_payload(self, channel_id: int, user_id: int) -> dict:
        if channel_id in self._guild_channels:
            return self._guild_channels[channel_id]
        if channel_id in self._dm_users:
            return P.dm_channel(channel_id, P.user(user_id, self.user_name(user_id)))
        raise AssertionError(f"unknown channel {channel_id}; the guild has {list(self._guild_channels)}")

    # --- what Discord now holds -----------------------------------------------------------

    def messages_in(self, channel_id: int) -> list[FakeMessage]:
        """Messages everyone sees in that channel, oldest first (no ephemeral, no deleted)."""
        return [m for m in self._channels.get(channel_id, []) if not m.deleted and not m.ephemeral]

    def dms_to(self, user_id: int) -> list[FakeMessage]:
        channel_id = self._dm_channels.get(user_id)
        return [] if channel_id is None else self.messages_in(channel_id)

    def last_in(self, channel_id: int) -> FakeMessage:
        messages = self.messages_in(channel_id)
        assert messages, f"no message in channel {channel_id}"
        return messages[-1]

    def message(self, message_id: int) -> FakeMessage:
        return self._messages[message_id]

    def ephemerals_to(self, user_id: int) -> list[FakeMessage]:
        """Ephemeral messages answered to that user's interactions (not deleted)."""
        return [m for m in self._ephemerals.get(user_id, []) if not m.deleted]

    @staticmethod
    def find_button(message: FakeMessage | Reply, label: str) -> str:
        """The custom_id of the button with exactly that label (or containing it, if unique)."""
        msg = _as_message(message)
        buttons = msg.buttons()
        exact = [b for b in buttons if b.get("label") == label]
        if not exact:
            exact = [b for b in buttons if label in (b.get("label") or "")]
        labels = [b.get("label") for b in buttons]
        assert len(exact) == 1, f"no single button {label!r} on {msg!r}; buttons: {labels}"
        return exact[0].get("custom_id") or exact[0].get("url")

    @staticmethod
    def find_select(message: FakeMessage | Reply, placeholder_contains: str = "") -> dict:
        msg = _as_message(message)
        selects = [s for s in msg.selects() if placeholder_contains in (s.get("placeholder") or "")]
        placeholders = [s.get("placeholder") for s in msg.selects()]
        assert selects, f"no select {placeholder_contains!r} on {msg!r}; selects: {placeholders}"
        return selects[0]

    # --- interactions ---------------------------------------------------------------------

    async def slash(self, command: str, *, user: int, channel: int | None = None, guild: bool = True,
                    options: dict | None = None, permissions: int | discord.Permissions | None = None,
                    locale: str = "en-US") -> Reply:
        """Run a slash command ("game new", "roll") as that user; options by name."""
        chain, guild_command = self._find_command(command)
        self._check_available(chain[0], guild_command, guild, user, permissions)
        leaf_options, resolved = self._build_options(chain[-1], options or {}, guild=guild)
        data = self._command_data(chain, guild_command, leaf_options, resolved)
        return await self._interact(2, data, user=user, channel=channel, guild=guild,
                                    permissions=permissions, locale=locale)

    async def autocomplete(self, command: str, *, user: int, channel: int | None = None, options: dict,
                           focused: str, guild: bool = True,
                           permissions: int | discord.Permissions | None = None) -> list[dict]:
        """The choices the bot offers while `focused` is typed (its current text in `options`)."""
        chain, guild_command = self._find_command(command)
        self._check_available(chain[0], guild_command, guild, user, permissions)
        leaf_options, resolved = self._build_options(chain[-1], options, guild=guild, focused=focused)
        data = self._command_data(chain, guild_command, leaf_options, resolved)
        reply = await self._interact(4, data, user=user, channel=channel, guild=guild, permissions=permissions)
        return reply.choices

    async def click(self, message: FakeMessage | Reply, custom_id: str, *, user: int,
                    permissions: int | discord.Permissions | None = None) -> Reply:
        """Press a button of a message the bot sent (from this harness or an earlier one)."""
        msg = self._adopt(_as_message(message))
        self._check_visible(msg, user)
        comp = msg.component(custom_id)
        assert comp is not None and comp.get("type") == 2, (
            f"no button {custom_id!r} on {msg!r}; buttons: {[b.get('custom_id') for b in msg.buttons()]}")
        assert not comp.get("disabled"), f"button {comp.get('label')!r} is disabled"
        assert comp.get("style") != 5, "a link button opens a URL, it sends no interaction"
        data = {"custom_id": custom_id, "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._interact(3, data, user=user, source=msg, permissions=permissions)

    async def select(self, message: FakeMessage | Reply, custom_id: str, values: list[str], *, user: int,
                     permissions: int | discord.Permissions | None = None) -> Reply:
        """Choose values in a select menu of a message the bot sent."""
        msg = self._adopt(_as_message(message))
        self._check_visible(msg, user)
        comp = msg.component(custom_id)
        assert comp is not None and comp.get("type") in (3, 5, 6, 7, 8), (
            f"no select {custom_id!r} on {msg!r}; selects: {[s.get('custom_id') for s in msg.selects()]}")
        assert not comp.get("disabled"), f"select {custom_id!r} is disabled"
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        assert low <= len(values) <= high, f"choose {low} to {high} values, not {len(values)}"
        values = [str(v) for v in values]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"], "values": values}
        if comp["type"] == 3:
            offered = [o["value"] for o in comp.get("options") or []]
            missing = [v for v in values if v not in offered]
            assert not missing, f"values {missing} are not options of {custom_id!r}: {offered}"
        else:
            data["resolved"] = self._resolve_ids(values, comp["type"])
        return await self._interact(3, data, user=user, source=msg, permissions=permissions)

    async def submit_modal(self, reply_or_modal: Reply | dict, values: dict[str, Any], *, user: int,
                           channel: int | None = None, guild: bool | None = None,
                           permissions: int | discord.Permissions | None = None) -> Reply:
        """Answer a modal the bot opened: custom ids of its inputs -> text (or a list for a select)."""
        source = None
        if isinstance(reply_or_modal, Reply):
            modal = reply_or_modal.modal
            channel = channel if channel is not None else reply_or_modal.channel_id
            guild = reply_or_modal.guild if guild is None else guild
            source = reply_or_modal.source
        else:
            modal = reply_or_modal
        guild = True if guild is None else guild
        inputs = {c.get("custom_id"): c for c in P.iter_modal_inputs(modal.get("components") or [])}
        unknown = set(values) - set(inputs)
        assert not unknown, f"the modal has no inputs {sorted(unknown)}; it has {sorted(inputs)}"
        for custom_id, comp in inputs.items():
            if comp.get("type") == 4:
                text = str(values.get(custom_id, comp.get("value") or ""))
                if comp.get("required", True):
                    assert text, f"the modal input {custom_id!r} is required"
                if text:
                    assert len(text) >= comp.get("min_length", 0), f"{custom_id!r}: too short"
                    assert len(text) <= comp.get("max_length", 4000), f"{custom_id!r}: too long"

        def answer(comp: dict) -> dict:
            custom_id = comp.get("custom_id")
            if comp.get("type") == 4:
                return {"type": 4, "custom_id": custom_id,
                        "value": str(values.get(custom_id, comp.get("value") or ""))}
            if comp.get("type") in (3, 5, 6, 7, 8):
                return {"type": comp["type"], "custom_id": custom_id,
                        "values": [str(v) for v in values.get(custom_id, [])]}
            return {"type": comp.get("type"), "custom_id": custom_id}

        components = []
        for row in modal.get("components") or []:
            if row.get("type") == 1:
                components.append({"type": 1, "components": [answer(c) for c in row.get("components") or []]})
            elif row.get("type") == 18:
                components.append({"type": 18, "id": row.get("id", 0), "component": answer(row["component"])})
            elif row.get("type") in (3, 4, 5, 6, 7, 8):
                components.append(answer(row))
        data = {"custom_id": modal["custom_id"], "components": components}
        return await self._interact(5, data, user=user, channel=channel, guild=guild, source=source,
                                    permissions=permissions)

    def _check_visible(self, msg: FakeMessage, user: int) -> None:
        """Only the recipient sees a DM, only the asker an ephemeral answer."""
        owner = self._dm_users.get(msg.channel_id)
        if msg.ephemeral:
            asker = self._interactions.get(msg.interaction_token or "")
            owner = asker.user_id if asker is not None else owner
        assert owner is None or owner == user, f"user {user} cannot see {msg!r}: only user {owner} can"

    async def _interact(self, kind: int, data: dict, *, user: int, channel: int | None = None,
                        guild: bool = True, source: FakeMessage | None = None,
                        permissions: int | discord.Permissions | None = None,
                        locale: str = "en-US") -> Reply:
        assert self._started and not self._closed, "the harness is not running"
        self._raise_errors()
        if source is not None:
            self._check_visible(source, user)
            channel = source.channel_id
            guild = source.channel_id in self._guild_channels
        if not guild:
            channel = self.dm_channel_id(user)
        elif channel is None:
            channel = self.channel_ids[0]
        name = self.user_name(user)
        if permissions is None:
            perms = self.permissions.get(user, P.MEMBER_PERMISSIONS.value)
        else:
            perms = int(getattr(permissions, "value", permissions))
        interaction_id = self._next_id()
        token = f"token{interaction_id}"
        reply = Reply(interaction_id=interaction_id, token=token, channel_id=channel, guild=guild, source=source)
        record = _Interaction(interaction_id, token, 0, kind, channel, guild, reply, user, source=source)
        self._interactions[token] = record
        payload = P.interaction(
            interaction_id=interaction_id, type=kind, token=token, application_id=self.application_id,
            user_data=P.user(user, name), channel=self._channel_payload(channel, user),
            guild_id=self.guild_id if guild else None, permissions=perms,
            app_permissions=P.BOT_PERMISSIONS.value if guild else 0, data=data,
            message=self._message_payload(source) if source is not None else None, locale=locale)
        first_call, first_message = len(self.calls), len(self._created)
        driver = asyncio.current_task()
        self._drivers.add(driver)
        try:
            caused = await self.feed("INTERACTION_CREATE", payload)
            await self._wait_tasks(lambda: caused, deadline=self.task_deadline, bucket=caused)
        finally:
            self._drivers.discard(driver)
        if self._buckets and self._buckets[-1] is caused and all(t.done() for t in caused):
            self._buckets.pop()
        reply.calls = self.calls[first_call:]
        reply.created = self._created[first_message:]
        self._raise_errors()
        if self.require_answer and not record.answered and not self._allowing:
            kinds = {2: "slash command", 3: "component", 4: "autocomplete", 5: "modal submit"}
            raise HarnessError(f"the {kinds[kind]} interaction {data.get('name') or data.get('custom_id')!r} "
                               "was never answered (Discord would show 'This interaction failed')")
        return reply

    # --- commands -------------------------------------------------------------------------

    def _find_command(self, command: str) -> tuple[list[Any], bool]:
        names = command.strip().lstrip("/").split()
        assert names, "name a command"
        tree = self.bot.tree
        root = tree.get_command(names[0], guild=discord.Object(self.guild_id))
        guild_command = root is not None
        if root is None:
            root = tree.get_command(names[0])
        if root is None:
            known = sorted({c.name for c in tree.get_commands()}
                           | {c.name for c in tree.get_commands(guild=discord.Object(self.guild_id))})
            raise AssertionError(f"no slash command /{names[0]}; the tree has {known}")
        chain = [root]
        for name in names[1:]:
            parent = chain[-1]
            sub = parent.get_command(name) if isinstance(parent, app_commands.Group) else None
            if sub is None:
                subs = [c.name for c in parent.commands] if isinstance(parent, app_commands.Group) else []
                raise AssertionError(f"/{' '.join(c.name for c in chain)} has no {name!r}; it has {subs}")
            chain.append(sub)
        if isinstance(chain[-1], app_commands.Group):
            raise AssertionError(f"/{command} is a group: name one of {[c.name for c in chain[-1].commands]}")
        assert isinstance(chain[-1], app_commands.Command), f"/{command} is not a slash command"
        return chain, guild_command

    def _check_available(self, root: Any, guild_command: bool, guild: bool, user: int,
                         permissions: int | discord.Permissions | None) -> None:
        if not guild:
            contexts = root.to_dict(self.bot.tree).get("contexts")
            if guild_command or root.guild_only or (contexts is not None and 1 not in contexts):
                raise CommandUnavailable(f"/{root.name} is not offered in DMs")
            return
        required = root.default_permissions
        if required is None:
            return
        if permissions is None:
            have = self.permissions.get(user, P.MEMBER_PERMISSIONS.value)
        else:
            have = int(getattr(permissions, "value", permissions))
        if have & discord.Permissions.administrator.flag:
            return
        if have & required.value != required.value:
            missing = [n for n, v in discord.Permissions(required.value & ~have) if v]
            raise CommandUnavailable(f"/{root.name} needs {missing}, which user {user} lacks")

    def _build_options(self, command: app_commands.Command, options: dict, *, guild: bool,
                       focused: str | None = None) -> tuple[list[dict], dict]:
        params = {p.display_name: p for p in command.parameters}
        by_name = {p.name: p for p in command.parameters}
        resolved: dict[str, dict] = {}
        out = []
        for key, value in options.items():
            param = params.get(key) or by_name.get(key)
            assert param is not None, f"/{command.qualified_name} has no option {key!r}; it has {list(params)}"
            option_type = param.type.value
            option: dict[str, Any] = {"name": param.display_name, "type": option_type}
            if key == focused or param.display_name == focused:
                option["value"] = str(value)
                option["focused"] = True
            else:
                option["value"] = self._option_value(option_type, value, resolved, guild)
            out.append(option)
        if focused is not None:
            assert any(o.get("focused") for o in out), f"the focused option {focused!r} needs a value in options"
        else:
            given = {o["name"] for o in out}
            missing = [p.display_name for p in command.parameters if p.required and p.display_name not in given]
            assert not missing, f"/{command.qualified_name} needs options {missing}"
        return out, resolved

    def _option_value(self, option_type: int, value: Any, resolved: dict, guild: bool) -> Any:
        if option_type == 3:
            return str(value)
        if option_type == 4:
            return int(value)
        if option_type == 10:
            return float(value)
        if option_type == 5:
            return bool(value)
        ident = int(getattr(value, "id", value))
        if option_type in (6, 9):
            resolved.update(self._merge(resolved, self._resolve_ids([str(ident)], 5, guild=guild)))
        elif option_type == 7:
            resolved.update(self._merge(resolved, self._resolve_ids([str(ident)], 8, guild=guild)))
        elif option_type == 8:
            resolved.setdefault("roles", {})[str(ident)] = P.role(ident, f"role{ident}")
        else:
            raise NotImplementedError(f"option type {option_type} is not simulated")
        return str(ident)

    @staticmethod
    def _merge(resolved: dict, more: dict) -> dict:
        merged = {k: dict(v) for k, v in resolved.items()}
        for key, entries in more.items():
            merged.setdefault(key, {}).update(entries)
        return merged

    def _resolve_ids(self, ids: list[str], component_type: int, *, guild: bool = True) -> dict:
        """`resolved` data for user (5), role (6), mentionable (7) or channel (8) values."""
        resolved: dict[str, dict] = {}
        for raw in ids:
            ident = int(raw)
            if component_type in (5, 7) and (ident in self.members or component_type == 5):
                name = self.user_name(ident)
                resolved.setdefault("users", {})[raw] = P.user(ident, name)
                if guild:
                    m = P.member(ident, name, permissions=self.permissions.get(ident, P.MEMBER_PERMISSIONS.value))
                    del m["user"]
                    resolved.setdefault("members", {})[raw] = m
            elif component_type in (6, 7):
                resolved.setdefault("roles", {})[raw] = P.role(ident, f"role{ident}")
            elif component_type == 8:
                channel = dict(self._channel_payload(ident, 0))
                channel["permissions"] = str(P.MEMBER_PERMISSIONS.value)
                resolved.setdefault("channels", {})[raw] = channel
        return resolved

    def _command_data(self, chain: list[Any], guild_command: bool, leaf: list[dict], resolved: dict) -> dict:
        root = chain[0]
        key = (root.name, self.guild_id if guild_command else None)
        command_id = self._command_ids.get(key)
        if command_id is None:
            command_id = self._command_ids[key] = self._next_id()
        options = leaf
        for sub in reversed(chain[1:]):
            sub_type = 2 if isinstance(sub, app_commands.Group) else 1
            options = [{"name": sub.name, "type": sub_type, "options": options}]
        data: dict[str, Any] = {"id": str(command_id), "name": root.name, "type": 1, "options": options}
        if guild_command:
            data["guild_id"] = str(self.guild_id)
        if resolved:
            data["resolved"] = resolved
        return data

    # --- messages -------------------------------------------------------------------------

    def _adopt(self, msg: FakeMessage) -> FakeMessage:
        """A message from an earlier harness (before a restart) becomes known here."""
        known = self._messages.get(msg.id)
        if known is not None:
            return known
        assert not msg.deleted, f"{msg!r} was deleted"
        copied = copy.deepcopy(msg)
        self._messages[copied.id] = copied
        self._channels.setdefault(copied.channel_id, []).append(copied)
        if copied.channel_id not in self._guild_channels and copied.channel_id not in self._dm_users:
            raise AssertionError(f"{msg!r} is in a channel this harness does not have")
        return copied

    def _message_payload(self, msg: FakeMessage) -> dict:
        data: dict[str, Any] = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "type": msg.type,
            "author": P.user(msg.author_id or self.bot_user_id, "pantheon", bot=True),
            "content": msg.content,
            "embeds": msg.embeds,
            "components": msg.components,
            "attachments": [
                {"id": str(aid), "filename": name, "size": len(blob),
                 "url": f"https://cdn.discordapp.invalid/attachments/{msg.channel_id}/{aid}/{name}",
                 "proxy_url": f"https://media.discordapp.invalid/attachments/{msg.channel_id}/{aid}/{name}",
                 "content_type": _content_type(name)}
                for aid, name, blob in msg.files],
            "timestamp": P.snowflake_time(msg.id),
            "edited_timestamp": None if not msg.edits else P.snowflake_time(msg.id + (msg.edits << 22)),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "flags": msg.flags | (P.EPHEMERAL if msg.ephemeral else 0) | (P.LOADING if msg.loading else 0),
        }
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        return data

    def _check_body(self, body: Any) -> None:
        if self.validate and isinstance(body, dict):
            problems = P.message_problems(body)
            if problems:
                self._refuse("a message body", problems)

    def _create_message(self, channel_id: int, body: dict, files: list[tuple[str, bytes]], *,
                        token: str | None = None, ephemeral: bool = False, loading: bool = False,
                        message_type: int = 0) -> FakeMessage:
        if channel_id not in self._channels:
            raise http_error(404, 10003, "Unknown Channel")
        guild_id = self.guild_id if channel_id in self._guild_channels else None
        if not loading and not any(body.get(k) for k in ("content", "embeds", "components", "poll",
                                                          "sticker_ids")) and not files:
            raise http_error(400, 50006, "Cannot send an empty message")
        msg = FakeMessage(id=self._next_id(), channel_id=channel_id, ephemeral=ephemeral,
                          interaction_token=token, loading=loading, guild_id=guild_id,
                          type=message_type, author_id=self.bot_user_id)
        self._fill(msg, body, files, creating=True)
        msg.loading = loading
        self._messages[msg.id] = msg
        self._channels[channel_id].append(msg)
        self._created.append(msg)
        if ephemeral and token is not None and token in self._interactions:
            self._ephemerals.setdefault(self._interactions[token].user_id, []).append(msg)
        return msg

    def _fill(self, msg: FakeMessage, body: dict, files: list[tuple[str, bytes]], *, creating: bool) -> None:
        if self.validate:
            kept_names = [name for aid, name, _ in msg.files
                          if "attachments" not in body or body["attachments"] is None
                          or str(aid) in {str(a.get("id")) for a in body["attachments"]}]
            embeds = (body["embeds"] or []) if "embeds" in body else msg.embeds
            problems = contract.attachment_problems(embeds, kept_names + [name for name, _ in files])
            if problems:
                self._refuse(f"a message body ({'creating' if creating else 'editing'} message {msg.id})", problems)
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = body["embeds"] or []
        if "components" in body:
            msg.components = body["components"] or []
        if "flags" in body and body["flags"] is not None:
            msg.flags = body["flags"] & ~(P.EPHEMERAL | P.LOADING)
        kept = msg.files
        if "attachments" in body and body["attachments"] is not None:
            keep_ids = {str(a.get("id")) for a in body["attachments"]}
            kept = [f for f in msg.files if str(f[0]) in keep_ids]
        msg.files = kept + [(self._next_id(), name, blob) for name, blob in files]
        if not creating:
            msg.edits += 1
        msg.loading = False

    # --- the REST fake --------------------------------------------------------------------

    async def _http_request(self, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        at = self.clock()  # the moment the bot makes the call (reading its body is the fake's work)
        body = _parse_body(kwargs.get("json"), form)
        return self._handle("http", route, body, _read_files(files), kwargs.get("params"), at)

    async def _webhook_request(self, route: Route, *, payload: Any = None, multipart: Any = None,
                               files: Any = None, params: Any = None, **kwargs: Any) -> Any:
        if self._slow_answers and route.method == "POST" and route.url.endswith("/callback"):
            record = self._interactions.get(route.url.rsplit("/", 2)[-2])
            late = self._slow_answers.pop(record.user_id, 0.0) if record is not None else 0.0
            if late:
                await asyncio.sleep(late)
        at = self.clock()
        body = _parse_body(payload, multipart)
        return self._handle("webhook", route, body, _read_files(files), params, at)

    def _handle(self, via: str, route: Route, body: Any, files: list[tuple[str, bytes]],
                params: dict | None, at: float) -> Any:
        method = route.method
        path = route.url[len(Route.BASE):]
        call = RestCall(method, path, body, files, via, dict(params) if params else None, at=at)
        self.calls.append(call)
        for i, (f_method, f_regex, status, code, message) in enumerate(self._failures):
            if f_method in (method, "*") and f_regex.search(path):
                del self._failures[i]
                call.status = status
                raise http_error(status, code, message)
        try:
            self._check_contract(method, path, body, files)
            handler, match = self._route(method, path)
            result = handler(match, body, files, params or {})
        except discord.HTTPException as exc:
            call.status = exc.status
            raise
        if result is None:
            call.status = 204
        return result

    def _check_contract(self, method: str, path: str, body: Any, files: list[tuple[str, bytes]]) -> None:
        """Discord's published description of the call, and what it cannot say (contract.py,
        with the project's own rule that every message says whom it may ping): a violation is
        answered as Discord would (400, 50035) and fails the test."""
        if not self.validate:
            return
        problems = contract.problems(method, path, body)
        if problems:
            self._refuse(f"{method} {path}", problems)

    def _refuse(self, what: str, problems: list[str]) -> NoReturn:
        """Answer as Discord would (400, 50035) and fail the test: every refusal of a body."""
        text = f"Discord would refuse {what}: " + "; ".join(problems)
        self._error(text)
        raise http_error(400, 50035, "Invalid Form Body: " + "; ".join(problems))

    def _route(self, method: str, path: str) -> tuple[Callable[..., Any], re.Match[str]]:
        for route_method, pattern, handler in _ROUTES:
            if route_method == method:
                match = pattern.fullmatch(path)
                if match:
                    return getattr(self, handler), match
        raise NotImplementedError(f"the harness does not simulate {method} {path}; add it to _ROUTES")

    def _interaction(self, token: str) -> _Interaction:
        record = self._interactions.get(token)
        if record is None:
            raise http_error(404, 10015, "Unknown Webhook")
        return record

    # interaction callbacks

    def _r_callback(self, match: re.Match[str], body: dict, files: list, params: dict) -> dict:
        record = self._interaction(match["token"])
        if record.answered:
            raise http_error(400, 40060, "Interaction has already been acknowledged.")
        kind = body["type"]
        data = body.get("data")
        reply = record.reply
        message = None
        if kind in (4, 7):
            self._check_body(data or {})
        if kind == 4:
            flags = (data or {}).get("flags") or 0
            message = self._create_message(record.channel_id, data or {}, files, token=record.token,
                                           ephemeral=bool(flags & P.EPHEMERAL),
                                           message_type=20 if record.kind == 2 else 0)
            reply.ephemeral = message.ephemeral
        elif kind == 5:
            flags = (data or {}).get("flags") or 0
            message = self._create_message(record.channel_id, {}, [], token=record.token,
                                           ephemeral=bool(flags & P.EPHEMERAL), loading=True,
                                           message_type=20 if record.kind == 2 else 0)
            reply.ephemeral = message.ephemeral
        elif kind == 6 and record.source is None:
            if record.kind != 5:
                self._refuse("an interaction callback", ["type 6 answers a component or a modal"])
        elif kind in (6, 7):
            if record.source is None:
                self._refuse("an interaction callback", ["type 7 answers only a component or a modal "
                                                         "opened from a component"])
            message = record.source
            if message.deleted:
                raise http_error(404, 10008, "Unknown Message")
            if kind == 7:
                self._fill(message, data or {}, files, creating=False)
            reply.ephemeral = message.ephemeral
        elif kind == 8:
            choices = (data or {}).get("choices") or []
            if len(choices) > 25:
                self._refuse("an autocomplete answer", [f"{len(choices)} choices > 25"])
        elif kind == 9:
            problems = P.modal_problems(data or {})
            if problems and self.validate:
                self._refuse("a modal", problems)
            if record.kind == 5:
                self._refuse("an interaction callback", ["a modal cannot answer a modal"])
        else:
            self._refuse("an interaction callback", [f"callback type {kind}"])
        record.answered = True
        record.type = kind
        reply.type = kind
        reply.data = data
        record.original = message
        reply.message = message
        answer: dict[str, Any] = {"interaction": {
            "id": str(record.id), "type": record.kind,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": reply.ephemeral,
        }}
        if message is not None:
            answer["interaction"]["response_message_id"] = str(message.id)
            answer["resource"] = {"type": kind, "message": self._message_payload(message)}
        return answer

    def _token_message(self, record: _Interaction, ref: str) -> FakeMessage:
        if ref == "@original":
            msg = record.original
            if msg is None and record.source is not None:
                msg = record.source
        else:
            msg = self._messages.get(int(ref))
            if msg is not None and msg.interaction_token != record.token and msg is not record.source:
                msg = None
        if msg is None or msg.deleted:
            raise http_error(404, 10008, "Unknown Message")
        return msg

    def _r_followup(self, match: re.Match[str], body: dict, files: list, params: dict) -> dict:
        record = self._interaction(match["token"])
        if not record.answered:
            raise http_error(404, 10015, "Unknown Webhook")
        self._check_body(body)
        original = record.original
        if original is not None and original.loading and record.type == 5:
            msg = original  # Discord: the first followup after a defer fills in the "thinking" message
            self._fill(msg, body, files, creating=True)
        else:
            flags = body.get("flags") or 0
            msg = self._create_message(record.channel_id, body, files, token=record.token,
                                       ephemeral=bool(flags & P.EPHEMERAL))
        record.reply.followups.append(msg)
        return self._message_payload(msg)

    def _r_token_get(self, match: re.Match[str], body: Any, files: list, params: dict) -> dict:
        return self._message_payload(self._token_message(self._interaction(match["token"]), match["ref"]))

    def _r_token_edit(self, match: re.Match[str], body: dict, files: list, params: dict) -> dict:
        record = self._interaction(match["token"])
        msg = self._token_message(record, match["ref"])
        self._check_body(body)
        self._fill(msg, body, files, creating=False)
        return self._message_payload(msg)

    def _r_token_delete(self, match: re.Match[str], body: Any, files: list, params: dict) -> None:
        msg = self._token_message(self._interaction(match["token"]), match["ref"])
        msg.deleted = True

    # channel messages (bot token)

    def _channel_message(self, match: re.Match[str]) -> FakeMessage:
        msg = self._messages.get(int(match["message"]))
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != int(match["channel"]):
            raise http_error(404, 10008, "Unknown Message")
        return msg

    def _r_send(self, match: re.Match[str], body: dict, files: list, params: dict) -> dict:
        channel_id = int(match["channel"])
        user_id = self._dm_users.get(channel_id)
        if user_id is not None and user_id in self._blocked_dms:
            raise http_error(403, 50007, "Cannot send messages to this user")
        self._check_body(body)
        return self._message_payload(self._create_message(channel_id, body, files))

    def _r_get_message(self, match: re.Match[str], body: Any, files: list, params: dict) -> dict:
        return self._message_payload(self._channel_message(match))

    def _r_edit(self, match: re.Match[str], body: dict, files: list, params: dict) -> dict:
        msg = self._channel_message(match)
        self._check_body(body)
        self._fill(msg, body, files, creating=False)
        return self._message_payload(msg)

    def _r_delete(self, match: re.Match[str], body: Any, files: list, params: dict) -> None:
        self._channel_message(match).deleted = True

    def _r_history(self, match: re.Match[str], body: Any, files: list, params: dict) -> list[dict]:
        channel_id = int(match["channel"])
        if channel_id not in self._channels:
            raise http_error(404, 10003, "Unknown Channel")
        limit = int(params.get("limit", 50))
        messages = list(reversed(self.messages_in(channel_id)))
        if "before" in params:
            messages = [m for m in messages if m.id < int(params["before"])]
        if "after" in params:
            messages = [m for m in messages if m.id > int(params["after"])]
        return [self._message_payload(m) for m in messages[:limit]]

    def _r_nothing(self, match: re.Match[str], body: Any, files: list, params: dict) -> None:
        return None

    def _r_create_dm(self, match: re.Match[str], body: dict, files: list, params: dict) -> dict:
        user_id = int(body["recipient_id"])
        return P.dm_channel(self.dm_channel_id(user_id), P.user(user_id, self.user_name(user_id)))

    def _r_get_user(self, match: re.Match[str], body: Any, files: list, params: dict) -> dict:
        user_id = int(match["user"])
        if user_id == self.bot_user_id:
            return P.user(user_id, "pantheon", bot=True)
        if user_id not in self.members:
            raise http_error(404, 10013, "Unknown User")
        return P.user(user_id, self.user_name(user_id))

    def _r_get_member(self, match: re.Match[str], body: Any, files: list, params: dict) -> dict:
        user_id = int(match["user"])
        if int(match["guild"]) != self.guild_id or user_id not in self.members:
            raise http_error(404, 10007, "Unknown Member")
        return P.member(user_id, self.user_name(user_id))

    def _r_get_channel(self, match: re.Match[str], body: Any, files: list, params: dict) -> dict:
        channel_id = int(match["channel"])
        if channel_id in self._guild_channels:
            return self._guild_channels[channel_id]
        if channel_id in self._dm_users:
            return self._channel_payload(channel_id, self._dm_users[channel_id])
        raise http_error(404, 10003, "Unknown Channel")

    def _r_create_thread(self, match: re.Match[str], body: dict, files: list, params: dict) -> dict:
        parent = int(match["channel"])
        if parent not in self._guild_channels:
            raise http_error(404, 10003, "Unknown Channel")
        thread_id = int(match["message"]) if match.groupdict().get("message") else self._next_id()
        thread = P.thread_channel(thread_id, self.guild_id, parent, self.bot_user_id)
        thread["name"] = body.get("name") or thread["name"]
        thread["type"] = body.get("type", 11)
        self._guild_channels[thread_id] = thread
        self._channels.setdefault(thread_id, [])
        return thread

    def _r_sync(self, match: re.Match[str], body: list, files: list, params: dict) -> list[dict]:
        guild = match.groupdict().get("guild")
        guild_id = int(guild) if guild else None
        synced = []
        for command in body:
            key = (command["name"], guild_id)
            command_id = self._command_ids.get(key) or self._next_id()
            self._command_ids[key] = command_id
            entry = {"options": [], "default_member_permissions": None, "dm_permission": True,
                     "nsfw": False, "description": "", **command,
                     "id": str(command_id), "application_id": str(self.application_id), "version": "1"}
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            synced.append(entry)
        self.synced_commands[guild_id] = synced
        return synced

    def _r_get_commands(self, match: re.Match[str], body: Any, files: list, params: dict) -> list[dict]:
        guild = match.groupdict().get("guild")
        return self.synced_commands.get(int(guild) if guild else None, [])

    def _r_app_info(self, match: re.Match[str], body: Any, files: list, params: dict) -> dict:
        bot_user = P.user(self.bot_user_id, "pantheon", bot=True)
        owner = P.user(self.owner_id, self.user_name(self.owner_id))
        return P.app_info(self.application_id, bot_user, owner)


_ID = r"(?P<{}>\d+)"
_TOKEN = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
_ROUTES: list[tuple[str, re.Pattern[str], str]] = [
    (method, re.compile(pattern.format(channel=_ID.format("channel"), message=_ID.format("message"),
                                       user=_ID.format("user"), guild=_ID.format("guild"), token=_TOKEN)),
     handler)
    for method, pattern, handler in [
        ("POST", r"/interactions/(?P<id>\d+)/(?P<token>[^/]+)/callback", "_r_callback"),
        ("POST", "{token}", "_r_followup"),
        ("GET", "{token}/messages/(?P<ref>@original|\\d+)", "_r_token_get"),
        ("PATCH", "{token}/messages/(?P<ref>@original|\\d+)", "_r_token_edit"),
        ("DELETE", "{token}/messages/(?P<ref>@original|\\d+)", "_r_token_delete"),
        ("POST", "/channels/{channel}/messages", "_r_send"),
        ("GET", "/channels/{channel}/messages", "_r_history"),
        ("GET", "/channels/{channel}/messages/{message}", "_r_get_message"),
        ("PATCH", "/channels/{channel}/messages/{message}", "_r_edit"),
        ("DELETE", "/channels/{channel}/messages/{message}", "_r_delete"),
        ("POST", "/channels/{channel}/typing", "_r_nothing"),
        ("PUT", "/channels/{channel}/messages/{message}/reactions/[^/]+/@me", "_r_nothing"),
        ("DELETE", "/channels/{channel}/messages/{message}/reactions/[^/]+/@me", "_r_nothing"),
        ("PUT", "/channels/{channel}/pins/{message}", "_r_nothing"),
        ("DELETE", "/channels/{channel}/pins/{message}", "_r_nothing"),
        ("PUT", "/channels/{channel}/messages/pins/{message}", "_r_nothing"),
        ("DELETE", "/channels/{channel}/messages/pins/{message}", "_r_nothing"),
        ("POST", "/channels/{channel}/threads", "_r_create_thread"),
        ("POST", "/channels/{channel}/messages/{message}/threads", "_r_create_thread"),
        ("GET", "/channels/{channel}", "_r_get_channel"),
        ("POST", "/users/@me/channels", "_r_create_dm"),
        ("GET", "/users/{user}", "_r_get_user"),
        ("GET", "/guilds/{guild}/members/{user}", "_r_get_member"),
        ("PUT", "/applications/(?P<app>\\d+)/commands", "_r_sync"),
        ("PUT", "/applications/(?P<app>\\d+)/guilds/{guild}/commands", "_r_sync"),
        ("GET", "/applications/(?P<app>\\d+)/commands", "_r_get_commands"),
        ("GET", "/applications/(?P<app>\\d+)/guilds/{guild}/commands", "_r_get_commands"),
        ("GET", "/oauth2/applications/@me", "_r_app_info"),
        ("GET", "/applications/@me", "_r_app_info"),
    ]
]


# --- helpers -------------------------------------------------------------------------------


def _describe(errors: list[Any]) -> str:
    lines = []
    for rec in errors:
        if isinstance(rec, logging.LogRecord):
            text = f"{rec.levelname} {rec.name}: {rec.getMessage()}"
            if rec.exc_info and rec.exc_info[1] is not None:
                exc = rec.exc_info[1]
                text += f"\n    {type(exc).__name__}: {exc}"
                cause = exc.__cause__ or exc.__context__
                if cause is not None:
                    text += f"\n    caused by {type(cause).__name__}: {cause}"
            lines.append(text)
        else:
            lines.append(str(rec))
    return "\n".join(lines)


def _as_message(message: FakeMessage | Reply) -> FakeMessage:
    if isinstance(message, Reply):
        assert message.message is not None, f"{message!r} made no message"
        return message.message
    return message


def _parse_body(payload: Any, multipart: Any) -> Any:
    if multipart:
        for part in multipart:
            if part.get("name") == "payload_json":
                return json.loads(part["value"])
        return {}
    if payload is None:
        return None
    return json.loads(discord.utils._to_json(payload))  # what Discord receives, and a copy


def _read_files(files: Any) -> list[tuple[str, bytes]]:
    out = []
    for f in files or []:
        f.reset(seek=True)
        out.append((f.filename, f.fp.read()))
        f.reset(seek=True)
    return out


def _content_type(name: str) -> str:
    ext = name.rsplit(".", 1)[-1].lower()
    return {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
            "webp": "image/webp", "txt": "text/plain", "json": "application/json"}.get(
        ext, "application/octet-stream")


_SLEEPER_NAMES = ("__timeout_task_impl",)


def _await_chain(task: asyncio.Task) -> str:
    """Where a task is parked: its chain of awaited coroutines."""
    names, coro = [], task.get_coro()
    while coro is not None and len(names) < 20:
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        if code is None:
            names.append(repr(coro))
            break
        names.append(code.co_qualname)
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return " -> ".join(names)


def _is_sleeper(task: asyncio.Task) -> bool:
    """A view's timeout, `view.wait()`, a `tasks.loop`, or `asyncio.sleep` of a second or more."""
    waiter = getattr(task, "_fut_waiter", None)
    if waiter is None or waiter.done():
        return False  # about to run (or not started yet)
    coro = task.get_coro()
    depth = 0
    while coro is not None and depth < 50:
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        if code is None:
            return False
        if code.co_name.endswith(_SLEEPER_NAMES) or code.co_filename.endswith(_TASKS_LOOP_FILE):
            return True
        if code.co_name == "wait" and code.co_filename.endswith(_VIEW_FILE):
            return True  # parked on `view.wait()` until a click stops the view: settle() resumes it
        if code is _SLEEP_CODE:
            frame = getattr(coro, "cr_frame", None)
            delay = frame.f_locals.get("delay", 0) if frame is not None else 0
            return bool(delay) and delay >= SLEEPER_SECONDS
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
        depth += 1
    return False


_SLEEP_CODE = asyncio.sleep.__code__
_TASKS_LOOP_FILE = "discord/ext/tasks/__init__.py"  # a `tasks.loop` is a background job
_VIEW_FILE = "discord/ui/view.py"
