"""A record (a character, a hero) sits at one table at a time, in its own server (issue 28 items
1 and 2): lobbies choosing it at once, tables starting with it at once, retiring it while a
table starts with it, a game writing back only what it holds, another server's record of the
same name. Each race is many concurrent tries through the session service, on two stores at
once (two processes' worth of connections) on SQLite and on PostgreSQL (`db_target`)."""

from __future__ import annotations

import asyncio
import json

import pytest

import rules
from bot.models import RecordRow, Seat, Session
from bot.records import RecordError, Records
from bot.sessions import ServiceError, SessionService
from bot.store import MIGRATIONS, Store
from tests.support.clock import Clock

ALICE, BOB = 21, 22
GUILD, OTHER_GUILD = 1, 2
GAME = "test-heroes"
TRIES = 12


@pytest.fixture
async def two(db_target):
    """Two services, each on its own store (connections) over one database."""
    clock = Clock()
    st1, st2 = await Store.open(db_target), await Store.open(db_target)
    yield (SessionService(st1, clock=clock, seed_source=lambda: 3),
           SessionService(st2, clock=clock, seed_source=lambda: 3))
    await st1.close()
    await st2.close()


async def hero(svc: SessionService, name: str = "Hero", *, guild: int = GUILD, user: int = ALICE,
               xp: int = 0) -> None:
    row = RecordRow(guild_id=guild, user_id=user, game_id=GAME, name=name,
                    data=json.dumps({"name": name, "xp": xp, "games": 0}), updated_at=5.0)
    assert await svc.store.insert_record(row)


async def lobby(svc: SessionService, channel: int, *, guild: int = GUILD, host: int = ALICE) -> Session:
    return await svc.open_lobby(guild_id=guild, channel_id=channel, game_id=GAME, host_id=host,
                                host_name="alice" if host == ALICE else "bob")


async def held_by(svc: SessionService, name: str = "Hero", *, guild: int = GUILD) -> int | None:
    rows = await svc.store._fetch("SELECT held_by FROM records WHERE guild_id = ? AND user_id = ? "
                                  "AND game_id = ? AND name = ?", (guild, ALICE, GAME, name))
    assert len(rows) == 1, rows
    return rows[0][0]


async def record(svc: SessionService, name: str = "Hero", *, guild: int = GUILD) -> dict | None:
    rows = {r.name: r for r in await svc.store.records_of(guild, ALICE, GAME)}
    return None if name not in rows else {**json.loads(rows[name].data), "version": rows[name].version}


async def finish(svc: SessionService, session_id: int) -> Session:
    """Alice fights (alone at the table): the game ends and hands her hero back."""
    result = await svc.act(session_id, ALICE, "fight", version=None)
    assert result.session.status == "finished"
    return result.session


def gate(monkeypatch, services: tuple[SessionService, ...], parties: int) -> None:
    """Every write that takes or retires a record waits until `parties` of them are ready, then
    they all go to the database at once: each try has passed its checks (nothing committed yet),
    so only the database's conditional writes can decide."""
    barrier = asyncio.Barrier(parties)
    for svc in services:
        store, save, retire = svc.store, svc.store.save, svc.store.retire_record

        async def gated_save(session, expected, *, _save=save, **kw):
            if kw.get("holds"):
                await asyncio.wait_for(barrier.wait(), 30)
            return await _save(session, expected, **kw)

        async def gated_retire(*args, _retire=retire):
            await asyncio.wait_for(barrier.wait(), 30)
            return await _retire(*args)

        monkeypatch.setattr(store, "save", gated_save)
        monkeypatch.setattr(store, "retire_record", gated_retire)


def split(outcomes: list) -> tuple[list, list[ServiceError]]:
    won = [o for o in outcomes if not isinstance(o, BaseException)]
    lost = [o for o in outcomes if isinstance(o, BaseException)]
    unexpected = [o for o in lost if not isinstance(o, ServiceError)]
    assert not unexpected, unexpected
    return won, lost  # type: ignore[return-value]


# --- item 1: one table at a time ---------------------------------------------------------------

