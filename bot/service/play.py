"""Play: starting, acting, handing seats to the automatic player and back, ending."""

from __future__ import annotations

from collections.abc import Callable

from bot.models import (
    AWAY_OPEN,
    ActResult,
    LogEntry,
    Seat,
    Session,
    utc_day,
)
from bot.records import RecordError
from bot.service.base import (
    Change,
    LostRace,
    NotYourTurn,
    ServiceError,
    StaleVersion,
)
from bot.service.commit import CommitService, Committing
from bot.service.lobby import LobbyService
from rules.core.game import Event, IllegalAction, who


class PlayService(LobbyService, CommitService):
    # --- play -------------------------------------------------------------------
    async def start(self, session_id: int, by_user_id: int) -> ActResult:
        async with self._locked(session_id):
            session = await self.get(session_id)
            self._require_lobby(session)
            self.require_host(session, by_user_id, what="start the game")
            game = session.game()
            try:
                game.check_players(len(session.seats))
            except IllegalAction as exc:
                raise ServiceError(exc.message) from None
            seed = int(self.seed_source())
            change = Change(session, self.clock())
            records = None
            if game.record_type is not None:
                try:
                    records = await self.records.bring(session)
                except RecordError as exc:
                    raise ServiceError(exc.message) from None
            opening = game.start([s.player_id for s in session.seats], session.game_options, seed,
                                 records=records)
            change.state = opening.state
            session.set_state(opening.state)
            await self.keep_content(session)  # the content version this game plays with
            session.status = "active"
            names = ", ".join(who(s.player_id) for s in session.seats)
            # the seed fixes every shuffle and roll: it stays inside the state, never in an event
            change.record(str(by_user_id), "start",
                          [Event(kind="start", text=f"{game.name} begins: {names}.",
                                 data={"players": [s.player_id for s in session.seats]}),
                           *opening.events])
            return await self._commit(change)

    async def act(self, session_id: int, user_id: int, action_key: str | list[str], *,
                  version: int | None, text: str | None = None,
                  loaded: Session | None = None, while_committing: Committing | None = None) -> ActResult:
        """A person's action, or several applied together in one commit (a typed `/move`).
        `version` None: not checked (commands). `loaded`: the session as the caller just read
        it (its parsed state and legal actions are used; if somebody committed since, the
        compare-and-set notices and the move is tried once more on what they wrote). Raises
        StaleVersion, NotSeated, NotYourTurn, ServiceError, or the rules' IllegalAction (then
        nothing is written). `while_committing`: see `CommitService._commit` (the Discord layer
        renders its answer then)."""
        keys = [action_key] if isinstance(action_key, str) else list(action_key)
        if not keys:
            raise ServiceError("No move given.")
        async with self._locked(session_id):
            if loaded is not None:
                try:
                    return await self._act_on(loaded, user_id, keys, version, text, while_committing)
                except LostRace:
                    pass
            return await self._act_on(await self.get(session_id), user_id, keys, version, text, while_committing)

    async def _act_on(self, session: Session, user_id: int, keys: list[str], version: int | None,
                      text: str | None, while_committing: Committing | None = None) -> ActResult:
        seat = self._playing_seat(session, user_id)
        if not session.current_for(seat, version, on_table=self._on_table(session, seat, keys[0])):
            raise StaleVersion()
        if seat.auto:
            raise ServiceError("The automatic player has your seat in this game now.")
        change = Change(session, self.clock())
        game, state, pid = change.game, change.state, seat.player_id
        assert state is not None
        if pid not in game.acting(state) and not any(
                a.key == keys[0] for a in session.legal_actions(pid)):
            raise NotYourTurn()
        for i, key in enumerate(keys):
            change.play(pid, key, text=text if i == len(keys) - 1 else None)
        seat.overdue = False  # they are playing: nothing to ask the others any more
        return await self._commit(change, while_committing=while_committing)

    @staticmethod
    def _on_table(session: Session, seat: Seat, key: str) -> bool:
        """The clicked action is one the table offers (not a private step): its control stays
        current while the seat's table choices are unchanged (`Session.current_for`)."""
        if not session.game().has_private_view or session.state_json is None:
            return False  # every choice is on the table: both versions are the same
        found = session.action(seat.player_id, key)
        return found is not None and not found.private  # a key no longer offered: the strict check

    async def hand_to_auto(self, session_id: int, player_id: str, by_user_id: int, *,
                           can_manage: bool = False) -> ActResult:
        """The host (or a manager) gives a seat to the automatic player."""
        async with self._locked(session_id):
            session = await self.get(session_id)
            self._require_active(session)
            seat = session.seat(player_id)
            own = seat is not None and seat.user_id == by_user_id
            if not own:
                self.require_host(session, by_user_id, can_manage,
                                   what="give a seat to the automatic player")
            if seat is None:
                raise ServiceError("There is no such seat in this game.")
            if seat.auto:
                raise ServiceError("The automatic player already has that seat.")
            change = Change(session, self.clock())
            seat.auto = True
            change.record(player_id, "auto", [Event(
                kind="seat_auto", text=f"The automatic player takes over {who(player_id)}'s seat.",
                data={"player": player_id})])
            return await self._commit(change)

    async def leave_game(self, session_id: int, user_id: int) -> ActResult:
        """The seat becomes automatic; if no person is left playing, the game is abandoned.
        In a lobby this is `leave_lobby`."""
        session = await self.get(session_id)
        if session.status == "lobby":
            left = await self.leave_lobby(session_id, user_id)
            return ActResult(session=left, events=[])
        return await self._set_auto(
            session_id, user_id, True, refused="You have already left this game.", key="leave",
            kind="left", text="{who} leaves; the automatic player takes the seat.")

    async def take_back_seat(self, session_id: int, user_id: int) -> ActResult:
        """A person takes their seat back from the automatic player (after `leave_game` or a
        hand-over by the host)."""
        return await self._set_auto(
            session_id, user_id, False, refused="You are already playing this seat.", key="back",
            kind="seat_back", text="{who} takes their seat back.")

    async def _set_auto(self, session_id: int, user_id: int, auto: bool, *, refused: str, key: str,
                        kind: str, text: str) -> ActResult:
        """A person gives their seat to the automatic player (auto=True) or takes it back."""
        async with self._locked(session_id):
            session = await self.get(session_id)
            seat = self._playing_seat(session, user_id)
            if seat.auto == auto:
                raise ServiceError(refused)
            change = Change(session, self.clock())
            seat.auto = auto
            change.record(seat.player_id, key, [Event(
                kind=kind, text=text.format(who=who(seat.player_id)), data={"player": seat.player_id})])
            return await self._commit(change)

    # --- away: games played over days ---------------------------------------------------
    async def set_away(self, user_id: int, until: float | None) -> list[ActResult]:
        """`/game away`: in every game the person plays, the table waits for them (no automatic
        player, no reminders) until `until` (None: until `come_back`)."""
        now = self.clock()
        if until is not None and until <= now:
            raise ServiceError("That date has passed already.")
        said = f"until {utc_day(until)}" if until is not None else "until they are back"
        return await self._each_game(user_id, lambda seat: seat.away_until != (until or AWAY_OPEN),
                                     away=until or AWAY_OPEN, kind="away",
                                     text="{who} is away " + said + ": the table waits for them.")

    async def come_back(self, user_id: int) -> list[ActResult]:
        """`/game back`: the person is no longer away, in every game (their turns are timed again
        from now)."""
        now = self.clock()
        return await self._each_game(user_id, lambda seat: seat.is_away(now) or seat.overdue,
                                     away=None, kind="back", text="{who} is back.")

    async def _each_game(self, user_id: int, applies: Callable[[Seat], bool], *, away: float | None,
                         kind: str, text: str) -> list[ActResult]:
        out = []
        for listed in await self.store.active_of_user(user_id):
            async with self._locked(listed.id):
                session = await self.get(listed.id)
                seat = session.seat_of_user(user_id)
                if session.status != "active" or seat is None or not applies(seat):
                    continue
                change = Change(session, self.clock())
                if away is None and seat.overdue and seat.auto:  # covered while away: theirs again
                    seat.auto = False
                # a seat covered while away stays marked, so that coming back gives it back
                seat.away_until, seat.overdue = away, seat.overdue and seat.auto and away is not None
                change.record(seat.player_id, kind, [Event(
                    kind=kind, text=text.format(who=who(seat.player_id)), data={"player": seat.player_id})])
                # the turn's deadline stays (going away and back does not buy time); a seat
                # taken back, or a turn that waited past its limit, is timed anew
                out.append(await self._commit(change))
        return out

    async def cover_away(self, session_id: int, by_user_id: int, *, can_manage: bool = False) -> ActResult:
        """The table's answer to its ask: the automatic player takes the seats of the people away
        whose turn waited past the time limit. Any other person playing (or a manager) may."""
        async with self._locked(session_id):
            session = await self.get(session_id)
            self._require_active(session)
            mine = session.seat_of_user(by_user_id)
            now = self.clock()
            if not can_manage and (mine is None or mine.auto or mine.is_away(now)):
                raise ServiceError("Only the other players at this table (or a moderator) can do that.")
            overdue = [s for s in session.seats if s.overdue and s.is_away(now) and not s.auto]
            if not overdue:
                raise ServiceError("Nobody away is keeping this table waiting now.")
            change = Change(session, now)
            for seat in overdue:
                seat.auto = True  # still overdue: `come_back` gives the seat back
                change.record(seat.player_id, "auto", [Event(
                    kind="seat_auto", data={"player": seat.player_id},
                    text=f"The automatic player takes over {who(seat.player_id)}'s seat while they are away.")])
            return await self._commit(change, force_timer=True)

    async def end(self, session_id: int, by_user_id: int, *, can_manage: bool = False) -> Session:
        """Host or manager: a lobby or active game -> abandoned."""
        async with self._locked(session_id):
            session = await self.get(session_id)
            if session.status not in ("lobby", "active"):
                raise ServiceError("This game has already ended.")
            self.require_host(session, by_user_id, can_manage, what="end this game")
            expected = session.version
            session.status = "abandoned"
            session.deadline = session.remind_at = None
            session.reminded = False
            session.version += 1
            rows = [LogEntry(version=session.version, player_id=str(by_user_id), action_key="end",
                             events=[Event(kind="ended", text="The game was ended.")],
                             at=self.clock())]
            await self._save(session, expected, seats=False, log_rows=rows)
            return session

