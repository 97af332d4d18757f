"""One action's latency in every game, against its floor measured interleaved in the same run.

An action: a person's click, from the moment its INTERACTION_CREATE frame (text, as the gateway
sends it) is handed to the real discord.py client to the moment the bot makes the interaction
response (the move committed to SQLite before it), on the offline Discord harness (building the
frame and recording the call are the harness's, not timed). The automatic player chooses the
move; the bench clicks it.

Its floor, measured just before each click on the same state and move (so the machine's noise
hits both alike), is the work nobody can skip, as issue 13 counts it:
- parse and dispatch: the click's frame decoded (by discord.py's own decoder) and handed to discord.py's INTERACTION_CREATE
  parser (its `discord.Interaction` built and offered to views and listeners) on a client
  without the bot's handlers (the gateway's own bookkeeping of a frame is left out);
- rules: that game's `legal_actions` of the clicker, `apply`, the table's `view` of the new state
  and the `legal_actions` of the next player to act;
- commit: the new state dumped to JSON and written with its log row by the bot's own
  compare-and-set transaction (`Store.save_statements`: the session row and the log row, on a
  file with the bot's schema and indexes) in one thread hop, on the same disk (WAL,
  synchronous=FULL, as the bot's store).
The ratio is the action's median (or 99th percentile) over the floor's median.
"""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import discord

from bot.app import build_bot
from bot.config import Settings
from bot.models import LogEntry, Session
from bot.store import Store
from bot.store.sqlite import _run_guarded
from rules.core import Event

CASES: list[tuple[str, str, int, str | None]] = [
    # (label, game, people, lobby options)
    ("gods-of-magic 4p", "gods-of-magic", 4, "target=100"),
    ("deathly-thrones", "deathly-thrones", 1, None),
    ("terra-sancta 2p", "terra-sancta", 2, "factions=random"),
    ("guilty-gods", "guilty-gods", 2, None),
    ("by-gods-and-kings", "by-gods-and-kings", 2, "party=4"),
]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Figures:
    label: str
    actions: list[float] = field(default_factory=list)
    parse: list[float] = field(default_factory=list)
    rules: list[float] = field(default_factory=list)
    commit: list[float] = field(default_factory=list)

    @property
    def floor(self) -> float:
        """The floor's median: the medians of its parts, added."""
        return sum(statistics.median(p) for p in (self.parse, self.rules, self.commit))

    def plain_line(self) -> str:
        """The action's own figures (no floor)."""
        return (f"{self.label:<20} {len(self.actions):4} actions: median "
                f"{statistics.median(self.actions) * 1000:6.2f} ms, p99 {pct(self.actions, 0.99) * 1000:6.2f} ms")

    def line(self) -> str:
        ms = 1000
        median, p99, floor = statistics.median(self.actions), pct(self.actions, 0.99), self.floor
        return (f"{self.label:<20} {len(self.actions):4} actions: median {median * ms:6.2f} ms, "
                f"p99 {p99 * ms:6.2f} ms; floor {floor * ms:5.2f} ms (parse "
                f"{statistics.median(self.parse) * ms:.2f} + rules {statistics.median(self.rules) * ms:.2f}"
                f" + commit {statistics.median(self.commit) * ms:.2f}); median {median / floor:.2f}x "
                f"the floor (goal {median_goal(self.label)}), p99 {p99 / floor:.2f}x (goal 5)")


def median_goal(label: str) -> float:
    """An action's median against its floor: 2x, and 2.5x for Terra Sancta, whose board picture
    is work its floor does not count."""
    return 2.5 if label.startswith("terra-sancta") else 2


class OneHopCommit:
    """The floor's commit: the bot's own compare-and-set transaction of a move (the session row's
    UPDATE and the move's log row, as `Store.save_statements` builds them) on a file with the
    bot's schema, done in one hop to a writer thread."""

    def __init__(self, path: Path):
        self.path = path
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="floor-commit")
        self.conn: sqlite3.Connection | None = None
        self.session: Session | None = None

    async def start(self, session: Session) -> None:
        """The bot's schema and a copy of the table's session (once)."""
        if self.session is not None:
            return
        store = await Store.open(self.path)
        copy = session.model_copy(deep=True)
        copy.id = await store.insert_session(copy)
        await store.close()
        self.session = copy
        self.conn = self.pool.submit(self._open).result()

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        for pragma in ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON"):
            conn.execute(f"PRAGMA {pragma}")
        return conn

    async def write(self, state: str, player: str, key: str, events: list[Event]) -> None:
        assert self.session is not None and self.conn is not None, "start() first"
        expected = self.session.version
        self.session.version += 1
        self.session.state_json = state
        self.session.updated_at = time.time()
        row = LogEntry(version=self.session.version, player_id=player, action_key=key, events=events,
                       at=self.session.updated_at)
        statements = Store.save_statements(self.session, expected, seats=False, log=[row])
        loop = asyncio.get_running_loop()
        assert await loop.run_in_executor(self.pool, _run_guarded, self.conn, statements)

    def close(self) -> None:
        if self.conn is not None:
            self.pool.submit(self.conn.close).result()
        self.pool.shutdown()


