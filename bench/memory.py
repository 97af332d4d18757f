"""Memory for 1,000 active sessions: what a bot process holds for that many tables of one game.

Each game runs in a fresh process (`python -m bench` starts it): the real bot on the offline
Discord harness (tests/support/discord_harness.py) and a SQLite file. A few tables are opened
first (imports, fonts, the renderer's own caches: not the sessions'), then Python's allocations
are traced (tracemalloc) while `sessions` more tables open, each at the game's largest player
count (two people, the other seats automatic players) with one move clicked by a person. The
figure is what is still allocated once every task has finished, less what the fake Discord
itself keeps (the messages, calls and answers it recorded): the bot's share, every cache of the
process included (parsed states, saved sessions, DMs, the table's told events, pictures). The
number of parsed states still alive is counted too (`Memo`s, each one state with its worked-out
actions and views): `KEPT_STATES` bounds it.

RSS (the process's resident memory) is shown beside it: it includes the fake Discord's share and
memory Python freed but did not give back.
"""

from __future__ import annotations

import asyncio
import gc
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

import rules

SESSIONS = 1_000
"""The row's number of active sessions (`--memory-sessions`)."""
WARM_TABLES = 5
"""Tables opened before the tracing starts."""
BUDGET_MIB = 150
"""The goal: 1,000 active sessions of any game add at most this much to a process."""
CHANNEL_BASE = 7_000


@dataclass
class Memory:
    game_id: str
    players: int
    sessions: int
    traced: float
    """Bytes the sessions added (the bot's share, see the module's text)."""
    rss: float
    """Bytes the process's resident memory grew by (fake Discord included)."""
    states: int
    """Parsed states alive at the end (`Memo` objects)."""
    seconds: float

    def line(self) -> str:
        mib = self.traced / 2**20
        scaled = mib * SESSIONS / max(self.sessions, 1)
        per = f"{self.traced / max(self.sessions, 1) / 1024:5.1f} KiB a session"
        goal = f"{scaled / BUDGET_MIB:.2f}x the budget of {BUDGET_MIB} MiB for {SESSIONS:,}"
        return (f"{self.game_id:<18} {self.players} player(s), {self.sessions:,} sessions: "
                f"{mib:6.1f} MiB ({per}; {goal}); {self.states} parsed states alive; RSS "
                f"+{self.rss / 2**20:.0f} MiB with the fake Discord; {self.seconds:.0f} s")


def _rss() -> float:
    """The process's resident memory in bytes (Linux /proc; 0.0 elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return float(line.split()[1]) * 1024
    except OSError:
        pass
    return 0.0


def _traced() -> float:
    gc.collect()
    return float(tracemalloc.get_traced_memory()[0])


def _parsed_states() -> int:
    from bot.models import Memo

    return sum(1 for o in gc.get_objects() if isinstance(o, Memo))


def _drop_recorded(h: object) -> None:
    """Empty every collection the fake Discord keeps (its messages, calls, answers, tasks)."""
    for value in vars(h).values():
        if isinstance(value, (list, dict, set)) or hasattr(value, "clear") and hasattr(value, "maxlen"):
            value.clear()


async def _measure(game_id: str, sessions: int, moves: int) -> Memory:
    from bench.simulation import player_counts
    from bot.app import build_bot
    from bot.config import Settings
    from tests.bot.e2e import open_table, play_auto_move
    from tests.support.discord_harness import DiscordHarness

    game = rules.get_game(game_id)
    players = player_counts(game)[-1]
    people = min(2, players)
    channels = tuple(CHANNEL_BASE + i for i in range(WARM_TABLES + sessions))
    members = {100 + i: f"Player {i}" for i in range(people * len(channels))}
    seeds = iter(range(1, 10**9))
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_path=Path(tmp) / "memory.db", discord_token="x")
        bot = build_bot(settings, run_timers=False, seed_source=lambda: next(seeds))
        async with DiscordHarness(bot, channel_ids=channels, members=members, validate=False) as h:
            start, rss0 = 0.0, 0.0
            for i, channel in enumerate(channels):
                if i == WARM_TABLES:
                    await h.settle()
                    gc.collect()
                    rss0, start = _rss(), time.perf_counter()
                    tracemalloc.start()
                users = [100 + people * i + k for k in range(people)]
                await open_table(h, game_id, users, bots=players - people, channel=channel)
                for _ in range(moves):
                    if await play_auto_move(h, bot, channel) is None:
                        break
            await h.settle()
            seconds = time.perf_counter() - start
            rss = _rss() - rss0
            _drop_recorded(h)
            traced = _traced()
            tracemalloc.stop()
            states = _parsed_states()
    return Memory(game_id, players, sessions, traced, rss, states, seconds)


def measure(game_id: str, sessions: int = SESSIONS, moves: int = 1) -> Memory:
    """The memory `sessions` active tables of one game add (run it in a fresh process)."""
    return asyncio.run(_measure(game_id, sessions, moves))
