"""Edits of the bot's own messages (the table, the DMs), made in the background: only what
changed, coalesced per message, paced per channel.

- A payload is known by its digest (`digest`): content, embeds, pictures, mentions and
  components, with the session version taken out of the custom ids (a control rendered at an
  older version still works while its seat's choices are unchanged, `Session.current_for`), and
  the actions version of the seats that may click it put in. An edit whose digest is the one
  last shown on that message is not sent.
- Edits queued for one message while one is under way (or waits for its channel's bucket)
  collapse into one: the newest payload (by session version), so the last state is always shown
  and nothing is lost. An older version than the one shown or queued is dropped.
- Per channel, at most `per` edits in any `window` seconds (Discord's bucket for message edits
  in one channel is about 5 per 5 s): a burst at one table waits for room, meanwhile coalescing.
- A failed edit is logged by the sender; the next edit shows the committed state anyway.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.table import Payload

log = logging.getLogger("pantheon.edits")

PACING: tuple[int, float] | None = (5, 5.0)
"""Edits per window (seconds) per channel; None: no pacing (tests clicking at machine speed)."""
REMEMBER = 20_000
"""Messages whose last shown digest is kept in memory (the oldest are forgotten first)."""

Key = tuple[int, int]
"""(channel id, message id)."""

_VERSION = re.compile(r'"(p[aspvwm]):(\d+):\d+:')


def digest(payload: Payload, actions_version: int = 0) -> str:
    """What a reader sees of this payload, and whether its controls are current (see above)."""
    embeds, _ = payload.parts()
    view = payload.view.to_components() if payload.view is not None else []
    body = json.dumps({"content": payload.content, "embeds": [e.to_dict() for e in embeds],
                       "components": view, "mentions": payload.mention_users,
                       "actions": actions_version}, sort_keys=True, default=str)
    h = hashlib.blake2b(_VERSION.sub(r'"\1:\2:*:', body).encode(), digest_size=16)
    for panel in payload.panels:
        if panel.image_png:
            h.update(panel.image_name.encode())
            h.update(panel.image_png)
    return h.hexdigest()


@dataclass
class _Edit:
    order: int
    digest: str | None
    send: Callable[[], Awaitable[Any]]


class EditQueue:
    def __init__(self, *, pacing: tuple[int, float] | None | bool = True,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep):
        self.pacing = PACING if pacing is True else (pacing or None)
        self.clock = clock
        self.sleep = sleep
        self._pending: dict[Key, _Edit] = {}
        self._workers: dict[Key, asyncio.Task] = {}
        self._shown: collections.OrderedDict[Key, tuple[int, str | None]] = collections.OrderedDict()
        self._stamps: dict[int, collections.deque[float]] = {}
        self.sent = 0
        self.skipped = 0

    # --- what a message shows -----------------------------------------------------------------
    def shown(self, key: Key, order: int, digest: str | None, *, landed_last: bool = False) -> bool:
        """This payload is now on the message (an interaction response, a new message). False
        when a newer one was shown already: unless `landed_last` (the call that showed this one
        ended after that newer one was shown, so the message may show this older one), nothing
        changes; with it, this one is recorded so that the newer one is edited in again."""
        old = self._shown.get(key)
        if old is not None and old[0] > order:
            if landed_last:
                self._shown[key] = (order, digest)
            return False
        self._shown[key] = (order, digest)
        self._shown.move_to_end(key)
        while len(self._shown) > REMEMBER:
            self._shown.popitem(last=False)
        return True

    def unchanged(self, key: Key, digest: str | None) -> bool:
        shown = self._shown.get(key)
        return digest is not None and shown is not None and shown[1] == digest

    def forget(self, key: Key) -> None:
        self._shown.pop(key, None)

    # --- queueing -----------------------------------------------------------------------------
    def submit(self, key: Key, send: Callable[[], Awaitable[Any]], *, order: int,
               digest: str | None = None) -> None:
        """Bring the message `key` to this payload (`send` edits it) in the background."""
        shown = self._shown.get(key)
        pending = self._pending.get(key)
        if (shown is not None and shown[0] > order) or (pending is not None and pending.order > order):
            return  # a newer state is already shown or on its way
        if pending is None and key not in self._workers and self.unchanged(key, digest):
            self.skipped += 1
            return
        self._pending[key] = _Edit(order, digest, send)
        if key not in self._workers:
            self._workers[key] = asyncio.create_task(self._run(key), name=f"pantheon-edit:{key[1]}")

    def busy(self) -> bool:
        return bool(self._workers)

    async def drain(self, *, once: bool = False) -> None:
        """Wait until every queued edit is made (tests, shutdown); `once`: only those queued now
        (a busy bot may always have some on their way)."""
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)
            if once:
                return

    async def _run(self, key: Key) -> None:
        try:
            while (edit := self._pending.pop(key, None)) is not None:
                if self.unchanged(key, edit.digest):
                    self.skipped += 1
                    continue
                await self._room(key[0])
                newer = self._pending.pop(key, None)  # arrived while waiting: it wins
                if newer is not None:
                    edit = newer
                    if self.unchanged(key, edit.digest):
                        self.skipped += 1
                        continue
                shown = self._shown.get(key)
                if shown is not None and shown[0] > edit.order:
                    continue
                self._stamp(key[0])
                self.sent += 1
                try:
                    if await edit.send() is not False:
                        self.shown(key, edit.order, edit.digest)
                except Exception:
                    log.exception("edit of message %s failed", key[1])
        finally:
            self._workers.pop(key, None)

    async def _room(self, channel: int) -> None:
        """Wait until the channel's bucket has room for one more edit."""
        if self.pacing is None:
            return
        per, window = self.pacing
        stamps = self._stamps.setdefault(channel, collections.deque())
        while True:
            now = self.clock()
            while stamps and now - stamps[0] >= window:
                stamps.popleft()
            if len(stamps) < per:
                return
            # at least a microsecond: on a virtual clock `now + wait` may round back to `now`
            # (a wait of 1e-16 s), and the wait would never end
            await self.sleep(max(window - (now - stamps[0]), 1e-6))

    def _stamp(self, channel: int) -> None:
        if self.pacing is None:
            return
        stamps = self._stamps.setdefault(channel, collections.deque())
        stamps.append(self.clock())
        if len(self._stamps) > REMEMBER:
            for ch in [c for c, s in self._stamps.items() if not s]:
                del self._stamps[ch]
