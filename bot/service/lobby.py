"""The lobby: opening a table, seats, options, records to bring, cancelling."""

from __future__ import annotations

from collections.abc import Callable

from bot.models import (
    TURN_TIMER_CHOICES,
    RecordRow,
    Seat,
    Session,
)
from bot.records import RecordError
from bot.service.base import (
    NotSeated,
    ServiceBase,
    ServiceError,
    default_turn_timer,
)
from bot.store import ChannelBusy
from rules import GAMES, get_game
from rules.core.game import Game, IllegalAction
from rules.core.text import count


class LobbyService(ServiceBase):
    # --- lobby ------------------------------------------------------------------
    async def open_lobby(self, *, guild_id: int | None, channel_id: int, game_id: str,
                         host_id: int, host_name: str,
                         options: dict[str, str] | None = None) -> Session:
        try:
            game = get_game(game_id)
        except KeyError:
            installed = ", ".join(sorted(GAMES)) or "none"
            shown = game_id[:40].replace("`", "'")
            raise ServiceError(f"Unknown game `{shown}`. Installed: {installed}.") from None
        existing = await self.store.open_in_channel(channel_id)
        if existing is not None:
            raise self._busy(existing)
        opts = {k: str(v) for k, v in (options or {}).items()}
        timer = self._check_timer(opts.pop("turn_timer", default_turn_timer(game)))
        try:
            resolved = game.resolve_options(opts)
        except IllegalAction as exc:
            raise ServiceError(exc.message) from None
        resolved["turn_timer"] = timer
        now = self.clock()
        session = Session(
            id=0, guild_id=guild_id, channel_id=channel_id, game_id=game_id, status="lobby",
            host_id=host_id, options=resolved, state_json=None, version=1, created_at=now,
            updated_at=now,
            seats=[Seat(position=0, player_id=str(host_id), name=host_name, user_id=host_id)],
        )
        try:
            session.id = await self.store.insert_session(session)
        except ChannelBusy:
            existing = await self.store.open_in_channel(channel_id)
            raise self._busy(existing) if existing else ServiceError(
                "A game is already open here.") from None
        return session

    @staticmethod
    def _check_timer(value: str) -> str:
        value = str(value)
        allowed = [v for v, _ in TURN_TIMER_CHOICES]
        if value not in allowed:
            raise ServiceError(f"`{value}` is not a choice for the turn timer: use one of "
                               f"{', '.join(allowed)} (seconds).")
        return value

    async def _lobby_change(self, session_id: int,
                            change: Callable[[Session, Game], None]) -> Session:
        async with self._locked(session_id):
            session = await self.get(session_id)
            self._require_lobby(session)
            expected = session.version
            change(session, session.game())
            for i, seat in enumerate(session.seats):
                seat.position = i
            session.version += 1
            await self._save(session, expected)
            return session

    async def join(self, session_id: int, user_id: int, name: str) -> Session:
        def change(s: Session, game: Game) -> None:
            if s.seat_of_user(user_id) is not None:
                raise ServiceError("You are already at this table.")
            if len(s.seats) >= game.max_players:
                raise ServiceError(f"The table is full ({count(game.max_players, 'seat')}).")
            s.seats.append(Seat(position=len(s.seats), player_id=str(user_id), name=name,
                                user_id=user_id))
        return await self._lobby_change(session_id, change)

    async def leave_lobby(self, session_id: int, user_id: int) -> Session:
        """The host leaving hands the host to the next person, or cancels when none is left."""
        def change(s: Session, game: Game) -> None:
            seat = s.seat_of_user(user_id)
            if seat is None:
                raise NotSeated("You are not at this table.")
            s.seats.remove(seat)
            people = [x for x in s.seats if x.user_id is not None]
            if not people:
                s.status = "abandoned"
            elif user_id == s.host_id:
                s.host_id = people[0].user_id  # type: ignore[assignment]
        return await self._lobby_change(session_id, change)

    async def add_bot(self, session_id: int, by_user_id: int) -> Session:
        def change(s: Session, game: Game) -> None:
            self.require_host(s, by_user_id, what="add an automatic player")
            if len(s.seats) >= game.max_players:
                raise ServiceError(f"The table is full ({count(game.max_players, 'seat')}).")
            used = {x.player_id for x in s.seats}
            n = next(i for i in range(1, len(used) + 2) if f"bot-{i}" not in used)
            s.seats.append(Seat(position=len(s.seats), player_id=f"bot-{n}", name=f"Automaton {n}",
                                user_id=None, auto=True))
        return await self._lobby_change(session_id, change)

    async def remove_bot(self, session_id: int, player_id: str, by_user_id: int) -> Session:
        """Host only: take an automatic seat away from the lobby."""
        def change(s: Session, game: Game) -> None:
            self.require_host(s, by_user_id, what="remove an automatic player")
            seat = s.seat(player_id)
            if seat is None or seat.user_id is not None:
                raise ServiceError("There is no such automatic player at this table.")
            s.seats.remove(seat)
        return await self._lobby_change(session_id, change)

    async def set_option(self, session_id: int, by_user_id: int, key: str, value: str) -> Session:
        def change(s: Session, game: Game) -> None:
            self.require_host(s, by_user_id, what="change the options")
            if key == "turn_timer":
                s.options[key] = self._check_timer(value)
                return
            spec = next((o for o in game.options if o.key == key), None)
            if spec is None:
                known = ", ".join([o.key for o in game.options] + ["turn_timer"])
                raise ServiceError(f"{game.name} has no option `{key}` (options: {known}).")
            try:
                s.options[key] = spec.validate_value(str(value))
            except IllegalAction as exc:
                raise ServiceError(exc.message) from None
        return await self._lobby_change(session_id, change)

    async def choose_record(self, session_id: int, user_id: int, names: list[str]) -> Session:
        """In the lobby, a person picks the records their seat brings in (none: a new one)."""
        session = await self.get(session_id)
        self._require_lobby(session)
        if session.game().record_type is None:
            raise ServiceError(f"{session.game().name} keeps nothing between games.")
        try:
            await self.records.check_choice(session, user_id, names)
        except RecordError as exc:
            raise ServiceError(exc.message) from None

        def change(s: Session, game: Game) -> None:
            seat = s.seat_of_user(user_id)
            if seat is None:
                raise NotSeated("Join the table first, then choose.")
            seat.record = "\n".join(names)
        return await self._lobby_change(session_id, change)

    async def records_of(self, guild_id: int | None, user_id: int, game_id: str) -> list[RecordRow]:
        return await self.records.of(guild_id, user_id, get_game(game_id))

    async def cancel(self, session_id: int, by_user_id: int, *, can_manage: bool = False) -> Session:
        """lobby -> abandoned (host or a manager)."""
        def change(s: Session, game: Game) -> None:
            self.require_host(s, by_user_id, can_manage, what="cancel this lobby")
            s.status = "abandoned"
        return await self._lobby_change(session_id, change)

