"""The session service over a real SQLite file: lobby, turns, automatic players, timers, stats."""

from __future__ import annotations

import asyncio

import pytest

import rules
from bot.models import ActResult, Seat, Session, forget_memos, known_memo
from bot.sessions import (
    TURN_TIMER_CHOICES,
    NotSeated,
    NotYourTurn,
    ServiceError,
    SessionService,
    StaleVersion,
)
from bot.store import Store
from rules.core.game import IllegalAction, Result
from rules.core.rng import Rng
from tests.support.clock import Clock
from tests.support.highcard import HighCard

ANN, BOB, CID, EVE = 10, 11, 12, 13
GUILD, CHANNEL = 1, 500



class PairCard(HighCard):
    """Exactly two players; tags for statistics."""

    id = "test-pair-card"
    name = "Pair Card (test)"
    min_players = 2
    max_players = 2

    def result(self, state):
        res = super().result(state)
        if res is None:
            return None
        tags = {"quest": "iron-throne"}
        tags.update({f"{p}.character": "knight" if i == 0 else "witch"
                     for i, p in enumerate(state.players)})
        return Result(winners=res.winners, scores=res.scores, summary=res.summary, tags=tags)


class SoloCard(HighCard):
    id = "test-solo-card"
    name = "Solo Card (test)"
    max_players = 1


class QuickCard(HighCard):
    """Every phase has its own 30-second limit."""

    id = "test-quick-card"
    name = "Quick Card (test)"

    def phase_timeout(self, state):
        return 30


@pytest.fixture(autouse=True)
def extra_games(monkeypatch):
    for game in (PairCard(), SoloCard(), QuickCard()):
        monkeypatch.setitem(rules.GAMES, game.id, game)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def store(tmp_path):
    st = await Store.open(tmp_path / "data" / "pantheon.db")
    yield st
    await st.close()


@pytest.fixture
def service(store, clock):
    return SessionService(store, clock=clock, seed_source=lambda: 12345)


async def lobby(service, game_id="test-high-card", players=(BOB,), bots=0, channel=CHANNEL,
                **options) -> Session:
    s = await service.open_lobby(guild_id=GUILD, channel_id=channel, game_id=game_id,
                                 host_id=ANN, host_name="Ann", options=options or None)
    for uid in players:
        s = await service.join(s.id, uid, f"user{uid}")
    for _ in range(bots):
        s = await service.add_bot(s.id, ANN)
    return s


def to_act(session: Session) -> tuple[str, int | None]:
    pid = session.game().to_act(session.state())[0]
    return pid, session.seat(pid).user_id


def first_play(session: Session, pid: str) -> str:
    return next(a.key for a in session.game().legal_actions(session.state(), pid)
                if a.key.startswith("play:"))


async def play_out(service, session: Session):
    result = None
    while session.status == "active":
        pid, uid = to_act(session)
        result = await service.act(session.id, uid, first_play(session, pid), version=session.version)
        session = result.session
    return result


# --- lobby ----------------------------------------------------------------------
async def test_lobby_flow_and_start_with_a_fixed_seed(service, store):
    s = await lobby(service, bots=1)
    assert [x.player_id for x in s.seats] == [str(ANN), str(BOB), "bot-1"]
    assert s.options == {"cards": "3", "turn_timer": "300"}
    s = await service.set_option(s.id, ANN, "cards", "1")
    s = await service.set_option(s.id, ANN, "turn_timer", "60")
    assert s.status == "lobby" and s.version == 5  # every lobby change counts
    res = await service.start(s.id, ANN)
    game = res.session.game()
    assert res.session.status == "active"
    assert res.session.state().rng.seed == 12345
    expected = game.setup([str(ANN), str(BOB), "bot-1"], {"cards": "1"}, 12345)
    assert res.session.state().hands == expected.hands
    assert set(res.changed_players) == {str(ANN), str(BOB), "bot-1"}
    assert res.events[0].kind == "start" and "seed" not in res.events[0].data
    # the seed fixes every shuffle and roll: no event or log row carries it
    assert all("12345" not in e.model_dump_json() for e in res.events)
    rows = await service.recent_log(s.id)
    assert rows and all("12345" not in r.model_dump_json() for r in rows)
    assert (await service.get(s.id)).state_json == res.session.state_json


