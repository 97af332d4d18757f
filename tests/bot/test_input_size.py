"""Every text a user can type reaches the bot bounded: 6,000 characters in any slash-command
option (or autocomplete) are answered at once, in a reply that fits Discord's limits."""

from __future__ import annotations

import time

import pytest

from tests.bot.e2e import ALICE, BOB, CHANNEL, make_bot, open_table
from tests.support.discord_harness import DiscordHarness

LONG = 6000
SHAPES = {
    "letters": "a" * LONG,
    "spaced": "a1 " * (LONG // 3),
    "digits": "9" * LONG,
    "dice": "1d" + "9" * (LONG - 2),
    "options": "k=v," * (LONG // 4),
    "mentions": "<@1004>" * (LONG // 7),
    "ticks": "`" * LONG,
}
# (command, the string option, the other options it needs)
COMMANDS = [
    ("game new", "game", {}),
    ("game new", "options", {"game": "test-high-card"}),
    ("game rules", "game", {}),
    ("game stats", "game", {}),
    ("game away", "until", {}),
    ("roll", "dice", {}),
    ("move", "move", {}),
    ("character create", "name", {"kit": "gilbert"}),
    ("character create", "kit", {"name": "Ada"}),
    ("character view", "name", {}),
    ("character retire", "name", {"confirm": "x"}),
    ("character retire", "confirm", {"name": "x"}),
]


def _string_options(bot) -> set[tuple[str, str]]:
    """(command, option) for every string option the bot declares, so a new one is not missed."""
    from discord import AppCommandOptionType

    out = set()
    for command in bot.tree.walk_commands():
        for param in getattr(command, "parameters", []):
            if param.type is AppCommandOptionType.string:
                out.add((command.qualified_name, param.name))
    return out


async def _timed(coro):
    t0 = time.perf_counter()
    reply = await coro
    return reply, time.perf_counter() - t0


@pytest.mark.parametrize("shape", sorted(SHAPES))
async def test_long_text_in_every_option_is_answered_briefly(tmp_path, shape):
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot) as h:
        assert _string_options(bot) == {(c, o) for c, o, _ in COMMANDS}, "a new text option needs a case here"
        other = 2001
        await open_table(h, "test-high-card", [ALICE, BOB], channel=other)  # /move has a game there
        normal = []
        for _ in range(3):
            _, took = await _timed(h.slash("roll", user=ALICE, channel=CHANNEL, options={"dice": "2d6"}))
            normal.append(took)
        floor = min(normal)
        for command, option, extra in COMMANDS:
            channel = other if command == "move" else CHANNEL
            reply, took = await _timed(h.slash(command, user=ALICE, channel=channel,
                                               options={**extra, option: SHAPES[shape]}))
            text = reply.text()
            assert reply.ephemeral, f"/{command} {option}: the refusal is private"
            assert 0 < len(reply.content) <= 2000 or reply.embeds, f"/{command} {option}: no answer"
            assert len(text) < 2000, f"/{command} {option}: a {len(text)}-character reply"
            assert SHAPES[shape][:200] not in text, f"/{command} {option} echoes the input"
            # bounded work: no worse than a few normal calls (a ratio, measured in the same run)
            assert took < 25 * floor + 0.05, f"/{command} {option}: {took * 1000:.1f} ms vs {floor * 1000:.1f} ms"
        # autocomplete sees the raw text too
        for command, option in (("move", "move"), ("game new", "game"), ("character create", "kit"),
                                ("character view", "name")):
            channel = other if command == "move" else CHANNEL
            choices = await h.autocomplete(command, user=ALICE, channel=channel,
                                           options={option: SHAPES[shape]}, focused=option)
            assert len(choices) <= 25
