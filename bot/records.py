"""Records carried between sessions (a character, a deck choice), for games that keep them.

A game with a `record_type` receives each player's record at the start and hands the updated
records back when it ends (`Game.records_out`). They are kept per server and per person; the
session service asks this module what each seat brings in and what to write back, in the same
transaction as the game's last move.
"""

from __future__ import annotations

from pydantic import BaseModel, ValidationError

from bot.models import RecordRow, Session
from bot.store import Store
from rules.core.game import Game

NAME_MAX = 40
NEW = ""
"""`Seat.record` for "a new one" chosen explicitly (None: no choice, the most recent one)."""


class RecordError(Exception):
    """A record that cannot be used; `.message` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Records:
    def __init__(self, store: Store):
        self.store = store

    async def of(self, guild_id: int | None, user_id: int, game: Game) -> list[RecordRow]:
        if game.record_type is None or guild_id is None:
            return []
        return await self.store.records_of(guild_id, user_id, game.id)

    async def check_choice(self, session: Session, user_id: int, name: str) -> None:
        """`name` is one of the person's records (or NEW), and not seated in another game."""
        game = session.game()
        if name == NEW:
            return
        mine = {r.name for r in await self.of(session.guild_id, user_id, game)}
        if name not in mine:
            raise RecordError(f"You have no {game.record_label} named `{name[:NAME_MAX]}` here.")
        busy = [sid for sid, rec in await self.store.records_in_play(user_id, game.id)
                if rec == name and sid != session.id]
        if busy:
            raise RecordError(f"Your {game.record_label} {name} is already at another table "
                              f"(game #{busy[0]}); finish that game first.")

    async def bring(self, session: Session) -> dict[str, BaseModel]:
        """What each seat brings into the game (player id -> record), a new record for a seat
        without one; sets each person's `Seat.record` to the name it will be saved under."""
        game = session.game()
        assert game.record_type is not None
        out: dict[str, BaseModel] = {}
        for seat in session.seats:
            if seat.user_id is None or seat.auto or session.guild_id is None:
                out[seat.player_id] = game.new_record(seat.name[:NAME_MAX])
                continue
            rows = await self.of(session.guild_id, seat.user_id, game)
            chosen = next((r for r in rows if r.name == seat.record), None)
            if seat.record is None and rows:
                chosen = rows[0]  # no choice made: the most recently used one
            if chosen is not None:
                await self.check_choice(session, seat.user_id, chosen.name)
                try:
                    out[seat.player_id] = game.record_type.model_validate_json(chosen.data)
                except ValidationError as exc:
                    raise RecordError(f"{seat.name}'s {game.record_label} {chosen.name} cannot be "
                                      f"read ({exc.error_count()} problem(s)); choose another.") from None
                seat.record = chosen.name
                continue
            taken = {r.name for r in rows}
            name, n = seat.name[:NAME_MAX], 2
            while name in taken:
                name, n = f"{seat.name[:NAME_MAX - 4]} {n}", n + 1
            out[seat.player_id] = game.new_record(name)
            seat.record = name
        return out

    @staticmethod
    def take_out(session: Session, state: BaseModel, now: float) -> list[RecordRow]:
        """The records the players' owners keep from a finished game."""
        game = session.game()
        if game.record_type is None or session.guild_id is None:
            return []
        back = game.records_out(state)
        rows = []
        for seat in session.seats:
            record = back.get(seat.player_id)
            if record is None or seat.user_id is None or not seat.record:
                continue
            rows.append(RecordRow(guild_id=session.guild_id, user_id=seat.user_id,
                                  game_id=game.id, name=seat.record,
                                  data=record.model_dump_json(), updated_at=now))
        return rows
