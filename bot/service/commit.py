"""The commit: automatic seats play, timers are set, and state, seats, log, results and records are
written in one transaction."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from bot.models import (
    AWAY_OPEN,
    ActResult,
    RecordRow,
    ResultRow,
    Seat,
    Session,
    shown_events_json,
)
from bot.service.base import (
    REMINDER_EVERY,
    REMINDER_LEAD_MAX,
    Change,
    ServiceBase,
    ServiceError,
    auto_rng,
    log,
)
from bot.store import RecordBusy
from rules.core.game import Action, Event, Result

Committing = Callable[[Session, list[Event]], None]
"""Work on a move worth doing while it is being made durable (`_commit`'s `while_committing`):
called on the event loop with the session as saved and the move's events, once the
compare-and-set has succeeded and before the commit returns (the commit may still fail after it)."""


class CommitService(ServiceBase):
    # --- the commit -----------------------------------------------------------------
    def _run_auto(self, change: Change) -> None:
        """Automatic seats play until a person must act or the game ends: first the reactions
        they want to make while the moment lasts (`Game.auto_reaction`), then the choices the
        game waits for."""
        game = change.game
        for _ in range(max(game.max_steps, 1)):
            assert change.state is not None
            if game.result(change.state) is not None:
                return
            reaction = self._auto_reaction(change)
            if reaction is not None:
                change.auto_played = True
                change.play(*reaction)
                continue
            pid = change.auto_seat_to_act()
            if pid is None:
                return
            rng = auto_rng(change.session.id, change.session.version, pid)
            change.auto_played = True
            change.play(pid, game.auto_action(change.state, pid, rng))
        log.warning("session %s: automatic players stopped after %s steps",
                    change.session.id, game.max_steps)

    @staticmethod
    def _auto_reaction(change: Change) -> tuple[str, Action] | None:
        """The first automatic seat that wants to react now, with its reaction."""
        game, state = change.game, change.state
        assert state is not None
        for pid in game.may_act(state):
            seat = change.session.seat(pid)
            if seat is None or not seat.auto:
                continue
            action = game.auto_reaction(state, pid, auto_rng(change.session.id,
                                                              change.session.version, pid))
            if action is not None:
                return pid, action
        return None

    def _set_timer(self, change: Change, *, force: bool) -> None:
        session, game, state = change.session, change.game, change.state
        assert state is not None
        humans = change.humans_to_act(state)
        allowed = (game.phase_timeout(state) or session.turn_timer) if humans else 0
        waiting = [s for p in humans if (s := session.seat(p)) is not None]
        if waiting and all(s.is_away(change.now) and s.overdue for s in waiting):
            # past its limit, the table waits for them until someone answers its ask, or until
            # the day they said they would be back (then their turn is timed anew: `_expire`)
            back = min(s.away_until or AWAY_OPEN for s in waiting)
            session.deadline = back if back < AWAY_OPEN else None
            session.remind_at, session.reminded = None, False
            return
        if not allowed:
            session.deadline = session.remind_at = None
            session.reminded = False
            return
        if not force and session.deadline is not None and change.old_state is not None \
                and not change.auto_played:
            # The same turn goes on (a composite move, a cheer, one of several players to
            # act finished): the deadline stays, so nobody can stall by acting in place.
            before = set(change.humans_to_act(change.old_state))
            if set(humans) <= before and change.actors <= before and \
                    game.phase_timeout(change.old_state) == game.phase_timeout(state):
                return
        session.deadline = change.now + allowed
        # once a day while the turn waits, and a last time shortly before the deadline; nobody
        # away is reminded (the limit still counts: past it, the others are asked)
        session.remind_at = min(change.now + REMINDER_EVERY,
                                session.deadline - min(allowed / 4, REMINDER_LEAD_MAX))
        # nobody is reminded while away, unless they are back before the reminder is due
        session.reminded = all(s.is_away(session.remind_at) for s in waiting)

    def _changed_choices(self, change: Change) -> tuple[set[str], set[str], list[str]]:
        """The players whose choices (legal actions) changed, and the others, whose private
        view may have changed (compared later, after the answer: `ActResult.changed_players`).
        Only players acting before or after the change can have choices (`Game.acting`). A
        player who moved in it counts as changed even when their choices look the same again
        (Deathly Thrones' "Draw battle cards", Guilty Gods' "Take the hit" in a DM, say): the
        controls they clicked are spent, so a double click, or two of their controls clicked
        at once, moves once.

        The second set: those whose table choices (the actions that are not private) changed,
        or who moved from the table. A private step that changes nothing the table shows
        (`_table_same`) leaves the mover's table controls current: the table is not redrawn,
        and a table control clicked with it (Gods of Magic's Skip beside a card picked in the
        DM) is a move of its own, as the player meant it."""
        game, old, new = change.game, change.old_memo, change.session
        assert change.state is not None and new.state() is change.state
        acting = set(game.acting(change.state)) | (set(game.acting(old.state)) if old is not None else set())
        choices, table, others = set(), set(), []
        for seat in new.seats:
            pid = seat.player_id
            if old is None or pid in change.actors or \
                    (pid in acting and old.legal_actions(pid) != new.legal_actions(pid)):
                choices.add(pid)
                if old is None or pid in change.table_actors or not game.has_private_view or \
                        _public(old.legal_actions(pid)) != _public(new.legal_actions(pid)):
                    table.add(pid)
            else:
                others.append(pid)
        return choices, table, others

    @staticmethod
    def _table_same(change: Change, table_choices: set[str], public: list[Event]) -> bool:
        """The table reads as before the change: no public event, and nothing it shows moved
        (a card picked in a DM). Decided from what is stored, not from what this process last
        drew, so that neither a restarted process nor another one edits the table for a private
        step: an edit would tell everybody watching that a step was made."""
        old, session, game = change.old_memo, change.session, change.game
        if public or table_choices or old is None or not game.has_private_view:
            return False
        state = change.state
        assert state is not None
        if (session.status, session.deadline, session.table_events) != change.old_table \
                or session.status != "active" or game.result(state) is not None:
            return False
        if [_shown_seat(s) for s in session.seats] != [_shown_seat(s) for s in change.old_seats]:
            return False
        return game.to_act(old.state) == game.to_act(state) and old.view(None) == session.memo().view(None)

    def _result_rows(self, session: Session, result: Result, now: float) -> list[ResultRow]:
        pids = {s.player_id for s in session.seats}
        common = {k: v for k, v in result.tags.items() if k.split(".", 1)[0] not in pids}
        rows = []
        for seat in session.seats:
            prefix = seat.player_id + "."
            tags = dict(common)
            tags.update({k[len(prefix):]: v for k, v in result.tags.items() if k.startswith(prefix)})
            rows.append(ResultRow(
                session_id=session.id, guild_id=session.guild_id, game_id=session.game_id,
                position=seat.position, player_id=seat.player_id, user_id=seat.user_id,
                name=seat.name, won=seat.player_id in result.winners,
                score=result.scores.get(seat.player_id), tags=tags, finished_at=now))
        return rows

    async def _commit(self, change: Change, *, timed_out: list[str] | None = None,
                      force_timer: bool = False, while_committing: Committing | None = None) -> ActResult:
        """Automatic seats play, then the state, seats, log and results are written at once."""
        session, game = change.session, change.game
        result: Result | None = None
        if not any(s.user_id is not None and not s.auto for s in session.seats):
            session.status = "abandoned"  # nobody is left to play for
            change.record(None, "abandon", [Event(kind="abandoned",
                                                  text="No player is left: the game is abandoned.")])
        else:
            self._run_auto(change)
            assert change.state is not None
            result = game.result(change.state)
        session.set_state(change.state)
        results: list[ResultRow] = []
        kept: list[RecordRow] = []
        if result is not None:
            session.status = "finished"
            results = self._result_rows(session, result, change.now)
            assert change.state is not None
            kept = self.records.take_out(session, change.state, change.now)
            change.events.append(Event(kind="game_over", text=result.summary,
                                       data={"winners": result.winners}))
            if change.log:
                change.log[-1].events.append(change.events[-1])
        if session.status == "active":
            self._set_timer(change, force=force_timer)
        else:
            session.deadline = session.remind_at = None
            session.reminded = False
        choices, table_choices, others = self._changed_choices(change)
        public = [e for e in change.events if e.visible_for(None)]
        table_same = self._table_same(change, table_choices, public)
        if not table_same:  # the table is drawn anew: what its movers saw on it is spent too
            table_choices |= change.actors
        for seat in session.seats:  # their controls rendered before now no longer mean the same
            if seat.player_id in choices:
                seat.actions_version = session.version
            if seat.player_id in table_choices:
                seat.table_version = session.version
        if public:  # what the table shows from now on (a private step keeps what it showed)
            session.table_events = shown_events_json(public)
        before = set(game.to_act(change.old_state)) if change.old_state is not None else set()
        newly = [p for p in change.humans_to_act(change.state) if p not in before] \
            if session.status == "active" else []
        if self.before_save is not None and session.state_json is not None:
            try:
                self.before_save(session)
            except Exception:  # noqa: BLE001 - a picture drawn early is a nicety: the move goes on
                log.exception("Preparing session %s before its save failed", session.id)
        # a starting game takes the records its seats bring (Records.bring), in this transaction
        holds = self.records.start_holds(session, change.now) if change.old_state is None else []
        try:
            await self._save(session, change.base_version, old_seats=change.old_seats,
                             log_rows=change.log, results=results, records=kept, holds=holds,
                             on_commit=partial(while_committing, session, change.events) if while_committing else None)
        except RecordBusy as exc:  # another table took one first, or it was retired: nothing written
            raise ServiceError(await self.records.busy_text(session, exc, starting=True)) from None
        return ActResult(session=session, events=change.events,
                         choices_changed=[s.player_id for s in session.seats if s.player_id in choices],
                         view_candidates=others, old=change.old_memo,
                         result=result, timed_out=timed_out or [], newly_to_act=newly,
                         table_same=table_same)


def _public(actions: list[Action]) -> list[Action]:
    """The actions the table offers (the others are private steps, shown only to their player)."""
    return [a for a in actions if not a.private]


def _shown_seat(seat: Seat) -> tuple:
    """What the table shows of a seat (its versions only tell which controls are current)."""
    return seat.player_id, seat.name, seat.user_id, seat.auto, seat.dm_blocked
