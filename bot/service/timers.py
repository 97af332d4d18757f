"""Turn timers: reminders, and the automatic player taking turns whose time ran out."""

from __future__ import annotations

from bot.models import (
    ActResult,
    Session,
)
from bot.service.base import (
    TIMEOUT_STEPS,
    Change,
    ServiceError,
    auto_rng,
    log,
)
from bot.service.commit import CommitService
from rules.core.game import Event, who


class TimerService(CommitService):
    # --- timers -------------------------------------------------------------------
    async def due_reminders(self) -> list[Session]:
        """Active sessions whose reminder is due (and not sent), before their deadline."""
        now = self.clock()
        out = []
        for sid, deadline, remind_at, reminded in await self.store.timed_sessions(due_by=now):
            if not reminded and remind_at is not None and remind_at <= now < deadline:
                session = await self.store.load(sid)
                if session is None:
                    continue
                try:
                    out.append(await self.with_content(session))
                except ServiceError:
                    continue  # its content is gone: nobody to remind of an unplayable game
        return out

    async def mark_reminded(self, session_id: int, deadline: float | None = None) -> None:
        """The reminder was sent. Pass the session's `deadline` as seen when reminding, so a
        deadline that moved on meanwhile keeps its own reminder."""
        if deadline is None:
            session = await self.get(session_id)
            deadline = session.deadline
        await self.store.set_reminded(session_id, deadline)

    async def expire_turns(self) -> list[ActResult]:
        """The automatic player takes the turns whose time ran out."""
        now = self.clock()
        out = []
        for sid, deadline, _, _ in await self.store.timed_sessions(due_by=now):
            if deadline > now:
                continue
            try:
                result = await self._expire(sid, now)
            except ServiceError:
                continue  # another process moved it on first
            except Exception:
                log.exception("session %s: the turn timer failed", sid)
                continue
            if result is not None:
                out.append(result)
        return out

    async def _expire(self, session_id: int, now: float) -> ActResult | None:
        async with self._locked(session_id):
            session = await self.get(session_id)
            if session.status != "active" or session.deadline is None or session.deadline > now:
                return None
            change = Change(session, self.clock())
            game = change.game
            late = change.humans_to_act(change.state)
            for pid in late:
                note = [Event(kind="timeout", data={"player": pid},
                              text=f"Time ran out for {who(pid)}: the automatic player takes the turn.")]
                for _ in range(TIMEOUT_STEPS):
                    assert change.state is not None
                    if game.result(change.state) is not None or pid not in game.to_act(change.state):
                        break
                    rng = auto_rng(session.id, session.version, pid)
                    change.play(pid, game.auto_action(change.state, pid, rng), before=note)
                    note = []
            return await self._commit(change, timed_out=late, force_timer=True)

    async def next_deadline(self) -> float | None:
        """The earliest deadline or unsent reminder, so the bot can sleep until then."""
        return await self.store.next_timer()

