"""Records carried between sessions (a character, a deck choice), for games that keep them.

A game with a `record_type` receives each player's records at the start and hands the updated
records back when it ends (`Game.records_out`). They are kept per server and per person; a seat
brings 1 to `Game.records_per_seat` of its owner's records (`Seat.record`, one name a line).
The session service asks this module what each seat brings in and what to write back, in the
same transaction as the game's last move.

A record sits at one table at a time: the lobby that chose it, or the game that started with it,
holds it (`records.held_by`, taken by a conditional UPDATE in the transaction that saves the
choice or the start: `Store.hold_record`), until the game hands it back or the hold lapses (the
session closed, or its owner left it). A held record cannot be retired, and a game writes back
only the records it holds.
"""

from __future__ import annotations

from typing import NamedTuple

from pydantic import BaseModel, ValidationError

from bot.models import RecordRow, Session
from bot.store import RecordBusy, Store
from bot.store.base import Statement
from rules.core.game import Game, IllegalAction
from rules.core.text import blank, escape_markdown, letter_or_digit, visible

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
    kept = "".join(ch if letter_or_digit(ch) or ch in NAME_PUNCTUATION else " " for ch in display_name[:NAME_MAX * 2])
    return squeeze(kept)[:NAME_MAX].strip() or label.capitalize()


def check_name(name: str, label: str) -> str:
    """A record name a person typed, trimmed: 1-40 letters, digits, spaces, - ' and ."""
    name = squeeze(name)
    if not name:
        raise RecordError(f"Give your {label} a name.")
    if len(name) > NAME_MAX:
        raise RecordError(f"A {label}'s name has at most {NAME_MAX} characters.")
    if not visible(name):
        raise RecordError(f"A {label}'s name needs letters or digits that can be seen: a name of "
                          "blank characters (such as the Hangul filler) shows nothing.")
    if any(blank(ch) for ch in name if ch != " "):
        raise RecordError(f"A {label}'s name may not hold blank or invisible characters (such as "
                          "the Hangul filler or a zero-width space); use letters, digits, spaces, "
                          "hyphens, apostrophes and full stops.")
    if not all(letter_or_digit(ch) or ch in NAME_PUNCTUATION for ch in name):
        raise RecordError(f"A {label}'s name uses letters, digits, spaces, hyphens, apostrophes "
                          "and full stops only.")
    return name


class Claim(NamedTuple):
    """A record a starting game takes: an existing one at the version read (`data` None), or a
    new one (`data`: its JSON)."""

    user_id: int
    name: str
    version: int = 0
    data: str | None = None


def where(channel_id: int) -> str:
    """The table named for its owner: a link to its channel (no one is pinged by it)."""
    return f"<#{channel_id}>"