async def test_bad_lobby_input_gives_clear_messages_and_writes_nothing(service, store):
    with pytest.raises(ServiceError, match=r"Unknown game `chess`\. Installed: .*test-high-card"):
        await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, game_id="chess",
                                 host_id=ANN, host_name="Ann")
    with pytest.raises(ServiceError, match="no option `speed`"):
        await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, game_id="test-high-card",
                                 host_id=ANN, host_name="Ann", options={"speed": "1"})
    with pytest.raises(ServiceError, match="turn timer"):
        await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, game_id="test-high-card",
                                 host_id=ANN, host_name="Ann", options={"turn_timer": "7"})
    s = await lobby(service, players=())
    with pytest.raises(ServiceError, match=r"A game of High Card \(test\) is already open here; "
                                           r"finish it or `/game end` it first\."):
        await service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, game_id="test-pair-card",
                                 host_id=BOB, host_name="Bob")
    with pytest.raises(ServiceError, match="already at this table"):
        await service.join(s.id, ANN, "Ann")
    with pytest.raises(ServiceError, match="Only the host"):
        await service.add_bot(s.id, BOB)
    with pytest.raises(ServiceError, match="not a choice"):
        await service.set_option(s.id, ANN, "cards", "9")
    with pytest.raises(NotSeated):
        await service.leave_lobby(s.id, EVE)
    for uid in (BOB, CID, EVE):
        await service.join(s.id, uid, "x")
    with pytest.raises(ServiceError, match=r"The table is full \(4 seats\)"):
        await service.join(s.id, 99, "y")
    with pytest.raises(ServiceError, match="Only the host"):
        await service.start(s.id, BOB)
    with pytest.raises(ServiceError, match="no game #999"):
        await service.join(999, BOB, "Bob")
    assert (await service.get(s.id)).version == 4  # only the three joins counted
    assert await service.recent_log(s.id) == []


async def test_two_lobbies_opened_at_once_in_one_channel(service):
    outcomes = await asyncio.gather(
        *(service.open_lobby(guild_id=GUILD, channel_id=CHANNEL, game_id="test-high-card",
                             host_id=uid, host_name="x") for uid in (ANN, BOB)),
        return_exceptions=True)
    errors = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(errors) == 1 and "already open here" in errors[0].message
    assert (await service.active_in_channel(CHANNEL)).host_id in (ANN, BOB)


async def test_too_few_or_too_many_players(service, store):
    s = await lobby(service, game_id="test-pair-card", players=())
    with pytest.raises(ServiceError, match="needs at least 2"):
        await service.start(s.id, ANN)
    # A table that somehow holds too many (an older bot, a hand-edited row): refused at start.
    crowded = s.model_copy(update={"channel_id": 501, "seats": s.seats + [
        Seat(position=i, player_id=f"bot-{i}", name="b", user_id=None, auto=True) for i in (1, 2)]})
    crowded.id = await store.insert_session(crowded)
    with pytest.raises(ServiceError, match="at most 2"):
        await service.start(crowded.id, ANN)
    assert (await service.get(crowded.id)).status == "lobby"


async def test_host_leaving_hands_over_and_the_last_person_cancels(service):
    s = await lobby(service, bots=1)
    s = await service.leave_lobby(s.id, ANN)
    assert s.host_id == BOB and [x.player_id for x in s.seats] == [str(BOB), "bot-1"]
    assert [x.position for x in s.seats] == [0, 1]
    s = await service.remove_bot(s.id, "bot-1", BOB)
    s = await service.leave_lobby(s.id, BOB)
    assert s.status == "abandoned"
    assert await service.active_in_channel(CHANNEL) is None