def rules_floor(game: Any, state_json: str, player: str, key: str,
                text: str | None) -> tuple[float, str, list[Event]]:
    """Seconds of the rules work of one move on a freshly loaded state (not timed: the load),
    the new state's JSON and the move's events (for the commit)."""
    state = game.load_state(state_json)
    t0 = time.perf_counter()
    game.legal_actions(state, player)
    out = game.apply(state, player, key, text)
    game.view(out.state, None)
    waiting = game.to_act(out.state)
    if waiting:
        game.legal_actions(out.state, waiting[0])
    took = time.perf_counter() - t0
    return took, game.dump_state(out.state), out.events


def parse_floor(bare: discord.Client, frame: str) -> float:
    """Seconds to decode a gateway frame and have discord.py parse and dispatch it (its
    `discord.Interaction` built, handed to views and listeners) on a client with none of the
    bot's handlers, as the bot's own client does before any of the bot's code runs."""
    t0 = time.perf_counter()
    message = discord.utils._from_json(frame)  # the gateway's own decoder (orjson when installed)
    bare._connection.parsers[message["t"]](message["d"])
    return time.perf_counter() - t0


async def measure_game(label: str, game_id: str, people: int, options: str | None,
                       samples: int, tmp: Path, database: str | None = None,
                       channel: int = 4000) -> Figures:
    """The figures of `samples` clicks at one table of this game, on a SQLite file in `tmp` or on
    `database` (a PostgreSQL URL: the floor stays SQLite's, so only the action's own figures
    compare)."""
    from tests.bot.e2e import auto_choice, open_table, play_auto_move
    from tests.support.discord_harness import DiscordHarness

    users = [100 + i for i in range(people)]
    settings = Settings(database_path=tmp / f"{game_id}.db", database_url=database, discord_token="x")
    bot = build_bot(settings, run_timers=False)
    bare = discord.Client(intents=bot.intents)  # discord.py alone, for the floor's parse
    figures = Figures(label)
    commit = OneHopCommit(tmp / f"{game_id}-floor.db")
    frames: list[str] = []
    fed: list[float] = []
    # validate=False: the tests check every request against Discord's contract; the bench
    # times the bot, not that check
    async with DiscordHarness(bot, channel_ids=(channel,), validate=False,
                              members={u: f"Player {u}" for u in users}) as h:
        assert h.ws is not None
        # the bare client knows what the bot's knows (itself, the servers), not its handlers;
        # it parses a frame only after the bot has (so the bot's own member is in the server and
        # the bare client adds nothing to the shared cache)
        bare._connection.user = bot._connection.user
        bare._connection._guilds = bot._connection._guilds
        real_received = h.ws.received_message

        async def received(message: Any) -> None:
            fed.append(time.perf_counter())  # the frame reaches discord.py now
            frames.append(message)
            await real_received(message)

        h.ws.received_message = received  # type: ignore[method-assign]
        await open_table(h, game_id, users, options=options, channel=channel)
        while len(figures.actions) < samples:
            choice = await auto_choice(h, bot, channel)
            if choice is None:
                await open_table(h, game_id, users, options=options, channel=channel)
                continue
            session, seat, action, found = choice
            if found is None or action.text_prompt:  # a paged menu or a form: not timed
                await play_auto_move(h, bot, channel)
                continue
            game = session.game()
            took, new_json, events = rules_floor(game, session.state_json, seat.player_id, action.key, None)
            figures.rules.append(took)
            await commit.start(session)
            t0 = time.perf_counter()
            await commit.write(new_json, seat.player_id, action.key, events)
            figures.commit.append(time.perf_counter() - t0 + _dump_time(game, new_json))
            message, cid, values = found
            reply = await (h.click(message, cid, user=seat.user_id) if values is None
                           else h.select(message, cid, values, user=seat.user_id))
            first = min((c.at for c in reply.calls if c.via == "webhook"), default=None)
            figures.actions.append((first if first is not None else time.perf_counter()) - fed[-1])
            figures.parse.append(parse_floor(bare, frames[-1]))
    await bot.close()
    commit.close()
    return figures


