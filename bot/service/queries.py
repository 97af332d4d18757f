"""Read-only questions: open sessions, a player's games, the log, statistics."""

from __future__ import annotations

from bot.models import (
    LogEntry,
    Session,
    StatRow,
)
from bot.service.base import (
    ServiceBase,
)


class QueryService(ServiceBase):
    # --- queries ---------------------------------------------------------------------
    async def active_in_channel(self, channel_id: int) -> Session | None:
        session = await self.store.open_in_channel(channel_id)
        return await self.with_content(session) if session is not None else None

    async def latest_in_channel(self, channel_id: int) -> Session | None:
        """The newest session of this channel, finished ones included."""
        session = await self.store.latest_in_channel(channel_id)
        return await self.with_content(session) if session is not None else None

    async def sessions_of_user(self, user_id: int) -> list[Session]:
        return [await self.with_content(s) for s in await self.store.active_of_user(user_id)]

    async def turns_of(self, user_id: int) -> list[tuple[Session, float]]:
        """The games, in every server, where this person has a move to make now (their own seat,
        not handed to the automatic player), with since when (the time their choices were last
        set), the longest waiting first."""
        out = []
        for session in await self.sessions_of_user(user_id):
            seat = session.seat_of_user(user_id)
            if seat is None or seat.auto or session.state_json is None:
                continue
            if seat.player_id not in session.game().to_act(session.state()):
                continue
            since = await self.store.action_time(session.id, seat.actions_version)
            out.append((session, since if since is not None else session.updated_at))
        out.sort(key=lambda x: x[1])
        return out

    async def recent_log(self, session_id: int, limit: int = 15, *,
                         before: int | None = None) -> list[LogEntry]:
        return await self.store.recent_log(session_id, limit, before=before)

    async def stats(self, guild_id: int | None, game_id: str | None = None, *,
                    include_bots: bool = False) -> list[StatRow]:
        """Games played and won per person (and game) in this server, most wins first."""
        rows: dict[tuple[str, object, str], StatRow] = {}
        for r in await self.store.results(guild_id, game_id):
            if r.user_id is None and not include_bots:
                continue
            key = ("user", r.user_id, r.game_id) if r.user_id is not None else ("bot", r.name, r.game_id)
            row = rows.get(key)
            if row is None:
                row = rows[key] = StatRow(user_id=r.user_id, name=r.name, game_id=r.game_id,
                                          played=0, won=0)
            row.name = r.name  # the latest name
            row.played += 1
            row.won += int(r.won)
            for tag, value in r.tags.items():
                counts = row.tags.setdefault(f"{tag}:{value}", {"played": 0, "won": 0})
                counts["played"] += 1
                counts["won"] += int(r.won)
        return sorted(rows.values(), key=lambda x: (-x.won, -x.played, x.name.lower(), x.game_id))