async def test_cancel_and_end_need_the_host_or_a_manager(service):
    s = await lobby(service)
    with pytest.raises(ServiceError, match="Only the host"):
        await service.cancel(s.id, BOB)
    assert (await service.cancel(s.id, BOB, can_manage=True)).status == "abandoned"
    s = await lobby(service)
    await service.start(s.id, ANN)
    with pytest.raises(ServiceError, match="Only the host"):
        await service.end(s.id, BOB)
    ended = await service.end(s.id, ANN)
    assert ended.status == "abandoned" and ended.deadline is None
    with pytest.raises(ServiceError, match="already ended"):
        await service.end(s.id, ANN)
    assert await service.active_in_channel(CHANNEL) is None
    assert (await lobby(service)).status == "lobby"  # the channel is free again


# --- acting -----------------------------------------------------------------------
async def test_act_checks_version_seat_and_turn_and_writes_nothing_on_failure(service):
    s = (await service.start((await lobby(service)).id, ANN)).session
    v = s.version
    with pytest.raises(StaleVersion, match="out of date"):
        await service.act(s.id, ANN, "play:0", version=v - 1)
    with pytest.raises(NotSeated):
        await service.act(s.id, EVE, "play:0", version=v)
    with pytest.raises(NotYourTurn):
        await service.act(s.id, BOB, "play:0", version=v)
    with pytest.raises(IllegalAction, match="not possible"):
        await service.act(s.id, ANN, "play:9", version=v)
    with pytest.raises(IllegalAction, match="Say something"):
        await service.act(s.id, ANN, "cheer", version=None)
    assert (await service.get(s.id)).version == v
    assert [e.action_key for e in await service.recent_log(s.id)] == ["start"]
    res = await service.act(s.id, ANN, "cheer", version=None, text="Go!")
    assert res.session.version == v + 1 and res.events[0].text.endswith("Go!")
    finished = await play_out(service, res.session)
    assert finished.result is not None and finished.session.status == "finished"
    with pytest.raises(ServiceError, match="This game has finished"):
        await service.act(s.id, ANN, "play:0", version=None)


