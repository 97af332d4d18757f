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
from bot.store import ChannelBusy, RecordBusy
from bot.store.base import Statement
from rules import GAMES, get_game
from rules.core.game import Game, IllegalAction
from rules.core.text import count, shown_name


def refuse_simulation_option(game: Game, key: str) -> None:
    """ServiceError naming `key` when the game accepts it for simulations only (a table that
    took it could not start, or would play what no menu shows)."""
    if key in game.simulation_options:
        known = ", ".join([o.key for o in game.options] + ["turn_timer"])
        raise ServiceError(f"`{key}` is an option for simulations only (`python -m rules.simulate`); "
                           f"a table cannot use it. {game.name}'s options: {known}.")


def check_startable(game: Game, options: dict[str, str], label: str | None = None) -> None:
    """ServiceError when the game could not start with these options at any number of seats it
    allows (tried on a throwaway seed, with no records brought), so that a
    lobby never holds options its Start would always refuse. `label`: the option just changed,
    named in the answer."""
    reason = None
    for seats in range(game.min_players, game.max_players + 1):
        players = [f"trial-{i}" for i in range(1, seats + 1)]
        try:
            game.check_players(seats)
            game.start(players, options, 0)
        except IllegalAction as exc:
            reason = reason or exc.message
            continue
        return
    what = f"{label} cannot be set so" if label else f"{game.name} cannot start with these options"
    raise ServiceError(f"{what}: {reason or 'no number of seats fits'}")


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
        for key in opts:
            refuse_simulation_option(game, key)
        try:
            resolved = game.resolve_options(opts)
        except IllegalAction as exc:
            raise ServiceError(exc.message) from None
        check_startable(game, resolved)
        resolved["turn_timer"] = timer
        now = self.clock()
        session = Session(
            id=0, guild_id=guild_id, channel_id=channel_id, game_id=game_id, status="lobby",
            host_id=host_id, options=resolved, state_json=None, version=1, created_at=now,
            updated_at=now,
            seats=[Seat(position=0, player_id=str(host_id), name=shown_name(host_name, "Player 1"),
                        user_id=host_id)],
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

    async def _lobby_change(self, session_id: int, change: Callable[[Session, Game], None], *,
                            holds: Callable[[Session], list[Statement]] | None = None) -> Session:
        """`holds`: the records the change takes or gives back (saved with it; one another table
        holds refuses the change, saying where)."""
        async with self._locked(session_id):
            session = await self.get(session_id)
            self._require_lobby(session)
            expected = session.version
            change(session, session.game())
            for i, seat in enumerate(session.seats):
                seat.position = i
            session.version += 1
            try:
                await self._save(session, expected, holds=holds(session) if holds else ())
            except RecordBusy as exc:
                raise ServiceError(await self.records.busy_text(session, exc, starting=False)) from None
            return session

    async def join(self, session_id: int, user_id: int, name: str) -> Session:
        def change(s: Session, game: Game) -> None:
            if s.seat_of_user(user_id) is not None:
                raise ServiceError("You are already at this table.")
            if len(s.seats) >= game.max_players:
                raise ServiceError(f"The table is full ({count(game.max_players, 'seat')}).")
            shown = shown_name(name, f"Player {len(s.seats) + 1}")  # a name that shows nothing
            s.seats.append(Seat(position=len(s.seats), player_id=str(user_id), name=shown,
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
        return await self._lobby_change(session_id, change, holds=lambda s: self._give_back(s, user_id))

    def _give_back(self, session: Session, user_id: int) -> list[Statement]:
        """A person leaving a lobby gives back the records it held for them."""
        if session.game().record_type is None:
            return []
        return self.records.hold_choice(session, user_id, [])

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
            refuse_simulation_option(game, key)
            spec = next((o for o in game.options if o.key == key), None)
            if spec is None:
                known = ", ".join([o.key for o in game.options] + ["turn_timer"])
                raise ServiceError(f"{game.name} has no option `{key}` (options: {known}).")
            try:
                chosen = spec.validate_value(str(value))
            except IllegalAction as exc:
                raise ServiceError(exc.message) from None
            check_startable(game, {**s.game_options, key: chosen}, spec.label)
            s.options[key] = chosen
        return await self._lobby_change(session_id, change)

    async def choose_record(self, session_id: int, user_id: int, names: list[str]) -> Session:
        """In the lobby, a person picks the records their seat brings in (none: a new one). The
        lobby holds them from then on (taken in the same transaction as the choice: of two
        lobbies choosing one at once, one holds it and the other is told where it is)."""
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
        return await self._lobby_change(
            session_id, change, holds=lambda s: self.records.hold_choice(s, user_id, names))

    async def records_of(self, guild_id: int | None, user_id: int, game_id: str) -> list[RecordRow]:
        return await self.records.of(guild_id, user_id, get_game(game_id))

    async def cancel(self, session_id: int, by_user_id: int, *, can_manage: bool = False) -> Session:
        """lobby -> abandoned (host or a manager)."""
        def change(s: Session, game: Game) -> None:
            self.require_host(s, by_user_id, can_manage, what="cancel this lobby")
            s.status = "abandoned"
        return await self._lobby_change(session_id, change)