class Records:
    """A person's records: what a seat brings, what a finished game hands back, and what
    `/character` does (create, find, retire)."""

    def __init__(self, store: Store):
        self.store = store
        self.claims: dict[int, list[Claim]] = {}
        """Session id -> what its start takes (`bring` fills it, the start's commit takes it
        with `holds`)."""

    async def of(self, guild_id: int | None, user_id: int, game: Game) -> list[RecordRow]:
        if game.record_type is None or guild_id is None:
            return []
        return await self.store.records_of(guild_id, user_id, game.id)

    async def check_choice(self, session: Session, user_id: int, names: list[str], *,
                           owner: str | None = None, rows: list[RecordRow] | None = None) -> None:
        """`names` are the person's records (none: a new one), at most the game's number per
        seat, none of them held by another table (the lobby's or the game's hold, saved with the
        choice or the start, decides for good). `owner`: the seat's name, when someone else
        (the host starting) is told. `rows`: the person's records, as just read."""
        game = session.game()
        if len(names) > game.records_per_seat:
            raise RecordError(f"A seat brings at most {game.records_per_seat} "
                              f"{game.record_label}{'s' * (game.records_per_seat > 1)}.")
        if len(set(names)) != len(names):
            raise RecordError(f"Each {game.record_label} comes once.")
        if not names:
            return
        mine = {r.name for r in (await self.of(session.guild_id, user_id, game) if rows is None else rows)}
        missing = [n for n in names if n not in mine]
        if missing:
            raise RecordError(f"You have no {game.record_label} named `{missing[0][:NAME_MAX]}` here.")
        assert session.guild_id is not None
        held = await self.store.record_holders(session.guild_id, user_id, game.id)
        whose = "Your" if owner is None else f"{escape_markdown(owner)}'s"
        for name in names:
            sid, channel = held.get(name, (session.id, 0))
            if sid != session.id:
                raise RecordError(f"{whose} {game.record_label} {name} is already at another table "
                                  f"(in {where(channel)}); finish that game or leave it first.")

    def hold_choice(self, session: Session, user_id: int, names: list[str]) -> list[Statement]:
        """The statements of a lobby choice: the seat gives back what it held, takes `names`."""
        game = session.game()
        if session.guild_id is None:
            return []
        out = [self.store.release_records(session.id, session.guild_id, user_id, game.id)]
        out += [self.store.hold_record(session.id, session.guild_id, user_id, game.id, n) for n in names]
        return out

    def start_holds(self, session: Session, now: float) -> list[Statement]:
        """The statements that make a starting game hold what its seats bring (`bring`)."""
        claims = self.claims.pop(session.id, [])
        if session.guild_id is None:
            return []
        game_id, guild = session.game_id, session.guild_id
        return [self.store.hold_record(session.id, guild, c.user_id, game_id, c.name, c.version)
                if c.data is None else
                self.store.hold_new_record(session.id, RecordRow(
                    guild_id=guild, user_id=c.user_id, game_id=game_id, name=c.name, data=c.data,
                    updated_at=now))
                for c in claims]

    async def busy_text(self, session: Session, exc: RecordBusy, *, starting: bool) -> str:
        """Why a record could not be held, for the person who asked: it is at another table
        (which), it was retired, or it changed meanwhile."""
        game = session.game()
        label = game.record_label
        seat = session.seat_of_user(exc.user_id)
        whose = f"{escape_markdown(seat.name)}'s" if seat is not None and starting else "Your"
        assert session.guild_id is not None
        held = await self.store.record_holders(session.guild_id, exc.user_id, game.id)
        sid, channel = held.get(exc.name, (session.id, 0))
        if sid != session.id:
            return (f"{whose} {label} {exc.name} is already at another table (in {where(channel)}); "
                    "finish that game or leave it first.")
        rows = {r.name for r in await self.of(session.guild_id, exc.user_id, game)}
        again = "press Start again" if starting else "choose again"
        if exc.name not in rows:
            return f"{whose} {label} {exc.name} was just retired: {again}."
        return f"{whose} {label} {exc.name} changed just now (another game ended): {again}."

    async def bring(self, session: Session) -> dict[str, list[BaseModel]]:
        """What each seat brings into the game (player id -> records), a new record for a seat
        without one; sets each person's `Seat.record` to the names they will be saved under."""
        game = session.game()
        assert game.record_type is not None
        out: dict[str, list[BaseModel]] = {}
        claims: list[Claim] = []
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
                await self.check_choice(session, seat.user_id, names, owner=seat.name, rows=rows)
                claims += [Claim(seat.user_id, n, by_name[n].version) for n in names]
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
                claims.append(Claim(seat.user_id, names[0], data=out[seat.player_id][0].model_dump_json()))
            seat.record = "\n".join(names)
        self.claims[session.id] = claims
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
        """Remove a record nobody holds (one conditional DELETE: a table taking it at the same
        moment either has it, and the retiring is refused, or finds it gone)."""
        row, _ = await self.find(guild_id, user_id, game, name)
        for _ in range(2):  # a hold that lapsed between the two queries: once more
            if await self.store.retire_record(guild_id, user_id, game.id, row.name):
                return row.name
            held = await self.store.record_holders(guild_id, user_id, game.id)
            if row.name in held:
                raise RecordError(f"{row.name} is at a table (in {where(held[row.name][1])}); "
                                  "finish or leave that game first.")
        raise RecordError(f"{row.name} has just been retired already.")

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