async def test_lobbies_choosing_one_hero_at_once_one_holds_it_the_others_are_told_where(two, monkeypatch):
    a, b = two
    await hero(a)
    lobbies = [await lobby(a, 600 + i) for i in range(TRIES)]
    gate(monkeypatch, two, TRIES)
    outcomes = await asyncio.gather(
        *[(a if i % 2 else b).choose_record(s.id, ALICE, ["Hero"]) for i, s in enumerate(lobbies)],
        return_exceptions=True)
    won, lost = split(outcomes)
    assert len(won) == 1 and len(lost) == TRIES - 1
    winner = won[0]
    assert await held_by(a) == winner.id
    for exc in lost:
        assert exc.message == (f"Your hero Hero is already at another table (in <#{winner.channel_id}>); "
                               "finish that game or leave it first.")
    # the refused lobbies kept no choice; Start never refuses the lobby that holds it
    for s in lobbies:
        seat = (await a.get(s.id)).seat_of_user(ALICE)
        assert seat.record == ("Hero" if s.id == winner.id else None)
    monkeypatch.undo()
    started = await b.start(winner.id, ALICE)
    assert started.session.status == "active" and await held_by(a) == winner.id


async def test_tables_starting_with_the_same_latest_hero_at_once_seat_it_once(two, monkeypatch):
    a, b = two
    await hero(a, xp=4)
    lobbies = [await lobby(a, 700 + i) for i in range(TRIES)]
    gate(monkeypatch, two, TRIES)
    outcomes = await asyncio.gather(*[(a if i % 2 else b).start(s.id, ALICE) for i, s in enumerate(lobbies)],
                                    return_exceptions=True)
    monkeypatch.undo()
    won, lost = split(outcomes)
    assert len(won) == 1 and len(lost) == TRIES - 1
    table = won[0].session
    assert table.status == "active" and table.seat_of_user(ALICE).record == "Hero"
    assert await held_by(a) == table.id
    for exc in lost:
        assert f"Hero is already at another table (in <#{table.channel_id}>)" in exc.message
    for s in lobbies:  # the refused tables wrote nothing: still lobbies, no record chosen
        if s.id != table.id:
            after = await a.get(s.id)
            assert after.status == "lobby" and after.seat_of_user(ALICE).record is None
    # the game that ends writes back its hero once, and lets it go
    await finish(a, table.id)
    back = await record(a)
    assert back["games"] == 1 and back["version"] == 1 and back["xp"] >= 5
    assert await held_by(a) is None
    # now another table may take it, with what the first one gave back
    again = await b.start(lobbies[0].id if lobbies[0].id != table.id else lobbies[1].id, ALICE)
    assert again.session.state().heroes[str(ALICE)].games == 1


async def test_a_game_that_ends_writes_back_only_what_it_holds(two):
    """A table whose hero was taken from it (forced here, as a stale writer would) hands nothing
    back: the other table's experience stays."""
    a, b = two
    await hero(a)
    first = (await a.start((await lobby(a, 800)).id, ALICE)).session
    # the record as another table left it, held by that table
    other = await lobby(b, 801)
    await a.store._write("UPDATE records SET held_by = ?, data = ?, version = 7 WHERE name = 'Hero'",
                         (other.id, json.dumps({"name": "Hero", "xp": 40, "games": 9})))
    await finish(a, first.id)
    assert await record(a) == {"name": "Hero", "xp": 40, "games": 9, "version": 7}
    assert await held_by(a) == other.id


async def test_a_table_that_read_a_hero_before_another_game_handed_it_back_is_refused(two, monkeypatch):
    """Start reads the hero while another table holds it: refused, told where. If that table's
    game ends between the read and Start's commit, the hold checks the version read: the older
    experience is never seated (and so never written back over the newer)."""
    a, b = two
    await hero(a)
    first = (await a.start((await lobby(a, 810)).id, ALICE)).session
    second = await lobby(b, 811)
    with pytest.raises(ServiceError, match=r"alice's hero Hero is already at another table \(in <#810>\)"):
        await b.start(second.id, ALICE)
    # the read passes (as if the first table let go just then), the first game ends before the commit
    monkeypatch.setattr(Records, "check_choice", _no_check)
    save = b.store.save

    async def first_ends_meanwhile(session, expected, **kw):
        if kw.get("holds"):
            await finish(a, first.id)
        return await save(session, expected, **kw)

    monkeypatch.setattr(b.store, "save", first_ends_meanwhile)
    with pytest.raises(ServiceError) as refused:
        await b.start(second.id, ALICE)
    assert refused.value.message == ("alice's hero Hero changed just now (another game ended): "
                                     "press Start again.")
    monkeypatch.undo()
    assert (await b.get(second.id)).status == "lobby" and await held_by(a) is None
    started = (await b.start(second.id, ALICE)).session  # pressed again: the hero as handed back
    assert started.state().heroes[str(ALICE)].games == 1