async def test_two_concurrent_acts_apply_exactly_once(service):
    s = (await service.start((await lobby(service)).id, ANN)).session
    outcomes = await asyncio.gather(
        service.act(s.id, ANN, "play:0", version=s.version),
        service.act(s.id, ANN, "play:1", version=s.version),
        return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["ActResult", "StaleVersion"]
    log = await service.recent_log(s.id)
    assert [e.action_key for e in log][1:] in (["play:0"], ["play:1"])
    assert (await service.get(s.id)).version == s.version + 1


async def test_two_processes_acting_at_once_apply_exactly_once(tmp_path, clock):
    """No shared lock: two stores and services on one file; the version CAS decides."""
    path = tmp_path / "shared.db"
    st1, st2 = await Store.open(path), await Store.open(path)
    one = SessionService(st1, clock=clock, seed_source=lambda: 1)
    two = SessionService(st2, clock=clock, seed_source=lambda: 1)
    s = (await one.start((await lobby(one)).id, ANN)).session
    outcomes = await asyncio.gather(
        one.act(s.id, ANN, "play:0", version=s.version),
        two.act(s.id, ANN, "play:1", version=s.version),
        return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["ActResult", "LostRace"]
    assert isinstance(next(o for o in outcomes if not isinstance(o, ActResult)), StaleVersion)
    assert len(await two.recent_log(s.id)) == 2  # start + one play
    await st1.close()
    await st2.close()


async def test_an_action_on_a_session_just_read_does_not_read_it_again(tmp_path, clock, monkeypatch):
    store = await Store.open(tmp_path / "p.db")
    svc = SessionService(store, clock=clock, seed_source=lambda: 1)
    s = (await svc.start((await lobby(svc)).id, ANN)).session
    loaded = await svc.get(s.id)

    async def no_read(session_id):
        raise AssertionError("the session was read again")

    monkeypatch.setattr(store, "load", no_read)
    pid, user = to_act(s)
    res = await svc.act(s.id, user, first_play(s, pid), version=s.version, loaded=loaded)
    assert res.session.version == s.version + 1
    await store.close()


async def test_an_action_on_a_session_read_before_another_process_moved_is_tried_on_the_new_state(
        tmp_path, clock):
    path = tmp_path / "shared.db"
    st1, st2 = await Store.open(path), await Store.open(path)
    one = SessionService(st1, clock=clock, seed_source=lambda: 1)
    two = SessionService(st2, clock=clock, seed_source=lambda: 1)
    s = (await one.start((await lobby(one)).id, ANN)).session
    stale = await one.get(s.id)
    pid, user = to_act(s)
    key = first_play(s, pid)
    other = next(x for x in s.seats if x.player_id != pid)
    # process two commits a change meanwhile (the other player hands their seat to the
    # automatic player; the clicker's choices stay the same) ...
    fresh = (await two.hand_to_auto(s.id, other.player_id, other.user_id)).session
    assert fresh.version == s.version + 1
    # ... and process one handles the click with the copy it read before: the compare-and-set
    # refuses that copy, and the move is applied to what process two wrote
    res = await one.act(s.id, user, key, version=s.version, loaded=stale)
    assert res.session.version >= fresh.version + 1
    log = await one.recent_log(s.id)
    assert [e.action_key for e in log if e.version > s.version][:2] == ["auto", key]
    await st1.close()
    await st2.close()


async def test_a_control_of_the_version_this_process_saved_last_is_acted_on_without_a_read(
        tmp_path, clock, monkeypatch):
    store = await Store.open(tmp_path / "p.db")
    svc = SessionService(store, clock=clock, seed_source=lambda: 1)
    s = (await svc.start((await lobby(svc)).id, ANN)).session
    reads = []
    load = store.load

    async def counted(session_id):
        reads.append(session_id)
        return await load(session_id)

    monkeypatch.setattr(store, "load", counted)
    current = await svc.get_current(s.id, s.version)
    assert reads == [] and current.version == s.version and current is not s
    assert current.model_dump() == s.model_dump()  # the session as saved
    current.seats[0].name = "changed"  # a copy: what this process keeps is not changed
    assert (await svc.get_current(s.id, s.version)).seats[0].name != "changed"
    assert reads == []
    await svc.get_current(s.id, s.version - 1)  # an older control: read (and refused by act)
    assert reads == [s.id]
    pid, user = to_act(s)
    res = await svc.act(s.id, user, first_play(s, pid), version=s.version,
                        loaded=await svc.get_current(s.id, s.version))
    assert res.session.version == s.version + 1 and reads == [s.id]
    # writes outside the version drop the kept copy: the next control reads
    version = res.session.version
    for write in (lambda: svc.set_table_message(s.id, 1, 2), lambda: svc.mark_dm_blocked(s.id, pid, True),
                  lambda: svc.mark_reminded(s.id, 1.0)):
        await svc.get_current(s.id, version)
        before = len(reads)
        await svc.get_current(s.id, version)
        assert len(reads) == before  # kept
        await write()
        await svc.get_current(s.id, version)
        assert len(reads) == before + 1  # dropped
        _, acting = to_act(await svc.get(s.id))
        version = (await svc.act(s.id, acting, "cheer", version=None, text="Go!")).session.version
    await store.close()


async def test_a_control_acted_on_the_kept_copy_after_another_process_moved_is_refused(tmp_path, clock):
    """Process one kept its last save; process two commits a move; a click on a control of the
    version process one kept is tried on that copy, refused by the compare-and-set, tried
    again on what process two wrote and refused as out of date: exactly one move is written."""
    path = tmp_path / "shared.db"
    st1, st2 = await Store.open(path), await Store.open(path)
    one = SessionService(st1, clock=clock, seed_source=lambda: 1)
    two = SessionService(st2, clock=clock, seed_source=lambda: 1)
    s = (await one.start((await lobby(one)).id, ANN)).session
    pid, user = to_act(s)
    key = first_play(s, pid)
    moved = (await two.act(s.id, user, key, version=s.version)).session
    kept = await one.get_current(s.id, s.version)
    assert kept.version == s.version  # process one does not know yet
    with pytest.raises(StaleVersion):
        await one.act(s.id, user, first_play(s, pid), version=s.version, loaded=kept)
    stored = await one.get(s.id)
    assert stored.version == moved.version
    assert [e.action_key for e in await one.recent_log(s.id)][-1:] == [key]
    await st1.close()
    await st2.close()


async def test_a_crash_between_commit_and_send_loses_nothing(tmp_path, clock):
    path = tmp_path / "p.db"
    store = await Store.open(path)
    service = SessionService(store, clock=clock, seed_source=lambda: 5)
    s = (await service.start((await lobby(service)).id, ANN)).session
    res = await service.act(s.id, ANN, "play:0", version=s.version)
    # ... and the process dies before anything reaches Discord.
    await store.close()
    store = await Store.open(path)
    service = SessionService(store, clock=clock)
    again = await service.get(s.id)
    assert again.version == res.session.version
    assert again.state_json == res.session.state_json
    assert to_act(again) == (str(BOB), BOB)  # the next render shows the committed move
    await service.act(s.id, BOB, "play:0", version=again.version)
    await store.close()


# --- automatic players --------------------------------------------------------------
async def test_automatic_seats_play_until_a_person_must_act(service):
    s = await lobby(service, players=(), bots=2)
    res = await service.start(s.id, ANN)
    assert to_act(res.session)[0] == str(ANN)
    res = await service.act(s.id, ANN, "play:0", version=res.session.version)
    assert [e.text.split()[0] for e in res.events] == ["⟨10⟩", "⟨bot-1⟩", "⟨bot-2⟩"]
    log = await service.recent_log(s.id)
    assert [e.player_id for e in log] == [str(ANN), str(ANN), "bot-1", "bot-2"]
    assert [e.version for e in log] == list(range(log[0].version, log[0].version + 4))
    assert res.session.version == log[-1].version


async def test_automatic_choices_are_deterministic(tmp_path, clock):
    texts = []
    for run in range(2):
        store = await Store.open(tmp_path / f"{run}.db")
        service = SessionService(store, clock=clock, seed_source=lambda: 99)
        s = await lobby(service, players=(), bots=3)
        res = await service.start(s.id, ANN)
        res = await play_out(service, res.session)
        texts.append([e.text for e in await service.recent_log(s.id, 100)])
        await store.close()
    assert texts[0] == texts[1]


async def test_hand_to_auto_and_leave_game(service):
    s = (await service.start((await lobby(service, players=(BOB, CID))).id, ANN)).session
    with pytest.raises(ServiceError, match="Only the host"):
        await service.hand_to_auto(s.id, str(ANN), BOB)
    res = await service.hand_to_auto(s.id, str(ANN), BOB, can_manage=True)
    assert res.events[0].kind == "seat_auto" and res.events[1].text.startswith("⟨10⟩ plays")
    assert res.session.seat(str(ANN)).auto and to_act(res.session)[0] == str(BOB)
    with pytest.raises(ServiceError, match="automatic player has your seat"):
        await service.act(s.id, ANN, "play:0", version=None)
    back = await service.take_back_seat(s.id, ANN)
    assert back.events[0].kind == "seat_back" and not back.session.seat(str(ANN)).auto
    with pytest.raises(ServiceError, match="already playing"):
        await service.take_back_seat(s.id, ANN)
    await service.hand_to_auto(s.id, str(ANN), ANN)
    res = await service.leave_game(s.id, BOB)
    assert res.events[0].kind == "left" and res.session.status == "active"
    assert to_act(res.session)[0] == str(CID)
    res = await service.leave_game(s.id, CID)  # the last person leaves
    assert res.session.status == "abandoned" and res.session.deadline is None
    assert await service.sessions_of_user(CID) == []


async def test_leave_game_in_a_lobby_leaves_the_lobby(service):
    s = await lobby(service)
    res = await service.leave_game(s.id, BOB)
    assert [x.user_id for x in res.session.seats] == [ANN]


# --- turn timers --------------------------------------------------------------------
async def test_default_turn_timers_and_choices(service):
    assert ("0", "Off") in TURN_TIMER_CHOICES and SessionService.TURN_TIMER_CHOICES
    solo = await lobby(service, game_id="test-solo-card", players=())
    assert solo.options["turn_timer"] == "0"
    res = await service.start(solo.id, ANN)
    assert res.session.deadline is None and await service.next_deadline() is None


async def test_reminder_then_timeout_then_restart(tmp_path, clock):
    path = tmp_path / "p.db"
    store = await Store.open(path)
    service = SessionService(store, clock=clock, seed_source=lambda: 3)
    s = (await service.start((await lobby(service, bots=1)).id, ANN)).session
    assert s.deadline == clock.now + 300 and s.remind_at == s.deadline - 75
    assert await service.next_deadline() == s.remind_at
    assert await service.due_reminders() == []
    clock.now += 230
    due = await service.due_reminders()
    assert [d.id for d in due] == [s.id]
    await service.mark_reminded(s.id)
    assert await service.due_reminders() == []
    assert await service.next_deadline() == s.deadline
    assert await service.expire_turns() == []  # not yet
    await store.close()

    # A restart: the deadline was stored.
    store = await Store.open(path)
    service = SessionService(store, clock=clock)
    clock.now = s.deadline + 1
    [res] = await service.expire_turns()
    assert res.timed_out == [str(ANN)]
    assert res.events[0].kind == "timeout" and "⟨10⟩" in res.events[0].text
    assert res.events[1].text.startswith("⟨10⟩ plays")
    assert to_act(res.session)[0] == str(BOB)
    assert res.session.deadline == clock.now + 300 and not res.session.reminded
    log = await service.recent_log(s.id)
    assert log[-1].events[0].kind == "timeout"
    assert await service.expire_turns() == []  # handled once
    await store.close()


async def test_a_timed_out_solo_person_keeps_the_seat(service, clock):
    s = await lobby(service, players=(), bots=1, turn_timer="60")
    s = (await service.start(s.id, ANN)).session
    clock.now = s.deadline
    [res] = await service.expire_turns()
    assert not res.session.seat(str(ANN)).auto
    assert to_act(res.session)[0] == str(ANN)  # the bot played too; back to the person
    assert [e.kind for e in res.events] == ["timeout", "card_played", "card_played"]


async def test_the_deadline_stays_within_one_turn_and_phases_set_their_own(service, clock):
    s = (await service.start((await lobby(service)).id, ANN)).session
    clock.now += 100
    res = await service.act(s.id, ANN, "cheer", version=None, text="hi")
    assert res.session.deadline == s.deadline  # cheering does not buy time
    res = await service.act(s.id, ANN, "play:0", version=None)
    assert res.session.deadline == clock.now + 300
    quick = await lobby(service, game_id="test-quick-card", channel=CHANNEL + 1)
    res = await service.start(quick.id, ANN)
    assert res.session.deadline == clock.now + 30 and res.session.remind_at == clock.now + 22.5


async def test_timer_off_means_no_deadline(service):
    s = await lobby(service, turn_timer="0")
    res = await service.start(s.id, ANN)
    assert res.session.deadline is None and res.session.turn_timer == 0


# --- messages, queries, stats --------------------------------------------------------
async def test_message_ids_and_flags_survive(service):
    s = (await service.start((await lobby(service)).id, ANN)).session
    await service.set_table_message(s.id, 77, 7000)
    await service.set_dm_message(s.id, str(BOB), 88, 8000)
    await service.mark_dm_blocked(s.id, str(BOB), True)
    res = await service.act(s.id, ANN, "play:0", version=None)
    again = await service.get(s.id)
    assert (again.table_channel_id, again.table_message_id) == (77, 7000)
    assert again.seat(str(BOB)).dm_blocked and res.session.seat(str(BOB)).dm_blocked
    assert await service.dm_message(s.id, str(BOB)) == (88, 8000)
    assert await service.dm_message(s.id, str(ANN)) is None
    assert [x.id for x in await service.sessions_of_user(BOB)] == [s.id]
    assert (await service.active_in_channel(CHANNEL)).id == s.id


async def test_stats_count_people_with_tags(service):
    for channel in (CHANNEL, CHANNEL + 1):
        s = await lobby(service, game_id="test-pair-card", players=(BOB,), channel=channel)
        res = await play_out(service, (await service.start(s.id, ANN)).session)
        assert res.result is not None
    bot_game = await lobby(service, game_id="test-pair-card", players=(), bots=1, channel=CHANNEL + 2)
    await play_out(service, (await service.start(bot_game.id, ANN)).session)
    rows = await service.stats(GUILD, "test-pair-card")
    assert {r.user_id for r in rows} == {ANN, BOB}
    ann = next(r for r in rows if r.user_id == ANN)
    assert ann.played == 3 and ann.tags["quest:iron-throne"]["played"] == 3
    assert ann.tags["character:knight"]["played"] == 3  # Ann sits first: the knight
    assert ann.tags["character:knight"]["won"] == ann.won
    assert rows == sorted(rows, key=lambda r: -r.won) and sum(r.played for r in rows) == 5
    with_bots = await service.stats(GUILD, include_bots=True)
    assert any(r.user_id is None and r.name == "Automaton 1" for r in with_bots)
    assert await service.stats(GUILD + 1) == []


# --- the real games -------------------------------------------------------------------
REAL_GAMES = rules.REGISTERED


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_real_games_run_through_the_service(service, game_id):
    """A person (choosing like the automatic player) against automatic seats, through the store."""
    game = rules.GAMES[game_id]
    s = await lobby(service, game_id=game_id, players=(), bots=max(game.min_players, 2) - 1
                    if game.max_players > 1 else 0)
    res = await service.start(s.id, ANN)
    me = str(ANN)
    for step in range(30):
        session = res.session
        if session.status != "active":
            break
        state = session.state()
        assert me in game.to_act(state), "the automatic seats stopped before the person's turn"
        action = game.auto_action(state, me, Rng(seed=1000 + step))
        res = await service.act(s.id, ANN, action.key, version=session.version,
                                text="hello" if action.text_prompt else None)
        stored = await service.get(s.id)
        assert stored.version == res.session.version
        assert stored.state_json == res.session.state_json
        assert [e.version for e in await service.recent_log(s.id, 1)] == [stored.version]
    if res.session.status == "active":
        assert (await service.end(s.id, ANN)).status == "abandoned"
    else:
        assert res.session.status == "finished" and res.result is not None


async def test_the_next_action_reuses_the_state_the_last_one_made(tmp_path, clock, monkeypatch):
    """A table's next click finds the state its last move made (with the actions and views
    worked out for the answer), not a new parse of the saved text."""
    store = await Store.open(tmp_path / "p.db")
    svc = SessionService(store, clock=clock, seed_source=lambda: 1)
    s = (await svc.start((await lobby(svc)).id, ANN)).session
    pid, user = to_act(s)
    made = (await svc.act(s.id, user, first_play(s, pid), version=s.version)).session
    game = made.game()
    parses = []
    real_load = type(game).load_state

    def counted(self, text):
        parses.append(text)
        return real_load(self, text)

    monkeypatch.setattr(type(game), "load_state", counted)
    again = await svc.get(s.id)  # a new Session object read from the database
    assert again is not made and again.state_json == made.state_json
    assert again.state() is made.state() and again.memo() is made.memo()
    assert parses == []
    # the state the move replaced is no longer kept; a text this process never made is parsed
    # (once), and then kept as well
    assert known_memo(game.id, s.state_json) is None
    forget_memos()
    assert (await svc.get(s.id)).state() == made.state()
    assert (await svc.get(s.id)).state() is (await svc.get(s.id)).state()
    assert parses == [made.state_json]
    await store.close()


def test_kept_states_are_bounded(monkeypatch):
    import bot.models as models

    monkeypatch.setattr(models.KEPT, "size", 3)
    forget_memos()
    game = rules.get_game(HighCard.id)
    texts = [game.dump_state(game.setup(["a", "b"], {}, seed)) for seed in range(5)]
    sessions = [Session(id=i, guild_id=None, channel_id=1, game_id=HighCard.id, status="active",
                        host_id=1, options={}, seats=[], state_json=t, version=1, created_at=0,
                        updated_at=0) for i, t in enumerate(texts)]
    for session in sessions:
        session.state()
    assert [models.known_memo(HighCard.id, t) is not None for t in texts] == [False, False, True, True, True]
    forget_memos()


async def test_a_failing_preparation_before_the_save_does_not_lose_the_move(tmp_path, clock):
    store = await Store.open(tmp_path / "p.db")
    svc = SessionService(store, clock=clock, seed_source=lambda: 1)
    s = (await svc.start((await lobby(svc)).id, ANN)).session
    seen = []

    def broken(session):
        seen.append(session.version)
        raise RuntimeError("no pictures today")

    svc.before_save = broken
    pid, user = to_act(s)
    res = await svc.act(s.id, user, first_play(s, pid), version=s.version)
    assert seen == [s.version + 1] and (await svc.get(s.id)).version == s.version + 1
    assert res.session.state_json == (await svc.get(s.id)).state_json
    await store.close()


async def test_a_move_is_found_among_the_actions_already_worked_out(tmp_path, clock, monkeypatch):
    """A click's move is looked up among the mover's legal actions the answer before already
    built (the rules' `offer_to_auto`), not among a second set built by `apply`."""
    store = await Store.open(tmp_path / "p.db")
    svc = SessionService(store, clock=clock, seed_source=lambda: 1)
    s = (await svc.start((await lobby(svc, "gods-of-magic", players=(BOB,))).id, ANN)).session
    game = s.game()
    for _ in range(6):
        loaded = await svc.get(s.id)
        old = loaded.state()
        pid, user = to_act(loaded)
        key = game.auto_action(old, pid, Rng(seed=loaded.version)).key
        game._offered = None  # what the automatic choice just offered does not count
        loaded.legal_actions(pid)  # the table's buttons were built from these
        built: list[tuple[bool, str]] = []
        real = type(game).legal_actions

        def counted(self, state, player, _real=real, _old=old, _built=built):
            _built.append((state is _old, player))
            return _real(self, state, player)

        monkeypatch.setattr(type(game), "legal_actions", counted)
        s = (await svc.act(s.id, user, key, version=loaded.version, loaded=loaded)).session
        monkeypatch.setattr(type(game), "legal_actions", real)
        assert (True, pid) not in built  # the mover's actions on the old state: not built again
    await store.close()


def test_kept_states_follow_the_setting(monkeypatch):
    import bot.models as models
    from bot.config import Settings

    assert Settings(_env_file=None).kept_states == 256
    monkeypatch.setenv("KEPT_STATES", "0")
    assert Settings(_env_file=None).kept_states == 0
    monkeypatch.setenv("KEPT_STATES", "-1")
    with pytest.raises(ValueError):
        Settings(_env_file=None)
    game = rules.get_game(HighCard.id)
    texts = [game.dump_state(game.setup(["a", "b"], {}, seed)) for seed in range(3)]
    sessions = [Session(id=i, guild_id=None, channel_id=1, game_id=HighCard.id, status="active",
                        host_id=1, options={}, seats=[], state_json=t, version=1, created_at=0,
                        updated_at=0) for i, t in enumerate(texts)]
    monkeypatch.setattr(models.KEPT, "size", models.KEPT.size)  # restored after the test
    for session in sessions:
        session.state()
    models.keep_states(1)  # fewer: the oldest go at once
    assert [models.known_memo(HighCard.id, t) is not None for t in texts] == [False, False, True]
    models.keep_states(0)
    assert models.known_memo(HighCard.id, texts[2]) is None
    sessions[0]._state = None
    sessions[0].state()  # parsed, not kept
    assert models.known_memo(HighCard.id, texts[0]) is None
