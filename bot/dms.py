"""Each player's one DM per game, kept current.

A player has one live DM per game (its id is stored, `MessageService.set_dm_message`). When
their turn comes a new DM is posted (Discord notifies a new message, not an edit) and the
previous one deleted; otherwise the one DM is edited. What any write puts there is always the
NEWEST view offered for that player (`offer`, by session version), never the one a queued
edit was made with:

- Every write to a player's DM (a post, an edit, the answer to a click on it) happens while
  holding that player's lock, except the interaction answer itself (it must not wait): that one
  is recorded (`answering`), and the edit job, which owns the lock, checks after each of its own
  calls whether another write happened meanwhile and writes the newest view again if so.
- An edit answered "not found" posts the newest view as a new DM (and the old id is deleted,
  in case it was there after all); a failed edit is tried again a few times, then left to the
  next change. An edit queued for a DM that was replaced meanwhile edits the replacement.
- Two turn notifications for the same version post once.

`written` (which message, which digest the last write sent) lets a job that would change
nothing make no call.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.controller import Controller
    from bot.models import Session
    from bot.table import Payload

log = logging.getLogger("pantheon.dms")

DM_BLOCKED = 50007
SLOTS_KEPT = 5_000
"""Players whose newest view is kept in memory (a forgotten one is read back from the store)."""
RETRIES = 3
RETRY_WAIT = 0.25
"""Seconds before a failed DM edit is tried again (times the attempt)."""

Key = tuple[int, int]


@dataclass
class _Slot:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    loaded: bool = False
    key: Key | None = None  # the live DM (channel id, message id)
    order: int = -1  # session version of `payload`
    payload: Payload | None = None
    mark: str = ""
    written: tuple[Key, str] | None = None  # the last write to a DM: which one, which digest
    writes: int = 0  # every write counts (a job compares it around its own call)
    posted: int = -1  # the newest version whose turn a new DM was posted for
    answer: tuple[Key, str] | None = None  # what the answer to a click on a DM is showing


class DmKeeper:
    def __init__(self, controller: Controller):
        self.c = controller
        self._slots: collections.OrderedDict[tuple[int, str], _Slot] = collections.OrderedDict()

    # --- the newest view -------------------------------------------------------------------
    def slot(self, session_id: int, player_id: str) -> _Slot:
        key = (session_id, player_id)
        slot = self._slots.get(key)
        if slot is None:
            slot = self._slots[key] = _Slot()
            while len(self._slots) > SLOTS_KEPT:
                oldest = next(iter(self._slots))
                if self._slots[oldest].lock.locked():
                    break
                self._slots.pop(oldest)
        self._slots.move_to_end(key)
        return slot

    def offer(self, session: Session, player_id: str, payload: Payload) -> _Slot:
        """`payload` is this player's view at `session.version`: the newest unless a newer one
        was offered already."""
        slot = self.slot(session.id, player_id)
        if session.version >= slot.order:
            slot.order, slot.payload = session.version, payload
            slot.mark = self.c._dm_digest(session, player_id, payload)
        return slot

    async def _load(self, session_id: int, player_id: str, slot: _Slot, *, again: bool = False) -> None:
        """The stored DM id: read once, or `again` (holding the lock, before a write: another
        process may have replaced the DM; in this one, a post made meanwhile wins)."""
        if again or not slot.loaded:
            key = await self.c.service.dm_message(session_id, player_id)
            if again or not slot.loaded:
                if key != slot.key:
                    slot.written = None
                slot.key, slot.loaded = key, True

    def _wrote(self, slot: _Slot, key: Key | None, mark: str | None) -> int:
        slot.writes += 1
        slot.written = (key, mark) if key is not None and mark is not None else None
        return slot.writes

    # --- an interaction answer on a DM ----------------------------------------------------------
    def answering(self, session: Session, player_id: str, key: Key, payload: Payload) -> None:
        """The answer to a click on the DM `key` is about to show `payload` (call before sending)."""
        slot = self.offer(session, player_id, payload)
        mark = self.c._dm_digest(session, player_id, payload)
        slot.answer = (key, mark)
        self._wrote(slot, key, mark)

    def answer_failed(self, session: Session, player_id: str) -> None:
        self._wrote(self.slot(session.id, player_id), None, None)

    async def answered(self, session: Session, player_id: str, key: Key,
                       interaction: discord.Interaction) -> bool:
        """After the answer to a click on DM `key`: True when `key` is the player's DM (it is
        current now). A click on another DM of theirs (one being replaced as they clicked)
        deletes that one; their DM is brought to the newest view."""
        slot = self.slot(session.id, player_id)
        async with slot.lock:
            await self._load(session.id, player_id, slot, again=True)
            stray = slot.key != key
            if slot.answer is not None and slot.answer[0] == key:
                # the answer landed now, maybe after an edit that showed a newer view: the DM
                # shows the answer's view, and `sync` edits the newest in again if it differs
                self._wrote(slot, key, slot.answer[1])
            slot.answer = None
        if stray:
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                pass
        await self.sync(session, player_id)
        return not stray

    # --- writes ---------------------------------------------------------------------------------
    async def update(self, session: Session, player_id: str, payload: Payload, *, fresh: bool) -> bool:
        """`payload` is the player's view now: posted anew when `fresh` (their turn has come) or
        when they have no DM, else their DM is edited to it. True when their DMs are closed."""
        slot = self.offer(session, player_id, payload)
        await self._load(session.id, player_id, slot)
        if fresh or slot.key is None:
            return await self.post(session, player_id)
        await self.sync(session, player_id)
        return False

    async def sync(self, session: Session, player_id: str) -> None:
        """Queue the edit that brings the player's DM to the newest view (no call if it shows it)."""
        slot = self.slot(session.id, player_id)
        await self._load(session.id, player_id, slot)
        if slot.key is None or slot.payload is None or slot.written == (slot.key, slot.mark):
            return
        light = session.unparsed()  # only its id and seats are read when the edit's turn comes
        self.c.edits.submit(slot.key, lambda: self._bring(light, player_id, slot), order=slot.order)

    async def post(self, session: Session, player_id: str) -> bool:
        """Their turn has come: the newest view as a new DM, the previous one deleted. True when
        their DMs are closed."""
        slot = self.slot(session.id, player_id)
        async with slot.lock:
            await self._load(session.id, player_id, slot, again=True)
            blocked = False
            if slot.posted < session.version or slot.key is None:  # else posted already: an edit at most
                old = slot.key
                blocked = await self._post(session, player_id, slot)
                if old is not None and (blocked or slot.key != old):
                    await self._delete(session, player_id, old)
                if blocked:
                    slot.key = slot.written = None
        if not blocked:
            await self.sync(session, player_id)
        return blocked

    async def _post(self, session: Session, player_id: str, slot: _Slot) -> bool:
        """Post `slot`'s newest view as a new DM (holding the lock), tried again a few times when
        Discord fails (the new message is the turn's notification); True when DMs are closed."""
        for attempt in range(1, RETRIES + 1):
            outcome = await self._post_once(session, player_id, slot)
            if outcome is not None:
                return outcome
            if attempt < RETRIES:
                await asyncio.sleep(RETRY_WAIT * attempt)
        return False

    async def _post_once(self, session: Session, player_id: str, slot: _Slot) -> bool | None:
        """One try of `_post`: None when Discord failed (worth another try)."""
        seat = session.seat(player_id)
        assert seat is not None and seat.user_id is not None and slot.payload is not None
        payload, mark, order = slot.payload, slot.mark, slot.order
        try:
            channel_id = slot.key[0] if slot.key else None
            if channel_id is None:
                data = await self.c.bot.http.start_private_message(seat.user_id)
                channel_id = int(data["id"])
            channel = self.c.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            mine = self._wrote(slot, None, None)
            msg = await channel.send(**payload.send_kwargs())
            key = (channel.id, msg.id)
            slot.key, slot.posted = key, max(slot.posted, order)
            if slot.writes == mine:
                slot.written = (key, mark)
            await self.c.service.set_dm_message(session.id, player_id, channel.id, msg.id)
            if seat.dm_blocked:  # the table's "DMs are closed" line goes
                await self.c.service.mark_dm_blocked(session.id, player_id, False)
                await self.c.update_table(await self.c.service.get(session.id))
            return False
        except discord.Forbidden as exc:
            if exc.code == DM_BLOCKED or exc.status == 403:
                await self.c.service.mark_dm_blocked(session.id, player_id, True)
                return True  # (the caller deletes the old DM: no stale controls left behind)
            log.warning("session %s: DM to %s refused: %s", session.id, player_id, exc)
            return False
        except discord.HTTPException as exc:
            log.warning("session %s: DM to %s failed (the state is safe): %s", session.id, player_id, exc)
        return None

    async def _delete(self, session: Session, player_id: str, key: Key) -> None:
        """Delete a DM of theirs, through the token of their last click on it while fresh."""
        token = self.c._dm_tokens.pop((session.id, player_id), None)
        try:
            if token is not None and token[2] == key[1] and self.c._fresh(token[1]):
                try:
                    await token[0].delete_original_response()
                    return
                except discord.HTTPException:
                    pass
            channel = self.c.bot.get_partial_messageable(key[0], type=discord.ChannelType.private)
            await channel.get_partial_message(key[1]).delete()
        except discord.HTTPException:
            pass  # already gone

    async def _edit(self, session: Session, player_id: str, key: Key, payload: Payload) -> None:
        token = self.c._dm_tokens.get((session.id, player_id))
        if token is not None and token[2] == key[1] and self.c._fresh(token[1]):
            try:
                await token[0].edit_original_response(**payload.edit_kwargs())
                return
            except discord.HTTPException:
                pass  # expired or refused: the bot's own edit below
        channel = self.c.bot.get_partial_messageable(key[0], type=discord.ChannelType.private)
        await channel.get_partial_message(key[1]).edit(**payload.edit_kwargs())

    async def _bring(self, session: Session, player_id: str, slot: _Slot) -> bool:
        """The edit job: until the DM shows the newest view (holding the lock)."""
        failures = rounds = 0
        async with slot.lock:
            await self._load(session.id, player_id, slot, again=True)
            while slot.key is not None and slot.payload is not None and slot.written != (slot.key, slot.mark):
                key, payload, mark = slot.key, slot.payload, slot.mark
                mine = self._wrote(slot, key, mark)
                try:
                    await self._edit(session, player_id, key, payload)
                except discord.NotFound:  # gone (deleted by hand): the newest view, anew
                    self._wrote(slot, None, None)
                    if await self._post(session, player_id, slot):
                        await self._delete(session, player_id, key)
                        slot.key = slot.written = None
                        return False
                    if slot.key != key:
                        await self._delete(session, player_id, key)  # in case it was there after all
                    else:
                        failures += 1
                except discord.HTTPException as exc:
                    self._wrote(slot, None, None)
                    failures += 1
                    log.warning("session %s: DM to %s failed (try %s; the state is safe): %s",
                                session.id, player_id, failures, exc)
                else:
                    if slot.writes != mine:  # another write (a click's answer) during this one
                        self._wrote(slot, None, None)
                    failures = 0
                rounds += 1
                if failures >= RETRIES or rounds >= 2 * RETRIES:
                    break
                if failures:
                    await asyncio.sleep(RETRY_WAIT * failures)
        return False
