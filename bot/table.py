"""What Pantheon's messages contain: the lobby, the table, a player's private view.

Pure functions of a committed session (plus the events of the last action), so a
failed send never loses anything: the next render shows the committed state.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

import rules
from bot.models import AWAY_OPEN, TURN_TIMER_CHOICES, utc_day
from bot.render import Panel, RenderContext, get_renderer
from bot.render.base import GameRenderer
from bot.render.discord import to_message_parts
from bot.render.panel import clip
from bot.ui import ids
from bot.ui.items import ActionButton, ActionSelect, RoutedView
from bot.ui.layout import PER_ROW, ROWS, action_view
from rules.core import Action, Event, name_players
from rules.core.text import escape_markdown

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from bot.models import Session

LATEST_LINES = 8


def pings(user_ids: list[int] | tuple[int, ...] = ()) -> discord.AllowedMentions:
    """Only these users may be pinged by a message: never @everyone, a role, or a user whose
    mention reached the text through a display name."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=u) for u in dict.fromkeys(user_ids)])


@dataclass
class Payload:
    """One message's content, ready to send or to edit into place."""

    content: str | None = None
    panels: list[Panel] = field(default_factory=list)
    view: discord.ui.View | None = None
    mention_users: list[int] = field(default_factory=list)
    """The users this message means to ping (the players to act); no other mention pings."""

    def parts(self) -> tuple[list[discord.Embed], list[discord.File]]:
        return to_message_parts(self.panels)

    def send_kwargs(self) -> dict:
        embeds, files = self.parts()
        kw: dict = {"content": self.content, "embeds": embeds,
                    "allowed_mentions": pings(self.mention_users)}
        if files:
            kw["files"] = files
        if self.view is not None:
            kw["view"] = self.view
        return kw

    def edit_kwargs(self) -> dict:
        embeds, files = self.parts()
        return {"content": self.content, "embeds": embeds, "attachments": files,
                "view": self.view, "allowed_mentions": pings(self.mention_users)}

    def text(self) -> str:
        from bot.render.panel import to_text

        out = [self.content] if self.content else []
        out += [to_text(p) for p in self.panels]
        return "\n".join(out)


def named_actions(actions: list[Action], names: dict[str, str]) -> list[Action]:
    """Actions whose labels show player names instead of `who()` references."""
    return [a.model_copy(update={"label": name_players(a.label, names),
                                 "description": a.description and name_players(a.description, names)})
            if "⟨" in a.label or (a.description and "⟨" in a.description) else a for a in actions]


def _ctx(session: Session) -> RenderContext:
    state = session.state()
    game = session.game()
    return RenderContext(names=session.names(), to_act=game.to_act(state),
                         finished=session.status != "active")


def mention(session: Session, player_id: str) -> str:
    seat = session.seat(player_id)
    if seat is None:
        return player_id
    if seat.user_id is not None and not seat.auto:
        return f"<@{seat.user_id}>"
    return f"**{escape_markdown(seat.name)}**"


def mentioned_users(session: Session, player_ids: list[str]) -> list[int]:
    """The Discord users `mention` pings for these players (people playing their own seat)."""
    out = []
    for pid in player_ids:
        seat = session.seat(pid)
        if seat is not None and seat.user_id is not None and not seat.auto:
            out.append(seat.user_id)
    return out


def public_actions(session: Session) -> list[Action]:
    """The actions shown on the table: those that reveal nothing, of every person the game waits
    for and of those who may react now."""
    game, state = session.game(), session.state()
    seen: dict[str, Action] = {}
    for pid in game.acting(state):
        seat = session.seat(pid)
        if seat is None or seat.auto:
            continue
        for a in session.legal_actions(pid):
            if not a.private and a.key not in seen:
                seen[a.key] = a
    return list(seen.values())


def latest_panel(session: Session, events: list[Event], shown: str = "", skipped: int = 0) -> Panel | None:
    """The public events of the last action, except those another panel already tells;
    `skipped`: earlier ones not kept."""
    lines = [f"• {e.text}" for e in events if e.visible_for(None) and e.text not in shown]
    if not lines:
        return None
    if len(lines) > LATEST_LINES or skipped:
        earlier = skipped + max(len(lines) - LATEST_LINES, 0)
        lines = [f"… {earlier} earlier"] + lines[-LATEST_LINES:]
    return Panel(title="Latest", description="\n".join(lines), colour=session.game().colour)


