"""`python -m bench` in miniature: each of its measures runs and reports what it says (the
figures themselves are the benchmark's, not the tests')."""

from __future__ import annotations

import statistics

from bench import latency
from bench.simulation import simulation_times


async def test_a_click_is_timed_against_its_floor():
    figures = (await latency.measure_all(4, [c for c in latency.CASES if c[1] == "deathly-thrones"]))[0]
    assert len(figures.actions) == len(figures.rules) == len(figures.commit) == len(figures.parse) == 4
    # no timing relation is asserted (a loaded machine can slow the floor's few samples more than
    # the actions'): every figure is measured, and the floor is its parts' medians added
    assert all(t > 0 for t in figures.actions + figures.parse + figures.rules + figures.commit)
    parts = (figures.parse, figures.rules, figures.commit)
    assert figures.floor == sum(statistics.median(p) for p in parts) and "x the floor" in figures.line()


async def test_the_load_table_counts_completed_actions_and_their_cpu():
    rows = await latency.load((1, 3), 2)
    assert [r.sessions for r in rows] == [1, 3]
    assert all(r.rate > 0 and r.cpu_per_action > 0 for r in rows)
    assert rows[0].completed == rows[1].completed == 2 * 3 * 2  # the same moves at every level, twice


def test_simulation_times_cover_every_player_count_of_a_game(monkeypatch):
    import rules.simulate

    monkeypatch.setattr(rules.simulate, "batch_collector", lambda: None)  # not this test process's
    rows = simulation_times(1, "guilty-gods")
    assert [(g, n) for g, n, _ in rows] == [("guilty-gods", 2)] and rows[0][2] > 0


async def test_the_bot_sets_its_collector_thresholds_when_it_starts(tmp_path):
    """The load table's figure depends on them (bot/app.py COLLECTOR_THRESHOLDS)."""
    import gc

    from bot.app import COLLECTOR_THRESHOLDS
    from tests.bot.e2e import make_bot
    from tests.support.discord_harness import DiscordHarness

    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        async with DiscordHarness(make_bot(tmp_path / "p.db", seed=1)):
            assert gc.get_threshold() == COLLECTOR_THRESHOLDS
    finally:
        gc.set_threshold(*before)


def test_discord_py_reads_and_writes_json_with_orjson_and_the_floor_decodes_as_the_gateway(monkeypatch):
    """orjson is a dependency for speed (pyproject.toml): discord.py picks it when installed, for
    every gateway frame and REST body. The floor's parse must use the same decoder, or the bench
    would compare the bot's decoding with a slower one."""
    from types import SimpleNamespace

    import discord.utils
    import orjson

    assert discord.utils.HAS_ORJSON and discord.utils._from_json is orjson.loads
    decoded, parsed = [], []
    monkeypatch.setattr(discord.utils, "_from_json", lambda text: decoded.append(text) or orjson.loads(text))
    bare = SimpleNamespace(_connection=SimpleNamespace(parsers={"INTERACTION_CREATE": parsed.append}))
    latency.parse_floor(bare, '{"t": "INTERACTION_CREATE", "d": {"id": "1"}}')  # type: ignore[arg-type]
    assert len(decoded) == 1 and parsed == [{"id": "1"}]
