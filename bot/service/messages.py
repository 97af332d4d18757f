"""Where the table, each DM and the turn ping are, and the closed-DM flag."""

from __future__ import annotations

from bot.service.base import (
    PING_TARGET,
    ServiceBase,
)
from bot.store import TABLE_TARGET


class MessageService(ServiceBase):
    # --- messages and flags ----------------------------------------------------------
    async def mark_dm_blocked(self, session_id: int, player_id: str, blocked: bool) -> None:
        async with self._locked(session_id):
            self._forget(session_id)
            await self.store.set_dm_blocked(session_id, player_id, blocked)

    async def set_table_message(self, session_id: int, channel_id: int, message_id: int) -> None:
        self._forget(session_id)
        await self.store.set_message(session_id, TABLE_TARGET, channel_id, message_id)

    async def set_dm_message(self, session_id: int, player_id: str, channel_id: int,
                             message_id: int) -> None:
        await self.store.set_message(session_id, player_id, channel_id, message_id)

    async def dm_message(self, session_id: int, player_id: str) -> tuple[int, int] | None:
        return await self.store.get_message(session_id, player_id)

    async def set_ping_message(self, session_id: int, channel_id: int, message_id: int) -> None:
        """The short "your turn" message in the channel (replaced, never piled up)."""
        await self.store.set_message(session_id, PING_TARGET, channel_id, message_id)

    async def ping_message(self, session_id: int) -> tuple[int, int] | None:
        return await self.store.get_message(session_id, PING_TARGET)