def table_payload(session: Session, events: list[Event] | None = None,
                  pages: dict[int, int] | None = None, note: str | None = None,
                  *, with_view: bool = True, with_events: bool = True) -> Payload:
    """The table message. Its event panels (dice, Latest) show the public events the session
    stores (`Session.table_events`: those of the last change that had any, whoever rendered
    it), or `events` when given (previews); `with_events` False: none (the terminal prints them)."""
    game = session.game()
    if session.state_json is None:
        return lobby_payload(session)
    state = session.state()
    renderer = get_renderer(game.id)
    ctx = _ctx(session)
    panels = list(renderer.table(session.view(None), ctx))
    public_events, skipped = ([], 0) if not with_events else \
        session.shown_events() if events is None else ([e for e in events if e.visible_for(None)], 0)
    result = game.result(state)
    if public_events:
        event_panels = renderer.events(public_events, ctx)
        panels += event_panels
        shown = "\n".join(p.description + "\n" + "\n".join(f.value for f in p.fields) for p in event_panels)
        if result is not None:  # the game-over panel tells the ending: Latest does not repeat it
            shown += "\n" + result.summary
        latest = latest_panel(session, public_events, shown, skipped)
        if latest:
            panels.append(latest)
    lines: list[str] = []
    if result is not None:
        panels.insert(0, Panel(title=f"🏆 {game.name}: game over", description=result.summary,
                               colour=0xF1C40F))
        lines.append(f"**{game.name}** is over.")
    elif session.status == "abandoned":
        lines.append(f"**{game.name}** was ended.")
    else:
        acting = [mention(session, p) for p in ctx.to_act]
        lines.append(f"**{game.name}** · to act: {', '.join(acting) or 'nobody'}")
        now = time.time()
        away = [s for s in session.seats if s.away_until is not None and s.away_until > now and not s.auto]
        waiting = [s for p in ctx.to_act if (s := session.seat(p)) is not None and not s.auto]
        if session.deadline and waiting and all(s in away for s in waiting):
            lines.append(f"⏳ the table waits; time limit <t:{int(session.deadline)}:R>")
        elif session.deadline:
            lines.append(f"⏳ turn ends <t:{int(session.deadline)}:R>")
        for seat in away:
            until = "they are back" if (seat.away_until or 0) >= AWAY_OPEN else utc_day(seat.away_until or 0)
            lines.append(f"💤 {escape_markdown(seat.name)} is away until {until}"
                         + (": past the time limit, the others may let the automatic player move."
                            if seat.overdue and not seat.auto else "."))
        blocked = [escape_markdown(s.name) for s in session.seats if s.dm_blocked and not s.auto]
        if blocked:
            lines.append(f"📪 {', '.join(blocked)}: your DMs are closed; press **My hand** to see your hand.")
    if note:
        lines.append(note)
    view = table_view(session, pages) if with_view else None
    names = session.names()
    return Payload(content=name_players("\n".join(lines), names),
                   panels=[p.named(names, session.plain_names()) for p in panels], view=view,
                   mention_users=mentioned_users(session, ctx.to_act) if result is None else [])


def table_view(session: Session, pages: dict[int, int] | None = None) -> discord.ui.View | None:
    """The table's buttons and menus (built on the event loop: discord.py views need it); a
    finished table has one: Play again."""
    if session.state_json is None:
        return None
    if session.status != "active" or session.game().result(session.state()) is not None:
        if session.status == "lobby":
            return None
        again = RoutedView()
        again.add_item(ActionButton(ids.lobby_id(session.id, "again"), label="Play again",
                                    emoji="🔁", style=discord.ButtonStyle.success))
        return again
    view = action_view(session.id, session.version,
                                        named_actions(public_actions(session), session.plain_names()),
                                        hand_button=session.game().has_private_view, pages=pages)
    if any(s.overdue and not s.auto and s.is_away(time.time()) for s in session.seats):  # `cover_away`
        try:
            view.add_item(ActionButton(ids.lobby_id(session.id, "cover"), emoji="⏭️",
                                       label="Let the automatic player move for them",
                                       style=discord.ButtonStyle.secondary))
        except ValueError:  # no room left on the table: `/game autoplay` does the same
            pass
    return view


