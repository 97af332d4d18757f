"""`python -m bot preview GAME [--seed S] [--out DIR] [--moves N]`: a scripted, seeded game of GAME
played through the real bot and the offline Discord of the tests (tests/support), written as the
pages a player would see, in Discord's look (bot/preview/html.py): the table message, each
player's DM and ephemeral answers, at the start, in the middle and at the end (or after N moves),
with their pictures; with Chromium installed, screenshots at phone (400 px) and desktop (1280 px)
width. For the people who build the bot: it needs a source checkout (the offline Discord is test
support, not part of the installed package)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import re
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.preview import chromium
from bot.preview.html import DESKTOP_WIDTH, PHONE_WIDTH, Shown, Where, page

PLAYERS = (1001, 1002, 1003, 1004)
"""The people at the table (the harness's alice, bob, carol and dave)."""
CHANNEL = 2000
MOVES = 60
"""The moves a preview plays at most."""


@dataclass
class Seen:
    """One message as captured from the offline Discord: Shown, with its pictures' bytes."""

    where: str
    content: str
    embeds: list[dict]
    components: list[dict]
    pictures: dict[str, bytes] = field(default_factory=dict)
    note: str = ""


@dataclass
class Moment:
    """What everyone sees at one point of the game."""

    name: str  # "start", "middle", "end"
    moves: int  # moves played so far
    table: list[Seen]
    private: list[Seen]
    names: dict[int, str]
    finished: bool = False
    now: float | None = None  # the bot's clock then (relative timestamps count from it)


class NeedsCheckout(RuntimeError):
    """The preview runs only from a source checkout (it drives the bot through tests/support)."""


def _harness() -> tuple[Any, Any]:
    """tests/bot/e2e.py (the table helpers) and the offline Discord, imported by name: they are
    test support, in a checkout only (the type checker does not follow them into tests/)."""
    try:
        e2e = importlib.import_module("tests.bot.e2e")
        harness = importlib.import_module("tests.support.discord_harness")
    except ImportError as exc:
        raise NeedsCheckout("The preview drives the bot through the offline Discord of the tests "
                            "(tests/support), which only a source checkout has: run `python -m bot preview` in the "
                            "checkout's folder.") from exc
    return e2e, harness.DiscordHarness


def seats_for(game_id: str) -> int:
    """How many people sit at the preview's table: two where the game allows it."""
    import rules
    from rules.core import IllegalAction

    game = rules.GAMES[game_id]
    for n in (2, 1, 4, 3):
        try:
            game.check_players(n)
        except IllegalAction:
            continue
        return n
    return game.min_players


def _seen(message, where: str, note: str = "") -> Seen:
    return Seen(where=where, content=message.content, embeds=list(message.embeds),
                components=list(message.components), pictures=dict(message.attachments), note=note)


async def _moment(h, name: str, moves: int, people: list[int], finished: bool, now: float | None) -> Moment:
    """What everyone sees now, with two ephemeral answers asked for it: the last person's
    "My hand" (when the table offers it) and the first person's `/game log`."""
    names = {uid: h.user_name(uid) for uid in people}
    before = {uid: len(h.ephemerals_to(uid)) for uid in people}
    for message in reversed(h.messages_in(CHANNEL)):
        if any(b.get("label") == "My hand" for b in message.buttons()):
            await h.click(message, h.find_button(message, "My hand"), user=people[-1])
            break
    await h.slash("game log", user=people[0], channel=CHANNEL)
    table = [_seen(m, "#table") for m in h.messages_in(CHANNEL)]
    private: list[Seen] = []
    for uid in people:
        private += [_seen(m, f"DM to {names[uid]}") for m in h.dms_to(uid)]
        private += [_seen(m, f"to {names[uid]}", note=f"ephemeral: only {names[uid]} sees it")
                    for m in h.ephemerals_to(uid)[before[uid]:]]
    return Moment(name=name, moves=moves, table=table, private=private, names=names, finished=finished,
                  now=now)


@contextlib.contextmanager
def _machine_speed() -> Iterator[None]:
    """Clicks come at machine speed: no pacing of the table's edits (bot/edits.py)."""
    from bot import edits

    kept = edits.PACING
    edits.PACING = None
    try:
        yield
    finally:
        edits.PACING = kept


async def play(game_id: str, seed: int = 1, moves: int = MOVES, *, stops: tuple[str, ...] = ("start", "middle", "end"),
               database: Path | None = None, seats: int | None = None) -> list[Moment]:
    """Play a seeded game of `game_id` through the bot, each person choosing what the automatic
    player would; the moments named in `stops` ("start", "middle": after half of `moves`, "end":
    the game's end or after `moves`). `seats`: people at the table (default `seats_for`)."""
    e2e, DiscordHarness = _harness()
    people = list(PLAYERS[:seats or seats_for(game_id)])
    out: list[Moment] = []
    with tempfile.TemporaryDirectory(prefix="pantheon-preview-") as tmp, _machine_speed():
        bot = e2e.make_bot(database or Path(tmp) / "preview.db", seed=seed)
        async with DiscordHarness(bot) as h:
            await e2e.open_table(h, game_id, people)
            if "start" in stops:
                out.append(await _moment(h, "start", 0, people, False, e2e.START))
            played, finished = 0, False
            while played < moves:
                if await e2e.play_auto_move(h, bot, CHANNEL) is None:
                    finished = True
                    break
                played += 1
                if played == moves // 2 and "middle" in stops:
                    out.append(await _moment(h, "middle", played, people, False, e2e.START))
            if "end" in stops:
                out.append(await _moment(h, "end", played, people, finished, e2e.START))
    return out


def write(moment: Moment, folder: Path, title: str) -> Path:
    """The moment as `folder/<name>.html` with its pictures beside it; returns the page."""
    folder.mkdir(parents=True, exist_ok=True)
    shown: list[Shown] = []
    for i, seen in enumerate(moment.table + moment.private):
        files = {}
        for name, blob in seen.pictures.items():
            safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:60]
            path = folder / f"{moment.name}-{i}-{safe}"
            path.write_bytes(blob)
            files[name] = path.name
        shown.append(Shown(where=seen.where, content=seen.content, embeds=seen.embeds,
                           components=seen.components, files=files, note=seen.note))
    target = folder / f"{moment.name}.html"
    where = Where(names=moment.names, channels={CHANNEL: "table"}, now=moment.now)
    target.write_text(page(title, shown, where), encoding="utf-8")
    return target