async def _no_check(self, session, user_id, names, owner=None, rows=None):
    """Records.check_choice skipped."""


async def test_retire_racing_starts_exactly_one_wins_and_a_retired_hero_never_comes_back(two, monkeypatch):
    """Each round, a retiring and a Start reach the database at the same moment. A hero its
    lobby chose is held: the retiring is refused. The latest one, not held yet: whichever
    conditional write comes first wins, and the other is told."""
    a, b = two
    game = rules.get_game(GAME)
    for i in range(TRIES):
        name = f"Hero {i}"
        await hero(a, name)
        s = await lobby(a, 900 + i)
        chosen = i % 3 == 0
        if chosen:
            await a.choose_record(s.id, ALICE, [name])
        gate(monkeypatch, two, 2)
        retire = (a if i % 2 else b).records.retire(GUILD, ALICE, game, name)
        start = (b if i % 2 else a).start(s.id, ALICE)
        retired, started = await asyncio.gather(retire, start, return_exceptions=True)
        monkeypatch.undo()
        assert isinstance(retired, BaseException) != isinstance(started, BaseException), (retired, started)
        assert isinstance(retired, BaseException) or not chosen
        if isinstance(started, BaseException):  # the retiring won: nothing seated, Start told
            assert isinstance(started, ServiceError)
            assert started.message == f"alice's hero {name} was just retired: press Start again."
            assert (await a.get(s.id)).status == "lobby"
            await a.cancel(s.id, ALICE)
        else:  # the table won: the retiring is told where the hero is; the game hands it back
            assert isinstance(retired, RecordError)
            assert retired.message == (f"{name} is at a table (in <#{900 + i}>); finish or leave "
                                       "that game first.")
            assert started.session.seat_of_user(ALICE).record == name
            await finish(a, started.session.id)
            assert (await record(a, name))["games"] == 1
            assert await a.records.retire(GUILD, ALICE, game, name) == name
        assert await record(a, name) is None


async def test_a_retired_hero_is_not_written_back_by_the_table_that_lost_the_race(two, monkeypatch):
    """The retiring lands between Start reading the hero and its commit: Start is refused and
    writes nothing; the hero stays retired (no table ever ends with it)."""
    a, b = two
    await hero(a)
    s = await lobby(a, 950)
    save = a.store.save

    async def retired_meanwhile(session, expected, **kw):
        if kw.get("holds"):
            assert await b.records.retire(GUILD, ALICE, rules.get_game(GAME), "Hero") == "Hero"
        return await save(session, expected, **kw)

    monkeypatch.setattr(a.store, "save", retired_meanwhile)
    with pytest.raises(ServiceError, match="hero Hero was just retired: press Start again"):
        await a.start(s.id, ALICE)
    monkeypatch.undo()
    assert await record(a) is None and (await a.get(s.id)).status == "lobby"
    started = (await a.start(s.id, ALICE)).session  # again: a new hero is made for her
    assert started.seat_of_user(ALICE).record == "alice"
    await finish(a, started.id)
    assert await record(a) is None and (await record(a, "alice"))["version"] == 1


async def test_a_hold_lapses_when_its_owner_leaves_or_the_lobby_closes(two):
    a, b = two
    await hero(a)
    first = await lobby(a, 960)
    await a.choose_record(first.id, ALICE, ["Hero"])
    second = await lobby(b, 961)
    with pytest.raises(ServiceError, match="in <#960>"):
        await b.choose_record(second.id, ALICE, ["Hero"])
    # choosing a new one gives it back
    await a.choose_record(first.id, ALICE, [])
    assert await held_by(a) is None
    await b.choose_record(second.id, ALICE, ["Hero"])
    # the lobby that holds it is cancelled: free again (no one needs to give it back)
    await b.cancel(second.id, ALICE)
    await a.choose_record(first.id, ALICE, ["Hero"])
    # its owner leaves the lobby (Bob hosts it): free again
    third = await lobby(a, 962, host=BOB)
    await a.join(third.id, ALICE, "alice")
    await a.cancel(first.id, ALICE)
    await a.choose_record(third.id, ALICE, ["Hero"])
    with pytest.raises(RecordError, match="in <#962>"):
        await a.records.retire(GUILD, ALICE, third.game(), "Hero")
    await a.leave_lobby(third.id, ALICE)
    assert await held_by(a) is None  # given back as she leaves: joining again holds nothing
    await a.join(third.id, ALICE, "alice")
    assert await a.records.retire(GUILD, ALICE, third.game(), "Hero") == "Hero"