async def render_table(session: Session, pages: dict[int, int] | None = None,
                       note: str | None = None) -> Payload:
    """`table_payload`, with a game's pictures drawn in a worker thread so that drawing and
    encoding an image never holds up the other tables on the event loop."""
    if session.state_json is None or not get_renderer(session.game_id).draws_pictures:
        return table_payload(session, None, pages, note)
    ahead = _ahead.get(session.id)
    if ahead is not None and ahead[0] == session.state_json and await _settled(ahead[1]):
        return table_payload(session, None, pages, note)  # its pictures are drawn: no hop
    payload = await asyncio.to_thread(table_payload, session, None, pages, note, with_view=False)
    payload.view = table_view(session, pages)
    return payload


_ahead: dict[int, tuple[str, asyncio.Future[bool]]] = {}
"""Per session, the state whose pictures are being drawn ahead (its saved text) and the drawing."""


def draw_ahead(session: Session) -> None:
    """Start drawing the table's pictures of the state about to be saved, in a worker thread:
    they are drawn while the move is written, and `render_table` finds them done (the service's
    `before_save`; called on the event loop)."""
    renderer = get_renderer(session.game_id)
    if session.state_json is None or not renderer.draws_pictures or \
            type(renderer).draw_ahead is GameRenderer.draw_ahead:  # nothing it draws ahead
        return
    memo = session.memo()
    drawn = asyncio.get_running_loop().run_in_executor(None, lambda: renderer.draw_ahead(memo.view(None)))
    _ahead[session.id] = (session.state_json, drawn)
    drawn.add_done_callback(lambda _: _forget_ahead(session.id, drawn))


def _forget_ahead(session_id: int, drawn: asyncio.Future[bool]) -> None:
    """A drawing stays known for the moment its move's answer needs it (the next loop turns)."""
    if not drawn.cancelled() and drawn.exception() is not None:  # render_table will say it again
        log.warning("Drawing a table's pictures ahead failed: %r", drawn.exception())
    asyncio.get_running_loop().call_later(5.0, _drop_ahead, session_id, drawn)


def _drop_ahead(session_id: int, drawn: asyncio.Future[bool]) -> None:
    if _ahead.get(session_id, (None, None))[1] is drawn:
        del _ahead[session_id]


async def _settled(drawn: asyncio.Future[bool]) -> bool:
    """The drawing ahead finished with the pictures in the renderer's cache."""
    try:
        return await asyncio.shield(drawn)
    except Exception:  # noqa: BLE001 - logged when it failed; the answer draws for itself
        return False


def private_actions(session: Session, player_id: str) -> list[Action]:
    game, state = session.game(), session.state()
    if session.status != "active" or game.result(state) is not None:
        return []
    return session.legal_actions(player_id)


def private_payload(session: Session, player_id: str, events: list[Event] | None = None,
                    pages: dict[int, int] | None = None) -> Payload:
    game, state = session.game(), session.state()
    renderer = get_renderer(game.id)
    ctx = _ctx(session)
    panel = renderer.private(session.view(player_id), ctx)
    panels = [panel]
    mine = [e for e in (events or []) if e.visible_to and player_id in e.visible_to]
    if mine:
        panels.append(Panel(title="Only you see this", description="\n".join(f"• {e.text}" for e in mine[-LATEST_LINES:]),
                            colour=game.colour))
    actions = private_actions(session, player_id)
    where = "" if session.guild_id is None else f" · table in <#{session.table_channel_id or session.channel_id}>"
    if game.result(state) is not None:
        content = f"**{game.name}** is over{where}."
    elif session.status == "abandoned":
        content = f"**{game.name}** was ended{where}."
    elif actions:
        content = f"**{game.name}** · your move{where}"
    else:
        content = f"**{game.name}** · waiting for the others{where}"
    seat = session.seat(player_id)
    view = action_view(session.id, session.version, named_actions(actions, session.plain_names()),
                       pages=pages, seat=seat.position if seat else None) if actions else None
    names = session.names()
    return Payload(content=content, panels=[p.named(names, session.plain_names()) for p in panels], view=view)