def table_page(moment: Moment, folder: Path, title: str) -> Path:
    """Only the table message(s) of the moment, as `folder/<name>-table.html`."""
    only = Moment(name=f"{moment.name}-table", moves=moment.moves, table=moment.table, private=[],
                  names=moment.names, finished=moment.finished, now=moment.now)
    return write(only, folder, title)


def main(argv: list[str]) -> int:
    import rules

    parser = argparse.ArgumentParser(prog="python -m bot preview", description=(
        "Play a scripted, seeded game through the bot and write what players see as Discord-like "
        "HTML pages (and screenshots at 400 and 1280 px when Chromium is installed)."))
    parser.add_argument("game", choices=sorted(rules.GAMES), metavar="GAME",
                        help="one of: " + ", ".join(sorted(rules.GAMES)))
    parser.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    parser.add_argument("--out", type=Path, default=None, help="the folder (default preview/GAME)")
    parser.add_argument("--moves", type=int, default=MOVES, help=f"moves played at most (default {MOVES})")
    args = parser.parse_args(argv)
    if not 1 <= args.moves <= 2000:
        parser.error("--moves is from 1 to 2000")
    folder = args.out or Path("preview") / args.game
    try:
        moments = asyncio.run(play(args.game, args.seed, args.moves))
    except NeedsCheckout as exc:
        print(exc, file=sys.stderr)
        return 2
    except AssertionError as exc:  # the offline Discord's HarnessError: what Discord would refuse
        lines = str(exc).splitlines()
        print("The game could not be played through the offline Discord:\n" + "\n".join(lines[:20]),
              file=sys.stderr)
        return 1
    name = rules.GAMES[args.game].name
    binary = chromium.find()
    for moment in moments:
        state = "game over" if moment.finished else f"after {moment.moves} moves"
        target = write(moment, folder, f"{name}, seed {args.seed}: {moment.name} ({state})")
        print(f"wrote {target}")
        if binary is None:
            continue
        for width in (PHONE_WIDTH, DESKTOP_WIDTH):
            shot = folder / f"{moment.name}-{width}.png"
            tall = chromium.screenshot(target, shot, width, binary)
            print(f"wrote {shot} ({width} x {tall} px)")
    if binary is None:
        print("Chromium is not installed: no screenshots (Debian: apt-get install chromium).")
    return 0
