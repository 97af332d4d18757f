"""The lobby: opening a table, seats, options, records to bring, cancelling."""

from __future__ import annotations

from collections.abc import Callable

from bot.models import (
    TURN_TIMER_CHOICES,
    Invite,
    RecordRow,
    Rematch,
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


class RecordTaken(ServiceError):
    """A record the change would hold is held by another table (the answer says where)."""


class LobbyService(ServiceBase):
    # --- lobby ------------------------------------------------------------------
    async def open_lobby(self, *, guild_id: int | None, channel_id: int, game_id: str,
                         host_id: int, host_name: str,
                         options: dict[str, str] | None = None, rematch: str | None = None) -> Session:
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
            updated_at=now, rematch=rematch,
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
                raise RecordTaken(await self.records.busy_text(session, exc, starting=False)) from None
            return session

    async def join(self, session_id: int, user_id: int, name: str) -> Session:
        """A person takes a seat. Invited back by "Play again", they bring what their seat
        brought last time (when it is still theirs to bring; else the latest, as anyone)."""
        brought = await self._brought_back(session_id, user_id)

        def change(s: Session, game: Game) -> None:
            if s.seat_of_user(user_id) is not None:
                raise ServiceError("You are already at this table.")
            if len(s.seats) >= game.max_players:
                raise ServiceError(f"The table is full ({count(game.max_players, 'seat')}).")
            shown = shown_name(name, f"Player {len(s.seats) + 1}")  # a name that shows nothing
            s.seats.append(Seat(position=len(s.seats), player_id=str(user_id), name=shown,
                                user_id=user_id, record=brought))
            _in_old_order(s)
        if not brought:
            return await self._lobby_change(session_id, change)
        try:
            return await self._lobby_change(session_id, change, holds=lambda s: self.records.hold_choice(
                s, user_id, (brought or "").split("\n")))
        except RecordTaken:
            brought = None  # taken by another table meanwhile: the latest, as for anyone
            return await self._lobby_change(session_id, change)

    async def _brought_back(self, session_id: int, user_id: int) -> str | None:
        """The records a person invited back chose last time, if they can bring them now."""
        session = await self.get(session_id)
        rematch = session.rematch_of()
        invite = next((p for p in rematch.people if p.user_id == user_id), None) if rematch else None
        if invite is None or not invite.record or session.status != "lobby":
            return None
        try:
            await self.records.check_choice(session, user_id, invite.record.split("\n"))
        except RecordError:
            return None  # retired or at another table since: the latest, as for anyone
        return invite.record

    async def rematch(self, old_id: int, user_id: int, name: str, *, can_manage: bool = False) -> Session:
        """"Play again" at a finished table: a new lobby in its channel with the same game,
        options and automatic seats; the one who pressed it is seated (bringing what they
        brought), the others are invited back (one Join each)."""
        old = await self.get(old_id)
        if old.status not in ("finished", "abandoned") or old.state_json is None:
            raise ServiceError("This game is not over yet.")
        mine = old.seat_of_user(user_id)
        if mine is None and not can_manage:
            raise ServiceError("Only the players of this game (or a moderator) can start it again.")
        # a seat's named records come again; "a new one" (made in that game, now the person's
        # latest) or no choice: the latest (None)
        people = [Invite(user_id=s.user_id, record=s.record or None)
                  for s in old.seats if s.user_id is not None and s.user_id != user_id]
        session = await self.open_lobby(guild_id=old.guild_id, channel_id=old.channel_id,
                                        game_id=old.game_id, host_id=user_id, host_name=name,
                                        options=_options_again(old),
                                        rematch=Rematch(of=old.id, people=people, order=[
                                            s.user_id for s in old.seats]).model_dump_json())
        for _ in [s for s in old.seats if s.user_id is None]:
            session = await self.add_bot(session.id, user_id)
        if mine is not None and mine.record:
            try:
                session = await self.choose_record(session.id, user_id, mine.record.split("\n"))
            except ServiceError:
                pass  # retired or at another table since: the latest, as for anyone
        return session

    async def swap_seats(self, session_id: int, by_user_id: int) -> Session:
        """Host only, two seats: who plays first changes (a rematch with the seats swapped)."""
        def change(s: Session, game: Game) -> None:
            self.require_host(s, by_user_id, what="swap the seats")
            if len(s.seats) != 2:
                raise ServiceError("Seats can be swapped only when exactly two are taken.")
            s.seats.reverse()
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
            _in_old_order(s)
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


def _options_again(old: Session) -> dict[str, str]:
    """The finished game's options, or (when the content changed since and one no longer fits)
    the game's defaults with the same turn timer."""
    game = old.game()
    options = {k: v for k, v in old.game_options.items() if any(o.key == k for o in game.options)}
    try:
        check_startable(game, game.resolve_options(options))
    except (IllegalAction, ServiceError):
        options = {}
    timer = old.options.get("turn_timer", "0")
    if timer not in dict(TURN_TIMER_CHOICES):
        timer = default_turn_timer(game)
    return {**options, "turn_timer": timer}


def _in_old_order(session: Session) -> None:
    """A "Play again" lobby keeps the finished game's seat order as its people come back."""
    rematch = session.rematch_of()
    if rematch is not None:
        session.seats = rematch.rank(session.seats)
