"""`/game turns`: every table where a person has a move to make, in every server, the longest
waiting first, each with a link to its table message."""

from __future__ import annotations

from bot.models import Session
from bot.render import Panel

SHOWN = 20
"""Tables listed in one answer (the rest are counted)."""


def table_link(session: Session) -> str | None:
    """The address of the table message (Discord opens it from a DM too)."""
    if session.guild_id is None or not session.table_message_id:
        return None
    channel = session.table_channel_id or session.channel_id
    return f"https://discord.com/channels/{session.guild_id}/{channel}/{session.table_message_id}"


def turns_panel(waiting: list[tuple[Session, float]]) -> Panel:
    if not waiting:
        return Panel(title="Your turns", description="No table is waiting for you. 🎉", colour=0x2ECC71)
    lines = []
    for session, since in waiting[:SHOWN]:
        link = table_link(session)
        where = f"[table]({link})" if link else f"<#{session.channel_id}>"
        lines.append(f"• **{session.game().name}** in <#{session.table_channel_id or session.channel_id}>"
                     f" · waiting since <t:{int(since)}:R> · {where}")
    if len(waiting) > SHOWN:
        lines.append(f"… and {len(waiting) - SHOWN} more.")
    return Panel(title=f"Your turns ({len(waiting)})", description="\n".join(lines), colour=0xE67E22)
