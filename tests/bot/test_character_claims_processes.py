"""A record at one table at a time with two bot processes on one PostgreSQL (issue 28 item 1):
the same person presses Start at two tables, one in each process, at the same moment; and a
By Gods and Kings character is retired in one process while its table starts in the other.
Each process is the real bot on the offline Discord harness (tests/support/shard_worker.py)."""

from __future__ import annotations

import asyncio
import json

from bot.models import RecordRow
from bot.store import Store
from tests.bot.e2e import ALICE, CHANNEL, OTHER_CHANNEL
from tests.support.workers import WorkerProcess

GUILD = 1000  # the workers' guild
ROUNDS = 6


async def _two(url: str) -> tuple[WorkerProcess, WorkerProcess]:
    return await asyncio.gather(WorkerProcess.start(url, name="A"), WorkerProcess.start(url, name="B"))


async def _held(store: Store, game: str, name: str) -> tuple[int | None] | None:
    rows = await store._fetch("SELECT held_by FROM records WHERE guild_id = ? AND user_id = ? "
                              "AND game_id = ? AND name = ?", (GUILD, ALICE, game, name))
    return (rows[0][0],) if rows else None


async def test_two_processes_starting_tables_with_one_hero_seat_it_once(postgres_url):
    a, b = await _two(postgres_url)
    store = await Store.open(postgres_url)
    try:
        await store.insert_record(RecordRow(guild_id=GUILD, user_id=ALICE, game_id="test-heroes",
                                            name="Hero", data=json.dumps({"name": "Hero"}), updated_at=1.0))
        for _ in range(ROUNDS):
            await asyncio.gather(
                a.ask("slash", name="game new", user=ALICE, channel=CHANNEL, options={"game": "test-heroes"}),
                b.ask("slash", name="game new", user=ALICE, channel=OTHER_CHANNEL, options={"game": "test-heroes"}))
            answers = await asyncio.gather(
                a.ask("click_named", label="Start", user=ALICE, channel=CHANNEL),
                b.ask("click_named", label="Start", user=ALICE, channel=OTHER_CHANNEL))
            sessions = [await store.open_in_channel(c) for c in (CHANNEL, OTHER_CHANNEL)]
            active = [s for s in sessions if s is not None and s.status == "active"]
            assert len(active) == 1, [s.status for s in sessions if s]
            table = active[0]
            assert table.seat_of_user(ALICE).record == "Hero"
            assert await _held(store, "test-heroes", "Hero") == (table.id,)
            loser = 1 - sessions.index(table)
            assert sessions[loser].status == "lobby" and sessions[loser].seat_of_user(ALICE).record is None
            assert (f"alice's hero Hero is already at another table (in <#{table.channel_id}>)"
                    in answers[loser]["text"]), answers[loser]
            # the table plays to its end (it writes the hero back), the lobby is closed
            worker = (a, b)[sessions.index(table)]
            await worker.ask("click_named", label="Fight", user=ALICE, channel=table.channel_id)
            await (a, b)[loser].ask("slash", name="game end", user=ALICE,
                                    channel=sessions[loser].channel_id)
            assert await _held(store, "test-heroes", "Hero") == (None,)
        kept = (await store.records_of(GUILD, ALICE, "test-heroes"))[0]
        assert kept.version == ROUNDS and json.loads(kept.data)["games"] == ROUNDS
    finally:
        await asyncio.gather(a.quit(), b.quit())
        await store.close()


async def test_retiring_in_one_process_while_the_table_starts_in_the_other(postgres_url):
    """Exactly one wins: the character is seated (the retiring is told where) or retired (then
    it is not at the table, and the game's end does not bring it back)."""
    game = "by-gods-and-kings"
    a, b = await _two(postgres_url)
    store = await Store.open(postgres_url)
    try:
        outcomes = []
        for i in range(ROUNDS):
            name = f"Ada {i}"
            made = await a.ask("slash", name="character create", user=ALICE, channel=CHANNEL,
                               options={"name": name, "kit": "helga"})
            assert f"**{name}** is ready" in made["text"]
            await a.ask("slash", name="game new", user=ALICE, channel=CHANNEL, options={"game": game})

            async def retiring(delay: float, name: str = name) -> dict:
                await asyncio.sleep(delay)  # the retiring sent a little later, round after round
                return await b.ask("slash", name="character retire", user=ALICE, channel=CHANNEL,
                                   options={"name": name, "confirm": name})

            start, retire = await asyncio.gather(
                a.ask("click_named", label="Start", user=ALICE, channel=CHANNEL), retiring(0.003 * i))
            session = await store.latest_in_channel(CHANNEL)
            seated = session.status == "active" and name in (session.seat_of_user(ALICE).record or "")
            if seated:
                outcomes.append("seated")
                assert retire["text"] == f"{name} is at a table (in <#{CHANNEL}>); finish or leave that game first."
                assert await _held(store, game, name) == (session.id,)
            else:
                outcomes.append("retired")
                assert "retires from adventuring" in retire["text"]
                assert await _held(store, game, name) is None
                if session.status == "lobby":  # Start read it, then found it retired
                    assert f"{name} was just retired: press Start again." in start["text"]
            await a.ask("slash", name="game end", user=ALICE, channel=CHANNEL)
            if seated:
                assert await _held(store, game, name) == (session.id,)  # (a lapsed hold: the game ended)
                assert (await a.ask("slash", name="character retire", user=ALICE, channel=CHANNEL,
                                    options={"name": name, "confirm": name}))["text"].startswith(f"**{name}** retires")
            assert await _held(store, game, name) is None
        assert len(outcomes) == ROUNDS
    finally:
        await asyncio.gather(a.quit(), b.quit())
        await store.close()