def lobby_buttons(session: Session) -> list[tuple[str, str, discord.ButtonStyle]]:
    """The lobby's buttons: Join and Add bot only where there is a second seat to fill, Remove
    bot while an automatic player is seated."""
    game = session.game()
    buttons = [("join", "Join", discord.ButtonStyle.success),
               ("leave", "Leave", discord.ButtonStyle.secondary),
               ("bot", "Add bot", discord.ButtonStyle.secondary),
               ("start", "Start", discord.ButtonStyle.primary),
               ("cancel", "Cancel", discord.ButtonStyle.danger)]
    if any(s.auto for s in session.seats):
        buttons.insert(3, ("unbot", "Remove bot", discord.ButtonStyle.secondary))
    if len(session.seats) == 2 and game.max_players >= 2:
        buttons.insert(len(buttons) - 2, ("swap", "Swap seats", discord.ButtonStyle.secondary))
    if game.max_players == 1:
        buttons = [b for b in buttons if b[0] not in ("join", "leave", "bot", "unbot")]
    if game.record_type is not None:
        buttons.insert(len(buttons) - 2, ("record", f"Choose {game.record_label}"[:80],
                                          discord.ButtonStyle.primary))
    return buttons


def option_menus(session: Session) -> list[discord.ui.Item]:
    """One select menu per game option, then the turn timer's."""
    game = session.game()
    menus: list[discord.ui.Item] = []
    for spec in game.options:
        value = session.options.get(spec.key, spec.default)
        menus.append(ActionSelect(
            ids.option_id(session.id, spec.key),
            options=[discord.SelectOption(label=c.label[:100], value=c.value, default=c.value == value,
                                          description=clip(c.description, 100) if c.description else None)
                     for c in spec.choices[:25]],
            placeholder=spec.label[:150]))
    timer = session.options.get("turn_timer", "0")
    menus.append(ActionSelect(
        ids.option_id(session.id, "turn_timer"),
        options=[discord.SelectOption(label=f"Turn timer: {label}", value=value, default=value == timer)
                 for value, label in TURN_TIMER_CHOICES],
        placeholder="Turn timer"))
    return menus


def more_options_payload(session: Session) -> Payload:
    """The option menus the lobby message has no room for (ephemeral, for the host)."""
    menus = option_menus(session)
    buttons = lobby_buttons(session) + [("options", "", discord.ButtonStyle.secondary)]
    shown = ROWS - math.ceil(len(buttons) / PER_ROW)
    view = RoutedView()
    for row, menu in enumerate(menus[shown:shown + ROWS]):
        menu.row = row
        view.add_item(menu)
    return Payload(content="More options for this table (the host sets them):", view=view)


