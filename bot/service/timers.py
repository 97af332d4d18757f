"""Turn timers: reminders, and the automatic player taking turns whose time ran out.

Several processes may share one database (sharded bots on PostgreSQL). Each due timer is then
handled by exactly one of them: a process first claims the due sessions it will handle
(`Store.claim_timers`: one UPDATE ... RETURNING over rows nobody holds, with FOR UPDATE SKIP
LOCKED on PostgreSQL) and gives its claims back when done. A sharded process claims the
sessions of its own shards' guilds, and those of shards no live process serves (each process
writes a heartbeat row; one not seen for `lease` seconds is gone), so a dead process's guilds are
taken over. The expiry itself is also a version compare-and-set, like every move.
"""

from __future__ import annotations

from bot.models import (
    ActResult,
    Session,
)
from bot.service.base import (
    REMINDER_EVERY,
    REMINDER_LEAD_MAX,
    TIMEOUT_STEPS,
    Change,
    ServiceError,
    auto_rng,
    log,
)
from bot.service.commit import CommitService
from bot.store.base import TimedRow
from rules.core.game import Event, who


class TimerService(CommitService):
    # --- which timers are this process's ---------------------------------------------------
    async def handled_shards(self, now: float) -> list[int] | None:
        """The shards whose timers this process handles: its own, and those no live process
        serves. None: not sharded (every timer)."""
        if self.shard_count is None:
            return None
        own = set(self.shard_ids if self.shard_ids is not None else range(self.shard_count))
        covered: set[int] = set()
        for name, count, ids in await self.store.live_workers(now - self.lease):
            if name != self.worker and count == self.shard_count and ids:
                covered.update(ids)
        return sorted(own | (set(range(self.shard_count)) - covered))

    async def claim_due(self) -> list[TimedRow]:
        """Claim the due timers this process handles (see the module's docstring)."""
        now = self.clock()
        if self.shard_count is not None:
            await self.store.beat(self.worker, now, shard_count=self.shard_count,
                                  shard_ids=self.shard_ids)
        shards = await self.handled_shards(now)
        return await self.store.claim_timers(self.worker, now, now + self.lease, shards=shards,
                                             shard_count=self.shard_count or 1)

    async def stop_timers(self) -> None:
        """This process stops: its claims and its shards go to the others at once."""
        await self.store.forget_worker(self.worker)

    # --- timers -------------------------------------------------------------------
    async def due_reminders(self) -> list[Session]:
        """Active sessions whose reminder is due (and not sent), before their deadline."""
        now = self.clock()
        out = []
        for sid, deadline, remind_at, reminded in await self.claim_due():
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
        """The reminder was sent: the next is due a day later, or shortly before the deadline
        (the last one). Pass the session's `deadline` as seen when reminding, so a deadline that
        moved on meanwhile keeps its own reminders."""
        if deadline is None:
            session = await self.get(session_id)
            deadline = session.deadline
        self._forget(session_id)
        next_at = None
        if deadline is not None:
            now, last = self.clock(), deadline - REMINDER_LEAD_MAX
            if now + REMINDER_EVERY < last:
                next_at = now + REMINDER_EVERY
            elif now < last - REMINDER_LEAD_MAX:  # the last reminder is still to come
                next_at = last
        await self.store.set_reminded(session_id, deadline, next_at=next_at)

    async def expire_turns(self) -> list[ActResult]:
        """The automatic player takes the turns whose time ran out."""
        now = self.clock()
        out = []
        try:
            for sid, deadline, _, _ in await self.claim_due():
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
        finally:
            await self.store.release_timers(self.worker)
        return out

    async def _expire(self, session_id: int, now: float) -> ActResult | None:
        async with self._locked(session_id):
            session = await self.get(session_id)
            if session.status != "active" or session.deadline is None or session.deadline > now:
                return None
            change = Change(session, self.clock())
            game = change.game
            late = change.humans_to_act(change.state)
            for pid in list(late):
                seat = session.seat(pid)
                if seat is not None and seat.overdue and not seat.is_away(now):
                    # back by the day they named: their turn is timed anew, not taken at once
                    late.remove(pid)
                    seat.overdue, seat.away_until = False, None
                    change.record(None, "back", [Event(
                        kind="back", data={"player": pid},
                        text=f"{who(pid)} is back: their turn is timed again.")])
                elif seat is not None and seat.is_away(now):  # not played for: the others are asked
                    late.remove(pid)
                    if not seat.overdue:
                        seat.overdue = True
                        change.record(None, "overdue", [Event(
                            kind="overdue", data={"player": pid},
                            text=f"{who(pid)} is away and the turn has waited past the time limit: "
                                 "the others may let the automatic player move for them.")])
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

