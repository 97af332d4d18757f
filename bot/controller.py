"""Between Discord and the session service: every click and command lands here.

Handlers parse what Discord sent, call the service, and answer with rendered
payloads. Rules never live here. Every interaction is answered (or deferred)
within Discord's 3 seconds; a failed cosmetic edit is logged and never loses a
committed move (the next render shows the committed state).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

import rules
from bot import table
from bot.dms import DmKeeper
from bot.edits import EditQueue, digest
from bot.render import get_renderer
from bot.render.panel import clip
from bot.sessions import ServiceError
from bot.store import DATABASE_ERRORS
from bot.ui import ids
from bot.ui.items import TextModal
from rules.core import IllegalAction, name_players

if TYPE_CHECKING:
    from bot.models import ActResult, Session
    from bot.sessions import SessionService
    from rules.core import Event

log = logging.getLogger("pantheon.controller")
PRIVATE_NEXT = "Your next choice is private: it is in your DM from the bot (or press **My hand**)."
NOT_SAVED = ("That move could not be saved (the bot's database failed): nothing changed. "
             "Try it again in a moment.")

RESPONSE_BUDGET = 2.0  # seconds of work before we defer instead of answering directly
TEXT_MAX = 400
UNREADABLE = "This control is damaged or from an older version of Pantheon."
"""The answer to a click whose custom id the bot cannot read (followed by where to get a fresh one)."""
"""The longest line of text a form accepts (the modal's own limit; a forged one is clipped)."""
MESSAGE_MAX = 2000
TOKEN_LIFE = 14 * 60.0
"""How long an interaction's token is used to edit or delete its message (Discord: 15 minutes).
Such calls do not count against the bot's global limit of REST calls; older ones use the bot's."""
TOKENS_KEPT = 20_000


def error_text(exc: Exception) -> str:
    return getattr(exc, "message", None) or str(exc)


async def reply_error(interaction: discord.Interaction, message: str) -> None:
    """A short ephemeral explanation; nothing changes. Clipped to Discord's limit, so a
    message that repeats what the user typed is always delivered."""
    message = clip(message, MESSAGE_MAX)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException as exc:  # the user will simply see no answer
        log.warning("could not send an error reply: %s", exc)


class Controller:
    def __init__(self, bot: discord.Client, service: SessionService):
        self.bot = bot
        self.service = service
        service.before_save = table.draw_ahead  # pictures drawn while the move is written
        self.edits = EditQueue()
        self.dms = DmKeeper(self)
        self.token_life = TOKEN_LIFE
        # The latest interaction whose `@original` is a session's table (a click answered by
        # editing it), or a player's DM, and the turn ping sent as an interaction followup: their
        # tokens edit and delete those messages outside the bot's global limit while fresh.
        self._table_tokens: dict[int, tuple[discord.Interaction, float, int]] = {}
        self._dm_tokens: dict[tuple[int, str], tuple[discord.Interaction, float, int]] = {}
        self._pings: dict[int, tuple[discord.WebhookMessage, float]] = {}

    # ------------------------------------------------------------------ helpers
    async def within_budget(self, interaction: discord.Interaction, work: Awaitable[Any], *,
                            private: bool = False) -> Any:
        """Run `work`; if it takes longer than the budget, defer the interaction meanwhile. The
        deferral is a timer's: a quick answer (nearly all) costs no task and no wait of its own.
        A failed deferral is logged and the work's outcome goes on (a committed move is still
        published). The work runs in the handler's task: cancelling the handler (only done at
        shutdown) cancels it, and the store finishes or drops a commit already under way."""
        deferring: list[asyncio.Future[Any]] = []

        def late() -> None:
            if not interaction.response.is_done():
                # `private`: a command whose answer is for its user alone: its "thinking" message,
                # which the answer then replaces, is ephemeral too
                deferring.append(asyncio.ensure_future(
                    interaction.response.defer(ephemeral=True, thinking=True) if private
                    else interaction.response.defer()))

        timer = asyncio.get_running_loop().call_later(RESPONSE_BUDGET, late)
        try:
            return await work
        finally:
            timer.cancel()
            if deferring:  # the answer comes after the deferral, as an edit of the response
                try:
                    await deferring[0]
                except discord.HTTPException as exc:
                    log.warning("Deferring a slow interaction failed: %s", exc)

    @staticmethod
    async def acknowledge(interaction: discord.Interaction, text: str, *, ephemeral: bool = True) -> bool:
        """A command's short answer, once its work is done (committed): a new message, or a
        followup when the work took long enough to be deferred. No mention pings. A failed answer
        is logged and False returned: the caller still publishes what the command changed."""
        text, quiet = clip(text, MESSAGE_MAX), discord.AllowedMentions.none()
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=ephemeral, allowed_mentions=quiet)
            else:
                await interaction.response.send_message(text, ephemeral=ephemeral, allowed_mentions=quiet)
        except discord.HTTPException as exc:
            log.warning("answering /%s failed: %s", interaction.command.qualified_name
                        if interaction.command else "a command", exc)
            return False
        return True

    @staticmethod
    async def _edit_response(interaction: discord.Interaction, payload: table.Payload) -> None:
        """Answer a component click by editing its message (one edit, as the response itself)."""
        if interaction.response.is_done():
            await interaction.edit_original_response(**payload.edit_kwargs())
        else:
            await interaction.response.edit_message(**payload.edit_kwargs())

    def _fresh(self, at: float) -> bool:
        return time.monotonic() - at < self.token_life

    @staticmethod
    def _keep(store: dict, key: Any, value: Any) -> None:
        store.pop(key, None)
        store[key] = value
        while len(store) > TOKENS_KEPT:
            store.pop(next(iter(store)))

    def _table_digest(self, session: Session, payload: table.Payload) -> str:
        """What the table shows, with the newest `table_version` among the seats that have a
        control on it: a seat's private step (a card picked in a DM) leaves that version, so it
        does not re-edit the table (nobody watching the table may count private clicks)."""
        if payload.view is None or session.status != "active" or session.state_json is None:
            return digest(payload)
        game, state = session.game(), session.state()
        on_table = set()
        for pid in game.acting(state):
            seat = session.seat(pid)
            if seat is not None and not seat.auto and any(not a.private for a in session.legal_actions(pid)):
                on_table.add(pid)
        return digest(payload, max((s.table_version for s in session.seats if s.player_id in on_table), default=0))

    def _dm_digest(self, session: Session, player_id: str, payload: table.Payload) -> str:
        seat = session.seat(player_id)
        return digest(payload, seat.actions_version if seat else 0)

    def _answered(self, session: Session, interaction: discord.Interaction, audience: str | None,
                  payload: table.Payload) -> bool:
        """The clicked message now shows `payload` (the interaction response edited it): remember
        what it shows, and the interaction whose token can edit it again. False when the table
        had been edited to a newer state before this answer landed: it shows this older one now,
        and must be brought up to date again (`_act`)."""
        msg = interaction.message
        if msg is None or msg.flags.ephemeral:
            return True
        key = (msg.channel.id, msg.id)
        if self._is_table_message(session, interaction):
            newest = self.edits.shown(key, session.version, self._table_digest(session, payload),
                                      landed_last=True)
            self._keep(self._table_tokens, session.id, (interaction, time.monotonic(), msg.id))
            return newest
        elif audience is not None and interaction.guild_id is None:  # what it shows: `dms.answering`
            self._keep(self._dm_tokens, (session.id, audience), (interaction, time.monotonic(), msg.id))
        return True

    @staticmethod
    async def send_response(interaction: discord.Interaction, payload: table.Payload,
                             *, ephemeral: bool = False) -> int | None:
        """Answer with a new message; returns its id when Discord tells it."""
        kwargs = payload.send_kwargs()
        if payload.view is None:
            kwargs.pop("view", None)
        if interaction.response.is_done():
            msg = await interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)
            return msg.id
        resp = await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
        return resp.message_id if resp is not None else None

    def _is_table_message(self, session: Session, interaction: discord.Interaction) -> bool:
        msg = interaction.message
        return msg is not None and session.table_message_id == msg.id

    def _player_of(self, session: Session, user_id: int) -> str | None:
        seat = session.seat_of_user(user_id)
        return seat.player_id if seat else None

    @staticmethod
    def _private_message(interaction: discord.Interaction) -> bool:
        """The clicked message can only be seen by the clicker: an ephemeral message, or a DM
        (or no message at all: a modal opened from a command). Decided by what the message is,
        never by its not being the stored table: an old table, a re-posted one or a message the
        bot cannot read back are all public."""
        msg = interaction.message
        if msg is None:
            return True
        if msg.flags.ephemeral:
            return True
        return interaction.guild_id is None

    def _audience(self, session: Session, interaction: discord.Interaction,
                  parsed: ids.Parsed) -> str | None:
        """Who the answer to this click may show: the clicker's player id when the message is
        private to them, None for a public message (the table's content only). Refuses a private
        view's control that is not on a private message, or that belongs to another seat."""
        private = self._private_message(interaction)
        if parsed.seat is not None:
            if not private:
                raise ServiceError("This control belongs to a private view; use **My hand** or "
                                   "`/game hand` to see yours.")
            seat = session.seat_of_user(interaction.user.id)
            if seat is None:
                raise ServiceError("You are not playing in this game.")
            if seat.position != parsed.seat:
                raise ServiceError("This view belongs to another player.")
        if not private:
            return None
        player = self._player_of(session, interaction.user.id)
        if player is None:
            raise ServiceError("You are not playing in this game.")
        return player

    async def _answer_payload(self, session: Session, audience: str | None, events=None,
                              pages: dict[int, int] | None = None) -> table.Payload:
        if audience is None:
            return await table.render_table(session, pages=pages)
        return table.private_payload(session, audience, events, pages=pages)

    # ------------------------------------------------------------------ components
    async def on_component(self, interaction: discord.Interaction, custom_id: str,
                           values: object = None) -> None:
        rules_page = ids.parse_rules_page(custom_id)
        if rules_page is not None:
            await self._rules_page(interaction, *rules_page)
            return
        parsed = ids.parse(custom_id)
        if parsed is None:
            await reply_error(interaction, f"{UNREADABLE} Use `/game status` for a fresh table.")
            return
        try:
            if parsed.kind == "lobby":
                await self._lobby(interaction, parsed.session_id, parsed.key or "")
            elif parsed.kind == "option":
                await self._option(interaction, parsed.session_id, parsed.key or "", values)
            elif parsed.kind == "record":
                await self._record(interaction, parsed.session_id, values)
            elif parsed.kind == "hand":
                await self._hand(interaction, parsed.session_id)
            elif parsed.kind == "action":
                await self._action(interaction, parsed, parsed.key or "")
            elif parsed.kind == "select":
                await self._select(interaction, parsed, values)
            else:  # a form's id (pm:) on a button or a menu: no control of ours is made so
                await reply_error(interaction, f"{UNREADABLE} Use `/game status` for a fresh table.")
        except (ServiceError, IllegalAction) as exc:
            await reply_error(interaction, error_text(exc))
        except DATABASE_ERRORS as exc:  # the database failed: the move was not saved
            log.error("session %s: a click could not be saved: %s", parsed.session_id, exc, exc_info=exc)
            await reply_error(interaction, NOT_SAVED)

    @staticmethod
    async def _rules_page(interaction: discord.Interaction, game_id: str, index: int) -> None:
        """A page of `/game rules` (its « Previous / Next »: the message is ephemeral, one person's)."""
        if game_id not in rules.GAMES:
            await reply_error(interaction, f"{UNREADABLE} Use `/game rules` again.")
            return
        await interaction.response.edit_message(**table.rules_page_payload(game_id, index).edit_kwargs())

    async def _select(self, interaction: discord.Interaction, parsed: ids.Parsed, values: object) -> None:
        chosen = ids.select_value(values)
        if chosen is None:
            await reply_error(interaction, "Pick one of the options in the menu.")
            return
        kind, value = chosen
        if kind == "page":
            await self._page(interaction, parsed, int(value))
            return
        await self._action(interaction, parsed, value)

    async def _page(self, interaction: discord.Interaction, parsed: ids.Parsed, page: int) -> None:
        session = await self.service.get(parsed.session_id)
        seat = session.seat_of_user(interaction.user.id)
        if seat is not None:
            current = session.current_for(seat, parsed.version, on_table=not self._private_message(interaction))
        else:  # a spectator turning a page of the table: current while nobody's table choices changed
            newest = max((s.table_version for s in session.seats), default=0)
            current = parsed.version is not None and newest <= parsed.version <= session.version
        if not current:
            raise ServiceError("This message is out of date: the game has moved on. Use `/game status`.")
        audience = self._audience(session, interaction, parsed)
        if session.state_json is None:
            raise ServiceError("The game has not started yet.")
        await self._edit_response(interaction, await self._answer_payload(
            session, audience, pages={parsed.group or 0: page}))

    async def _action(self, interaction: discord.Interaction, parsed: ids.Parsed, key: str) -> None:
        session_id, version = parsed.session_id, parsed.version
        session = await self.service.get_current(session_id, version)
        self._audience(session, interaction, parsed)  # refuse a misplaced control before acting
        seat = session.seat_of_user(interaction.user.id)
        if seat is not None and version is not None and session.status == "active":
            action = session.action(seat.player_id, key)
            if action is not None and action.text_prompt \
                    and session.current_for(seat, version, on_table=not action.private):
                names = session.plain_names()  # the form shows players by name, as the buttons do
                modal = TextModal(ids.modal_id(session_id, version, key), title=name_players(action.label, names),
                                  prompt=name_players(action.text_prompt, names), required=action.text_required)
                await interaction.response.send_modal(modal)
                return
        await self._act(interaction, parsed, key, None, loaded=session)

    async def on_modal(self, interaction: discord.Interaction, custom_id: str, text: object) -> None:
        """A submitted text form, found by its custom id (so one sent before a restart, or after
        the form's own 15 minutes, is still applied, or refused with the reason)."""
        parsed = ids.parse(custom_id)
        if parsed is None or parsed.kind != "modal":
            await reply_error(interaction, "This form is damaged; try the button again.")
            return
        line = clip(text if isinstance(text, str) else "", TEXT_MAX).strip()
        try:
            await self._act(interaction, parsed, parsed.key or "", line or None)
        except (ServiceError, IllegalAction) as exc:
            message = error_text(exc)
            if line:  # nothing the player typed is lost: they can copy it into the next try
                message += f"\nYour line was: {clip(line, 300)}"
            await reply_error(interaction, message)

    async def _act(self, interaction: discord.Interaction, parsed: ids.Parsed, key: str,
                   text: str | None, loaded: Session | None = None) -> None:
        early: list[tuple[Session, int, str | None, table.Payload]] = []
        had_private = self._has_private(loaded, interaction.user.id)
        result: ActResult = await self.within_budget(
            interaction, self.service.act(parsed.session_id, interaction.user.id, key,
                                          version=parsed.version, text=text, loaded=loaded,
                                          while_committing=partial(self._early_answer, interaction, parsed, early)))
        session = result.session
        # who may see the answer: decided by the clicked message itself (ephemeral, DM or public)
        audience = self._audience(session, interaction, parsed)
        on_table = self._is_table_message(session, interaction)
        if early and early[0][0] is session and early[0][1:3] == (session.version, audience):
            payload = early[0][3]  # rendered while the move was being made durable
        else:
            payload = await self._answer_payload(session, audience, result.events)
        answered, superseded = True, False
        msg = interaction.message
        dm = (msg.channel.id, msg.id) if msg is not None and audience is not None \
            and interaction.guild_id is None and not msg.flags.ephemeral else None
        if msg is None:
            await self.send_response(interaction, payload, ephemeral=True)
        else:
            if dm is not None and audience is not None:
                self.dms.answering(session, audience, dm, payload)
            try:
                await self._edit_response(interaction, payload)
                superseded = not self._answered(session, interaction, audience, payload)
            except discord.HTTPException as exc:  # the move is committed: publishing shows it
                log.warning("session %s: answering a move failed: %s", session.id, exc)
                on_table = answered = False
                if dm is not None and audience is not None:
                    self.dms.answer_failed(session, audience)
        # a DM answered is up to date when it is the player's DM; one that failed is edited
        current = False
        if dm is not None and audience is not None:
            if answered:
                current = await self.dms.answered(session, audience, dm, interaction)
            else:
                await self.dms.sync(session, audience)
        await self.publish(result, table_done=on_table, skip_dm=audience if current else None,
                           actor=interaction.user.id, interaction=interaction)
        if superseded:  # this answer put an older table back over a newer one: the newest again
            await self.update_table(await self.service.get(session.id))
        if on_table and had_private is False and self._has_private(session, interaction.user.id):
            await self._point_to_private(interaction, session)

    @staticmethod
    def _has_private(session: Session | None, user_id: int) -> bool | None:
        """Whether the user's seat has a move to make in private now (None: not known here)."""
        if session is None or session.status != "active" or not session.game().has_private_view:
            return None
        seat = session.seat_of_user(user_id)
        if seat is None:
            return None
        return any(a.private for a in session.legal_actions(seat.player_id))

    @staticmethod
    async def _point_to_private(interaction: discord.Interaction, after: Session) -> None:
        """A click on the table whose next step is private (By Gods and Kings: the card to spend
        for an ability chosen on the table): the table no longer offers the clicker that step, and
        their DM was only edited (no notification), so the answer says where to go on."""
        try:
            await interaction.followup.send(PRIVATE_NEXT, ephemeral=True,
                                            allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("session %s: could not say where the next step is: %s", after.id, exc)

    def _early_answer(self, interaction: discord.Interaction, parsed: ids.Parsed,
                      early: list[tuple[Session, int, str | None, table.Payload]],
                      session: Session, events: list[Event]) -> None:
        """The answer to a move, rendered while the move is being made durable (the service's
        `while_committing`, on the event loop while the database syncs its file) into `early`,
        with the session it shows: `_act` sends it once the commit is done (the store runs this
        only for a try whose compare-and-set succeeded: a move retried after a lost race is
        rendered here once, for the session it was retried on), and renders after the commit
        only when this failed or shows another session, version or audience. A table
        with pictures is rendered after (they are drawn in a worker thread). A refusal here is
        raised again by that later render, which answers it; any other failure is logged."""
        early.clear()
        try:
            audience = self._audience(session, interaction, parsed)
            if audience is None:
                if get_renderer(session.game_id).draws_pictures:
                    return
                payload = table.table_payload(session)
            else:
                payload = table.private_payload(session, audience, events)
        except (ServiceError, IllegalAction):  # refused again, with its answer, after the commit
            return
        except Exception:  # noqa: BLE001 - rendered (and any error reported) after the commit
            log.warning("session %s: the answer rendered during the commit failed", session.id, exc_info=True)
            return
        early.append((session, session.version, audience, payload))

    # ------------------------------------------------------------------ lobby
    async def _lobby(self, interaction: discord.Interaction, session_id: int, op: str) -> None:
        user = interaction.user
        svc = self.service
        if op == "join":
            session = await svc.join(session_id, user.id, user.display_name)
        elif op == "leave":
            session = await svc.leave_lobby(session_id, user.id)
        elif op == "bot":
            session = await svc.add_bot(session_id, user.id)
        elif op == "unbot":  # the last automatic player seated (a double click on Add bot seats two)
            session = await svc.get(session_id)
            bots = [s.player_id for s in session.seats if s.auto]
            if not bots:
                raise ServiceError("There is no automatic player to remove.")
            session = await svc.remove_bot(session_id, bots[-1], user.id)
        elif op == "cancel":
            session = await svc.cancel(session_id, user.id, can_manage=can_manage(interaction))
        elif op == "swap":
            session = await svc.swap_seats(session_id, user.id)
        elif op == "cover":  # the table's ask: a person away kept it waiting past its time limit
            result = await self.within_budget(interaction, svc.cover_away(
                session_id, user.id, can_manage=can_manage(interaction)), private=True)
            await self.acknowledge(interaction, "The automatic player moves for them until they are back.")
            await self.publish(result, actor=user.id, interaction=interaction)
            return
        elif op == "again":  # "Play again" on a finished table: a new lobby, posted below it
            session = await self.within_budget(interaction, svc.rematch(
                session_id, user.id, user.display_name, can_manage=can_manage(interaction)))
            message_id = await self.send_response(interaction, table.lobby_payload(session))
            if message_id and interaction.channel_id is not None:
                await svc.set_table_message(session.id, interaction.channel_id, message_id)
            return
        elif op == "options":
            session = await svc.get(session_id)
            svc.require_host(session, user.id, can_manage(interaction), what="change the options")
            await self.send_response(interaction, table.more_options_payload(session), ephemeral=True)
            return
        elif op == "record":
            session = await svc.get(session_id)
            rows = await svc.records_of(session.guild_id, user.id, session.game_id)
            await self.send_response(interaction, table.records_payload(session, user.id, rows),
                                      ephemeral=True)
            return
        elif op == "start":
            result = await self.within_budget(interaction, svc.start(session_id, user.id))
            session = result.session
            payload = await table.render_table(session)
            answered = True
            try:
                await self._edit_response(interaction, payload)
            except discord.HTTPException as exc:  # the game has started: publishing shows it
                log.warning("session %s: answering Start failed: %s", session.id, exc)
                answered = False
            if interaction.message is not None:
                await svc.set_table_message(session.id, interaction.message.channel.id, interaction.message.id)
                session.table_channel_id = interaction.message.channel.id
                session.table_message_id = interaction.message.id
                if answered:
                    self._answered(session, interaction, None, payload)
            await self.publish(result, table_done=answered, initial=True, actor=user.id,
                               interaction=interaction)
            return
        else:
            raise ServiceError("Unknown lobby button.")
        await self._edit_response(interaction, table.lobby_payload(session))

    async def _option(self, interaction: discord.Interaction, session_id: int, key: str,
                      values: object) -> None:
        chosen = ids.select_value(values)
        if chosen is None or chosen[0] != "action":
            raise ServiceError("Pick one of the options in the menu.")
        session = await self.service.set_option(session_id, interaction.user.id, key, chosen[1])
        if self._private_message(interaction):  # the host's "More options" menu
            await self._edit_response(interaction, table.more_options_payload(session))
            await self.update_lobby(session)
        else:
            await self._edit_response(interaction, table.lobby_payload(session))

    async def _record(self, interaction: discord.Interaction, session_id: int, values: object) -> None:
        names = ids.select_values(values, most=table.RECORD_MENU_MAX)
        if not names:
            raise ServiceError("Pick one of the options in the menu.")
        if table.NEW_RECORD in names:
            names = []
        session = await self.service.choose_record(session_id, interaction.user.id, names)
        label = session.game().record_label
        said = f"You bring {' and '.join(f'**{n}**' for n in names)}." if names \
            else f"You start a new {label}."
        await interaction.response.edit_message(content=said, view=None)
        await self.update_lobby(session)

    async def update_lobby(self, session: Session) -> None:
        if not session.table_message_id or not session.table_channel_id:
            return
        channel = self.bot.get_partial_messageable(session.table_channel_id)
        try:
            await channel.get_partial_message(session.table_message_id).edit(
                **table.lobby_payload(session).edit_kwargs())
        except discord.HTTPException as exc:
            log.warning("session %s: lobby edit failed: %s", session.id, exc)

    # ------------------------------------------------------------------ private views
    async def _hand(self, interaction: discord.Interaction, session_id: int) -> None:
        session = await self.service.get(session_id)
        await self.show_hand(interaction, session)

    async def show_hand(self, interaction: discord.Interaction, session: Session) -> None:
        player = self._player_of(session, interaction.user.id)
        if player is None:
            raise ServiceError("You are not playing in this game.")
        if session.state_json is None:
            raise ServiceError("The game has not started yet.")
        await self.send_response(interaction, table.private_payload(session, player), ephemeral=True)

    # ------------------------------------------------------------------ publishing
    async def publish(self, result: ActResult, *, table_done: bool = False, skip_dm: str | None = None,
                      initial: bool = False, actor: int | None = None,
                      interaction: discord.Interaction | None = None) -> None:
        """Bring the DMs and (unless already done) the table message up to date: a new DM for a
        player whose turn has come (Discord notifies it), an edit for one whose view changed,
        nothing for one whose view reads the same. Edits go through `self.edits` (coalesced,
        paced per channel); `interaction`, the click that made the change, carries the turn ping."""
        session = result.session
        targets = [s.player_id for s in session.seats] if initial else list(result.changed_players)
        if result.result is not None or session.status != "active":
            targets = [s.player_id for s in session.seats]
        if not session.game().has_private_view:
            targets = []  # the table shows everything; DMs would only repeat it
        newly_blocked = False
        for pid in targets:
            seat = session.seat(pid)
            if seat is None or seat.auto or seat.user_id is None or pid == skip_dm:
                continue
            if seat.dm_blocked and not initial:
                continue
            blocked = await self.update_dm(session, pid, result.events,
                                           fresh=pid in result.newly_to_act and not initial)
            if blocked and not seat.dm_blocked:
                newly_blocked = True
        if newly_blocked:
            session = await self.service.get(session.id)
        if (not table_done and not result.table_same) or newly_blocked:
            await self.update_table(session)
        if session.status != "active":
            self._table_tokens.pop(session.id, None)
            if session.table_channel_id:
                await self._delete_ping(session)  # nobody's turn any more
            return
        await self.ping_turn(session, result, actor, interaction)

    async def ping_turn(self, session: Session, result: ActResult, actor: int | None,
                        interaction: discord.Interaction | None = None) -> None:
        """Tell people in the channel that their turn has come when no DM did it (nothing hidden
        in the game, or DMs closed). One ping message per table: the previous one is deleted.
        The ping is a followup of the click that passed the turn when that click was in the
        table's channel, and the old ping is deleted through the token that sent it while it is
        fresh: neither counts against the bot's global limit."""
        ping = []
        for pid in result.newly_to_act:
            seat = session.seat(pid)
            if seat is None or seat.auto or seat.user_id is None or seat.user_id == actor:
                continue
            if session.game().has_private_view and not seat.dm_blocked:
                continue  # their fresh DM notified them
            ping.append(seat.user_id)
        if not ping or not session.table_channel_id:
            return
        text = f"🔔 {' '.join(f'<@{u}>' for u in ping)}: your turn in **{session.game().name}** (table above)."
        mentions = table.pings(ping)
        channel = self.bot.get_partial_messageable(session.table_channel_id)
        try:
            await self._delete_ping(session)
            if interaction is not None and interaction.channel_id == session.table_channel_id \
                    and interaction.guild_id is not None and interaction.response.is_done():
                sent = await interaction.followup.send(text, allowed_mentions=mentions, wait=True)
                self._keep(self._pings, session.id, (sent, time.monotonic()))
                msg_id = sent.id
            else:
                msg_id = (await channel.send(text, allowed_mentions=mentions)).id
            await self.service.set_ping_message(session.id, channel.id, msg_id)
        except discord.HTTPException as exc:
            log.warning("session %s: turn ping failed: %s", session.id, exc)

    async def _delete_ping(self, session: Session) -> None:
        """Delete the table's last turn ping, if any (through its token while that is fresh)."""
        old = self._pings.pop(session.id, None)
        if old is not None and self._fresh(old[1]):
            try:
                await old[0].delete()
            except discord.HTTPException:
                pass
            return
        known = await self.service.ping_message(session.id)
        if known is not None and session.table_channel_id:
            try:
                await self.bot.get_partial_messageable(session.table_channel_id).get_partial_message(
                    known[1]).delete()
            except discord.HTTPException:
                pass

    async def show_ended(self, session: Session, note: str | None = None) -> None:
        """A game ended by a command (`/game end`): the table and every player's DM say so (no
        DM keeps controls that only answer "finished"), and the turn ping goes."""
        if session.state_json is not None and session.game().has_private_view:
            for seat in session.seats:
                if seat.user_id is not None and not seat.auto and not seat.dm_blocked:
                    await self.update_dm(session, seat.player_id, [])
        await self.update_table(session, note=note)
        self._table_tokens.pop(session.id, None)
        if session.table_channel_id:
            await self._delete_ping(session)

    async def update_table(self, session: Session, note: str | None = None) -> None:
        """Queue the table's edit (skipped when it would read the same)."""
        if not session.table_message_id or not session.table_channel_id:
            return
        channel_id, message_id = session.table_channel_id, session.table_message_id
        payload = await table.render_table(session, note=note)
        key = (channel_id, message_id)
        token = self._table_tokens.get(session.id)

        light = session.unparsed()  # what the edit keeps while it waits its turn

        async def send() -> bool:
            if token is not None and token[2] == message_id and self._fresh(token[1]):
                try:
                    await token[0].edit_original_response(**payload.edit_kwargs())
                    return True
                except discord.HTTPException:
                    pass  # expired or refused: the bot's own edit below
            channel = self.bot.get_partial_messageable(channel_id)
            try:
                await channel.get_partial_message(message_id).edit(**payload.edit_kwargs())
                return True
            except discord.NotFound:
                await self._repost_table(light, channel_id, message_id, note)
            except discord.HTTPException as exc:
                log.warning("session %s: table edit failed (the state is safe): %s", light.id, exc)
            return False

        self.edits.submit(key, send, order=session.version, digest=self._table_digest(session, payload))

    async def _repost_table(self, session: Session, channel_id: int, gone: int,
                            note: str | None = None) -> None:
        """The table message `gone` was deleted (a moderator, a cleared channel): post the newest
        table once. Edits queued for `gone` after another edit already reposted it go to that
        repost instead of posting the table again."""
        latest = await self.service.get(session.id)
        if latest.version != session.version:
            note = None  # the note was about an older version
        if latest.table_message_id and latest.table_message_id != gone:
            # through the queue, under the repost's own key: ordered with the other edits of it,
            # and posted anew if the repost is gone too
            await self.update_table(latest, note=note)
            return
        fresh = await table.render_table(latest, note=note)
        channel = self.bot.get_partial_messageable(latest.table_channel_id or channel_id)
        try:
            msg = await channel.send(**fresh.send_kwargs())
            await self.service.set_table_message(session.id, channel.id, msg.id)
        except discord.HTTPException as exc:
            log.warning("session %s: cannot post the table: %s", session.id, exc)

    async def update_dm(self, session: Session, player_id: str, events=None, *, fresh: bool = False) -> bool:
        """Bring a player's private view by DM up to date (bot/dms.py). Returns True when their
        DMs are closed.

        `fresh`: their turn has just come, so the view is sent anew (Discord notifies a new DM,
        not an edit) and the previous one is deleted: one message per player, never a pile.
        Otherwise their DM is edited in the background, and not at all when it reads the same."""
        seat = session.seat(player_id)
        assert seat is not None and seat.user_id is not None
        return await self.dms.update(session, player_id, table.private_payload(session, player_id, events),
                                     fresh=fresh)

    # ------------------------------------------------------------------ timers
    async def tick(self) -> None:
        """Send due reminders and let the automatic player take timed-out turns."""
        for session in await self.service.due_reminders():
            now = self.service.clock()
            to_act = [p for p in session.game().to_act(session.state())
                      if (s := session.seat(p)) and not s.auto and not s.is_away(now)]  # nobody away
            waiting = [table.mention(session, p) for p in to_act]
            channel = self.bot.get_partial_messageable(session.table_channel_id or session.channel_id)
            try:
                if waiting:  # in the table's one ping slot: daily reminders do not pile up
                    await self._delete_ping(session)
                    sent = await channel.send(
                        f"⏳ {', '.join(waiting)}: your turn in **{session.game().name}** ends "
                        f"<t:{int(session.deadline or 0)}:R>; after that the automatic player moves for you.",
                        allowed_mentions=table.pings(table.mentioned_users(session, to_act)))
                    await self.service.set_ping_message(session.id, channel.id, sent.id)
            except discord.HTTPException as exc:
                log.warning("session %s: reminder failed: %s", session.id, exc)
            await self.service.mark_reminded(session.id)
        for result in await self.service.expire_turns():
            await self.publish(result)
        await self.edits.drain(once=True)


def channel_of(interaction: discord.Interaction) -> int:
    """The channel an interaction came from (Discord always sends one for commands here)."""
    if interaction.channel_id is None:
        raise ServiceError("Use this in a channel.")
    return interaction.channel_id


def can_manage(interaction: discord.Interaction) -> bool:
    """The member may manage this channel (and so end or take over any game in it)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_channels)