def _dump_time(game: Any, state_json: str) -> float:
    """Seconds to dump the new state to JSON (the commit writes it)."""
    state = game.load_state(state_json)
    t0 = time.perf_counter()
    game.dump_state(state)
    return time.perf_counter() - t0


async def measure_all(samples: int, cases: list[tuple[str, str, int, str | None]] = CASES,
                      database: str | None = None) -> list[Figures]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (label, game_id, people, options) in enumerate(cases):
            out.append(await measure_game(label, game_id, people, options, samples, Path(tmp),
                                          database, channel=4000 + i))
    return out


@dataclass
class Load:
    sessions: int
    completed: int
    seconds: float
    cpu: float
    """CPU seconds of this process over the window (all its threads)."""

    @property
    def rate(self) -> float:
        return self.completed / self.seconds

    @property
    def cpu_per_action(self) -> float:
        return self.cpu / max(self.completed, 1)


LOAD_MOVES = 12
"""Moves of each table's game that every row of the load table plays (the first ones)."""


async def load(levels: tuple[int, ...], moves: int = LOAD_MOVES, game_id: str = "gods-of-magic",
               options: str | None = None, rounds: int = 2) -> list[Load]:
    """Completed actions per second and CPU per completed action with n tables clicking at once,
    for each n in `levels`, like for like: every row opens the same `max(levels)` tables (the same
    seeds, before the clock starts) and plays the same first `moves` moves of each game, n tables
    in flight at a time (each table one request in flight, back to back; a table done, the next
    one starts), so the rows differ only in how many are played at once. Each row is measured
    `rounds` times, the levels in turn forwards then backwards (1, 10, 50, 200, 200, 50, 10, 1), and
    its figures added up: the machine's drift hits every row alike. One process holds the bot, the
    fake Discord and the driver choosing the moves; the CPU is all of it."""
    from bot import edits
    from tests.bot.e2e import open_table
    from tests.support.discord_harness import DiscordHarness

    # every click's edits are made, as at a table clicked at a person's pace: at machine speed
    # the per-channel pacing would merge a lone table's edits and make its actions look cheaper
    pacing, edits.PACING = edits.PACING, None
    count = max(levels)
    channels = tuple(5000 + i for i in range(count))
    players = {100 + i: f"Player {i}" for i in range(2 * count)}
    tables = [(ch, [100 + 2 * i, 101 + 2 * i]) for i, ch in enumerate(channels)]
    totals = {n: Load(n, 0, 0.0, 0.0) for n in levels}
    order = [n for r in range(rounds) for n in (levels if r % 2 == 0 else tuple(reversed(levels)))]
    with tempfile.TemporaryDirectory() as tmp:
        for i, n in enumerate(order):
            seeds = iter(range(1, 1_000_000))  # the same games in every row
            settings = Settings(database_path=Path(tmp) / f"load{i}.db", discord_token="x")
            bot = build_bot(settings, run_timers=False, seed_source=partial(next, seeds))
            async with DiscordHarness(bot, channel_ids=channels, members=players, validate=False) as h:
                for ch, users in tables:
                    await open_table(h, game_id, users, options=options, channel=ch)
                queue = list(reversed(tables))
                cpu0, t0 = time.process_time(), time.perf_counter()
                done = await asyncio.gather(*(_play_lane(h, bot, queue, moves) for _ in range(n)))
                row = totals[n]
                row.completed += sum(done)
                row.seconds += time.perf_counter() - t0
                row.cpu += time.process_time() - cpu0
            await bot.close()
    edits.PACING = pacing
    return [totals[n] for n in levels]


async def _play_lane(h: Any, bot: discord.Client, queue: list[tuple[int, list[int]]], moves: int) -> int:
    """Tables taken from `queue` one after another, the first `moves` automatic moves of each
    clicked back to back (fewer if its game ends first). The number of moves completed."""
    from tests.bot.e2e import play_auto_move

    done = 0
    while queue:
        channel, _ = queue.pop()
        for _ in range(moves):
            if await play_auto_move(h, bot, channel) is None:
                break
            done += 1
    return done
