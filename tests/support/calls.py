"""Counting the bot's Discord calls per click: whole games with automatic moves through the
offline harness, every REST call sorted into bot-token calls (they count against Discord's
global limit of 50 per second per bot and the per-route buckets) and interaction-token calls
(responses, followups, `@original` edits: outside the global limit)."""

from __future__ import annotations

import collections
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bot import edits
from tests.bot.e2e import ALICE, BOB, CAROL, DAVE, make_bot, open_table, play_auto_move
from tests.support.discord_harness import DiscordHarness, RestCall

CASES: list[tuple[str, str, list[int], int, str | None]] = [
    # (label, game, people, automatic seats, options)
    ("gods-of-magic 4p", "gods-of-magic", [ALICE, BOB, CAROL, DAVE], 0, "target=100"),
    ("deathly-thrones", "deathly-thrones", [ALICE], 0, None),
    ("terra-sancta 2p", "terra-sancta", [ALICE, BOB], 0, "factions=random"),
    ("terra-sancta 4p", "terra-sancta", [ALICE, BOB, CAROL, DAVE], 0, "factions=random"),
    ("guilty-gods", "guilty-gods", [ALICE, BOB], 0, None),
    ("by-gods-and-kings", "by-gods-and-kings", [ALICE, BOB], 0, "party=4"),
]


def shape(call: RestCall) -> str:
    """The call's method and route, ids replaced (`PATCH /channels/{id}/messages/{id}`)."""
    path = re.sub(r"/webhooks/\d+/[^/]+", "/webhooks/{app}/{token}", call.path)
    path = re.sub(r"/interactions/\d+/[^/]+", "/interactions/{id}/{token}", path)
    path = re.sub(r"/\d+", "/{id}", path)
    return f"{call.method} {path}"


@dataclass
class CallCount:
    label: str
    clicks: int = 0
    bot_calls: int = 0
    token_calls: int = 0
    by_route: collections.Counter[str] = field(default_factory=collections.Counter)

    @property
    def per_click(self) -> float:
        return self.bot_calls / max(self.clicks, 1)

    def tally(self, calls) -> None:
        """Count these recorded calls: bot-token ones by route, interaction-token ones in all."""
        for call in calls:
            if call.via == "http":
                self.bot_calls += 1
                self.by_route[shape(call)] += 1
            else:
                self.token_calls += 1

    def line(self) -> str:
        routes = ", ".join(f"{n / max(self.clicks, 1):.2f} {r}" for r, n in self.by_route.most_common())
        return (f"{self.label:<20} {self.clicks:5} clicks: {self.per_click:.2f} bot-token calls per "
                f"click ({self.token_calls / max(self.clicks, 1):.2f} interaction-token) [{routes}]")


async def count_game(label: str, game: str, people: list[int], bots: int = 0,
                     options: str | None = None, *, db: Path, seed: int = 7,
                     limit: int = 5000, tokens: bool = True) -> CallCount:
    """Play one whole game by automatic moves through Discord and count the calls its clicks
    caused (from the first move to the end; opening the table is not counted). `tokens` False:
    as if every interaction token were older than 15 minutes (the bot's own calls instead)."""
    edits.PACING = None  # clicks at machine speed: each click's edits are counted, none coalesced
    bot = make_bot(db, seed=seed)
    count = CallCount(label)
    async with DiscordHarness(bot) as h:
        if not tokens:
            bot.controller.token_life = 0.0
        await open_table(h, game, people, bots=bots, options=options)
        first = len(h.calls)
        while True:
            reply = await play_auto_move(h, bot)
            if reply is None:
                break
            count.clicks += 1
            assert count.clicks < limit, f"{label}: the game did not end"
        count.tally(h.calls[first:])
    await bot.close()
    return count


async def count_all(cases=CASES, seed: int = 7, *, tokens: bool = True) -> list[CallCount]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (label, game, people, bots, options) in enumerate(cases):
            out.append(await count_game(label, game, people, bots, options, tokens=tokens,
                                        db=Path(tmp) / f"calls{i}.db", seed=seed))
    return out