def lobby_payload(session: Session, note: str | None = None) -> Payload:
    game = session.game()
    panel = Panel(title=f"New game: {game.name}", description=game.summary, colour=game.colour)
    def brings(seat) -> str:
        if game.record_type is None or seat.user_id is None:
            return ""
        names = seat.record_names
        if names is None:
            return f" · {game.record_label}: the latest"
        return f" · {game.record_label}: {', '.join(names) or 'a new one'}"

    seats = "\n".join(
        f"{i + 1}. {escape_markdown(s.name)}{' 🤖' if s.auto else ''}{' (host)' if s.user_id == session.host_id else ''}"
        f"{brings(s)}"
        for i, s in enumerate(session.seats)
    ) or "nobody yet"
    panel.add(f"Seats ({len(session.seats)}/{game.max_players}, at least {game.min_players})", seats)
    waiting = invited(session)
    if waiting:
        panel.add("Invited back", ", ".join(f"<@{p.user_id}>" for p in waiting) + ": press **Join**.")
    opts = []
    for spec in game.options:
        value = session.options.get(spec.key, spec.default)
        label = next((c.label for c in spec.choices if c.value == value), value)
        opts.append(f"{spec.label}: **{label}**")
    timer = session.options.get("turn_timer", "0")
    timer_label = dict(TURN_TIMER_CHOICES).get(timer, f"{timer}s")
    opts.append(f"Turn timer: **{timer_label}**")
    panel.add("Options", "\n".join(opts))
    panel.footer = "Join, then the host presses Start. The host sets the options below."
    view = None
    if session.status == "lobby":
        view = RoutedView()
        buttons = lobby_buttons(session)
        menus = option_menus(session)
        rows_left = ROWS - math.ceil(len(buttons) / PER_ROW)
        if len(menus) > rows_left:  # the rest go to an ephemeral menu of their own
            buttons.append(("options", "More options", discord.ButtonStyle.secondary))
            rows_left = ROWS - math.ceil(len(buttons) / PER_ROW)
        for row, menu in enumerate(menus[:rows_left]):
            menu.row = row
            view.add_item(menu)
        first = min(len(menus), rows_left)
        for i, (op, label, style) in enumerate(buttons):
            view.add_item(ActionButton(ids.lobby_id(session.id, op), label=label, style=style,
                                       row=first + i // PER_ROW))
    content = f"<@{session.host_id}> opened a table of **{game.name}**." if session.status == "lobby" \
        else f"The table of **{game.name}** was closed."
    if waiting:  # pinged when the lobby is posted (an edit pings nobody)
        content += f"\n🔁 Play again: {' '.join(f'<@{p.user_id}>' for p in waiting)}, press **Join** to take a seat."
    if note:
        content += "\n" + note
    return Payload(content=content, panels=[panel], view=view,
                   mention_users=[p.user_id for p in waiting])


def invited(session: Session) -> list:
    """The people a "Play again" lobby waits for: invited back, not seated yet."""
    rematch = session.rematch_of() if session.status == "lobby" else None
    if rematch is None:
        return []
    return [p for p in rematch.people if session.seat_of_user(p.user_id) is None]


RECORD_MENU_MAX = 25
"""Options in the records menu (Discord's limit): "a new one" and the 24 latest."""
NEW_RECORD = "»new"
"""The menu value for "a new record" (no record name starts with it)."""


def records_payload(session: Session, user_id: int, rows: list) -> Payload:
    """The ephemeral menu of a person's records for this game (the newest first); games whose
    seats bring several (a party of characters) take several picks."""
    game = session.game()
    label = game.record_label
    seat = session.seat_of_user(user_id)
    current = seat.record_names if seat else None
    options = [discord.SelectOption(label=f"A new {label}"[:100], value=NEW_RECORD,
                                    default=current == [])]
    for row in rows[:RECORD_MENU_MAX - 1]:
        options.append(discord.SelectOption(label=row.name[:100], value=row.name[:100],
                                            description=f"played {row.version} time(s)"[:100],
                                            default=bool(current) and row.name in (current or [])))
    most = max(1, min(game.records_per_seat, len(options)))
    view = RoutedView()
    view.add_item(ActionSelect(ids.record_id(session.id), options=options, max_values=most,
                               placeholder=(f"Your {label}s (up to {most})" if most > 1
                                            else f"Your {label}")[:150]))
    several = f" (up to {game.records_per_seat})" if game.records_per_seat > 1 else ""
    if rows:
        text = (f"Which {label}{'s' * (game.records_per_seat > 1)}{several} do you bring to this "
                f"table? Without a choice, your latest one comes.")
    else:
        text = f"You have no {label} here yet: a new one is made when the game starts."
    return Payload(content=text, view=view)


def _page_title(game_name: str, title: str) -> str:
    """A page title without the game's name when it repeats it ("Gods of Magic: the idea")."""
    prefix = f"{game_name}: "
    return title[len(prefix):].capitalize() if title.startswith(prefix) else title


def rules_panels(game_id: str) -> list[Panel]:
    game = rules.get_game(game_id)
    pages = game.rules_pages()
    return [
        Panel(title=f"{game.name} · {_page_title(game.name, p.title)}", description=p.body,
              colour=game.colour,
              footer=f"Page {i + 1} of {len(pages)}")
        for i, p in enumerate(pages)
    ]


def rules_page_payload(game_id: str, index: int) -> Payload:
    """Page `index` of a game's rules (the last one if past it) with « Previous / Next » buttons,
    routed by custom id like every control (bot/ui/items.py): they keep working after a restart."""
    pages = rules_panels(game_id)
    index = max(0, min(index, len(pages) - 1))
    view = RoutedView()
    view.add_item(ActionButton(ids.rules_page_id(game_id, max(0, index - 1)), label="« Previous",
                               disabled=index == 0))
    view.add_item(ActionButton(ids.rules_page_id(game_id, min(len(pages) - 1, index + 1)), label="Next »",
                               disabled=index >= len(pages) - 1))
    return Payload(panels=[pages[index]], view=view)