# --- item 2: per server ---------------------------------------------------------------------------

async def test_a_hero_seated_in_one_server_does_not_block_the_same_name_in_another(two):
    a, b = two
    await hero(a, guild=GUILD)
    await hero(a, guild=OTHER_GUILD)
    here = (await a.start((await lobby(a, 970, guild=GUILD)).id, ALICE)).session
    assert await held_by(a, guild=GUILD) == here.id
    there = await lobby(b, 971, guild=OTHER_GUILD)
    chosen = await b.choose_record(there.id, ALICE, ["Hero"])
    assert chosen.seat_of_user(ALICE).record == "Hero"
    started = (await b.start(there.id, ALICE)).session
    assert started.status == "active" and await held_by(a, guild=OTHER_GUILD) == started.id
    await finish(b, started.id)
    game = here.game()
    assert await b.records.retire(OTHER_GUILD, ALICE, game, "Hero") == "Hero"
    with pytest.raises(RecordError, match=r"is at a table \(in <#970>\)"):
        await a.records.retire(GUILD, ALICE, game, "Hero")
    assert await record(a, guild=GUILD) is not None


# --- the schema step -----------------------------------------------------------------------------

async def _insert_at_step_7(store: Store, session: Session) -> int:
    """A session and its seats written with the columns of schema step 7 (today's `insert_session`
    writes columns of later steps)."""
    async with store._transaction() as tx:
        rows = await tx.fetch(
            "INSERT INTO sessions (guild_id, channel_id, game_id, status, host_id, options, state, "
            "version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, '{}', NULL, ?, 1.0, 1.0) RETURNING id",
            (session.guild_id, session.channel_id, session.game_id, session.status, session.host_id,
             session.version))
        sid = int(rows[0][0])
        await tx.executemany(
            "INSERT INTO seats (session_id, position, player_id, name, user_id, auto, dm_blocked, "
            "actions_version, record) VALUES (?, ?, ?, ?, ?, 0, 0, 0, ?)",
            [(sid, x.position, x.player_id, x.name, x.user_id, x.record) for x in session.seats])
    return sid


async def test_records_seated_before_the_schema_step_are_held_by_their_tables(db_target):
    """A database from before holds: the migration makes each open table hold what its seats
    brought (a name on any line of `seats.record`), and only those."""
    old = await Store.open(db_target, migrations=MIGRATIONS[:7])
    for name in ("Arin", "Bel", "Cy"):
        await old._write("INSERT INTO records (guild_id, user_id, game_id, name, data, version, updated_at) "
                         "VALUES (?, ?, ?, ?, '{}', 1, 1.0)", (GUILD, ALICE, GAME, name))
    session = Session(id=0, guild_id=GUILD, channel_id=990, game_id=GAME, status="active",
                      host_id=ALICE, options={}, state_json=None, version=3, created_at=1.0,
                      updated_at=1.0, seats=[Seat(position=0, player_id=str(ALICE), name="alice",
                                                  user_id=ALICE, record="Arin\nCy")])
    sid = await _insert_at_step_7(old, session)
    done = session.model_copy(update={"channel_id": 991, "status": "finished", "seats": [
        Seat(position=0, player_id=str(ALICE), name="alice", user_id=ALICE, record="Bel")]})
    await _insert_at_step_7(old, done)
    await old.close()
    async with await Store.open(db_target) as store:
        rows = await store._fetch("SELECT name, held_by FROM records ORDER BY name")
        assert [tuple(r) for r in rows] == [("Arin", sid), ("Bel", None), ("Cy", sid)]
        assert await store.record_holders(GUILD, ALICE, GAME) == {"Arin": (sid, 990), "Cy": (sid, 990)}
        assert not await store.retire_record(GUILD, ALICE, GAME, "Cy")
        assert await store.retire_record(GUILD, ALICE, GAME, "Bel")
