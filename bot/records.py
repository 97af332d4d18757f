"""Records carried between sessions (a character, a deck choice), for games that keep them.

A game with a `record_type` receives each player's records at the start and hands the updated
records back when it ends (`Game.records_out`). They are kept per server and per person; a seat
brings 1 to `Game.records_per_seat` of its owner's records (`Seat.record`, one name a line).
The session service asks this module what each seat brings in and what to write back, in the
same transaction as the game's last move.
"""

from __future__ import annotations

from pydantic import BaseModel, ValidationError

from bot.models import RecordRow, Session
from bot.store import Store
from rules.core.game import Game, IllegalAction
from rules.core.text import escape_markdown

NAME_MAX = 40
NEW = ""
"""`Seat.record` for "a new one" chosen explicitly (None: no choice, the most recent one)."""


class RecordError(Exception):
    """A record that cannot be used; `.message` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def unique_name(wanted: str, taken: set[str]) -> str:
    """`wanted` (clipped to NAME_MAX), or `wanted 2`, `wanted 3` ... when it is taken."""
    name, n = wanted[:NAME_MAX], 2
    while name in taken:
        name, n = f"{wanted[:NAME_MAX - 4].rstrip()} {n}", n + 1
    return name


NAME_PUNCTUATION = frozenset(" -'.")


def squeeze(name: str) -> str:
    """A typed name, cut (twice the longest name) and with its runs of white space made one."""
    return " ".join(name[:NAME_MAX * 2].split())


def name_from(display_name: str, label: str) -> str:
    """A valid record name (`check_name`'s rules) made from a person's display name, for the
    record the bot makes for them: the characters a name may not hold become spaces, and a
    display name with none left gives the record's label ("Character")."""
    kept = "".join(ch if ch.isalnum() or ch in NAME_PUNCTUATION else " " for ch in display_name[:NAME_MAX * 2])
    return squeeze(kept)[:NAME_MAX].strip() or label.capitalize()


def check_name(name: str, label: str) -> str:
    """A record name a person typed, trimmed: 1-40 letters, digits, spaces, - ' and ."""
    name = squeeze(name)
    if not name:
        raise RecordError(f"Give your {label} a name.")
    if len(name) > NAME_MAX:
        raise RecordError(f"A {label}'s name has at most {NAME_MAX} characters.")
    if not all(ch.isalnum() or ch in NAME_PUNCTUATION for ch in name):
        raise RecordError(f"A {label}'s name uses letters, digits, spaces, hyphens, apostrophes "
                          "and full stops only.")
    return name


class Records:
    """A person's records: what a seat brings, what a finished game hands back, and what
    `/character` does (create, find, retire)."""

    def __init__(self, store: Store):
        self.store = store

    async def of(self, guild_id: int | None, user_id: int, game: Game) -> list[RecordRow]:
        if game.record_type is None or guild_id is None:
            return []
        return await self.store.records_of(guild_id, user_id, game.id)

    async def check_choice(self, session: Session, user_id: int, names: list[str]) -> None:
        """`names` are the person's records (none: a new one), at most the game's number per
        seat, none of them seated in another game."""
        game = session.game()
        if len(names) > game.records_per_seat:
            raise RecordError(f"A seat brings at most {game.records_per_seat} "
                              f"{game.record_label}{'s' * (game.records_per_seat > 1)}.")
        if len(set(names)) != len(names):
            raise RecordError(f"Each {game.record_label} comes once.")
        if not names:
            return
        mine = {r.name for r in await self.of(session.guild_id, user_id, game)}
        missing = [n for n in names if n not in mine]
        if missing:
            raise RecordError(f"You have no {game.record_label} named `{missing[0][:NAME_MAX]}` here.")
        for sid, rec in await self.store.records_in_play(user_id, game.id):
            busy = [n for n in rec.split("\n") if n in names]
            if busy and sid != session.id:
                raise RecordError(f"Your {game.record_label} {busy[0]} is already at another table "
                                  f"(game #{sid}); finish that game first.")

    async def bring(self, session: Session) -> dict[str, list[BaseModel]]:
        """What each seat brings into the game (player id -> records), a new record for a seat
        without one; sets each person's `Seat.record` to the names they will be saved under."""
        game = session.game()
        assert game.record_type is not None
        out: dict[str, list[BaseModel]] = {}
        for seat in session.seats:
            if seat.user_id is None or seat.auto or session.guild_id is None:
                out[seat.player_id] = [game.new_record(seat.name[:NAME_MAX])]
                continue
            rows = await self.of(session.guild_id, seat.user_id, game)
            names = seat.record_names
            if names is None:  # no choice made: the most recently used one
                names = [rows[0].name] if rows else []
            by_name = {r.name: r for r in rows}
            names = [n for n in names if n in by_name]
            if names:
                await self.check_choice(session, seat.user_id, names)
                brought = []
                for name in names:
                    try:
                        brought.append(game.record_type.model_validate_json(by_name[name].data))
                    except ValidationError as exc:
                        raise RecordError(f"{escape_markdown(seat.name)}'s {game.record_label} {name} cannot be "
                                          f"read ({exc.error_count()} problem(s)); choose another.") from None
                out[seat.player_id] = brought
            else:
                names = [unique_name(name_from(seat.name, game.record_label), set(by_name))]
                out[seat.player_id] = [game.new_record(names[0])]
            seat.record = "\n".join(names)
        return out

    # --- /character: create, find, retire -----------------------------------------
    async def create(self, guild_id: int, user_id: int, game: Game, name: str, kind: str | None,
                     now: float) -> tuple[RecordRow, BaseModel]:
        name = check_name(name, game.record_label)
        try:
            record = game.create_record(name, kind)
        except IllegalAction as exc:
            raise RecordError(exc.message) from None
        row = RecordRow(guild_id=guild_id, user_id=user_id, game_id=game.id, name=name,
                        data=record.model_dump_json(), updated_at=now)
        if not await self.store.insert_record(row):
            raise RecordError(f"You already have a {game.record_label} named {name} here.")
        return row, record

    async def find(self, guild_id: int, user_id: int, game: Game, name: str) -> tuple[RecordRow, BaseModel]:
        rows = await self.of(guild_id, user_id, game)
        wanted = squeeze(name)
        row = next((r for r in rows if r.name == wanted), None) \
            or next((r for r in rows if r.name.lower() == wanted.lower()), None)
        if row is None:
            mine = ", ".join(r.name for r in rows[:10]) or "none yet"
            raise RecordError(f"You have no {game.record_label} named `{wanted[:NAME_MAX]}` here "
                              f"(yours: {mine}).")
        assert game.record_type is not None
        try:
            return row, game.record_type.model_validate_json(row.data)
        except ValidationError as exc:
            raise RecordError(f"{row.name} cannot be read ({exc.error_count()} problem(s)).") from None

    async def retire(self, guild_id: int, user_id: int, game: Game, name: str) -> str:
        row, _ = await self.find(guild_id, user_id, game, name)
        for sid, rec in await self.store.records_in_play(user_id, game.id):
            if row.name in rec.split("\n"):
                raise RecordError(f"{row.name} is at a table (game #{sid}); finish or leave that "
                                  "game first.")
        await self.store.delete_record(guild_id, user_id, game.id, row.name)
        return row.name

    @staticmethod
    def take_out(session: Session, state: BaseModel, now: float) -> list[RecordRow]:
        """The records the players' owners keep from a finished game."""
        game = session.game()
        if game.record_type is None or session.guild_id is None:
            return []
        back = game.records_out(state)
        rows = []
        for seat in session.seats:
            names = seat.record_names
            if seat.user_id is None or not names:
                continue
            for name, record in zip(names, back.get(seat.player_id, []), strict=False):
                rows.append(RecordRow(guild_id=session.guild_id, user_id=seat.user_id,
                                      game_id=game.id, name=name,
                                      data=record.model_dump_json(), updated_at=now))
        return rows

