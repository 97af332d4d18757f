"""The local table: play a game in the terminal, hot-seat, on the same session
service and SQLite file as the Discord bot.

    python -m bot play GAME [--players N] [--bots N] [--seed S] [--option k=v] [--save NAME] [--new]
    python -m bot play --list

(or `pantheon play ...`, `scripts/run play ...`: what it prints names the command that was run).

Each game has its own save, and `--save NAME` keeps more (one game each): an unfinished game is
resumed next time, and a save is only ever ended by `--new` (said aloud), never by another game,
and only once the new game is known to start (its options, its seats).
Each save is a channel of no server, numbered below zero, where no Discord channel can be.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import signal
import sys
import time
import zlib
from collections import Counter

import rules
from bot import table
from bot.config import Settings, invoked_as
from bot.sessions import ServiceError, SessionService
from bot.store import Store, StoreError
from bot.terminal import payload_text, plain
from rules.core import Game, IllegalAction, name_players, new_seed
from rules.core.text import count

LOCAL_GUILD = None
LOCAL_USER = 1
"""Player 1 at the keyboard, the host of every local game (Discord ids are far larger)."""
LEGACY_CHANNEL = 1
"""Where the local table kept its one game before saves had names: still resumed and listed."""
NAMED_BASE = 10**7
"""Named saves are channels -(NAMED_BASE + code); each game's own save is above -NAMED_BASE."""
SAVE_NAME = re.compile(r"[a-z0-9-]{1,12}")
_ALPHABET = "-0123456789abcdefghijklmnopqrstuvwxyz"
MOVE_MAX = 40
"""The longest typed move read, as /move reads it."""
EVENTS_SHOWN = 16
"""Past this many lines for one move of automatic players finishing a game alone (nobody at the
keyboard is left in it), a summary; while a person plays, every line is shown."""
KEPT_KINDS = {"eliminated"}
"""Events a summary still shows (a player out of the game)."""


def game_channel(game_id: str) -> int:
    """The channel of a game's own save."""
    return -(1 + zlib.crc32(game_id.encode()) % (NAMED_BASE - 1))


def save_channel(game_id: str, name: str | None) -> int:
    """The channel of a save: the game's own, or a named one (`--save club`)."""
    if name is None or name == game_id:
        return game_channel(game_id)
    if not SAVE_NAME.fullmatch(name):
        raise ServiceError("A save name is 1 to 12 lower-case letters, digits or dashes "
                           f"(not `{name[:20]}`).")
    code = 0
    for ch in reversed(name):  # bijective base 37: every name has its own number
        code = code * len(_ALPHABET) + _ALPHABET.index(ch) + 1
    return -(NAMED_BASE + code)


def save_name(channel_id: int, game_id: str) -> str | None:
    """The save a channel is, or None for a channel that is no local save."""
    if channel_id in (LEGACY_CHANNEL, game_channel(game_id)):
        return game_id
    if channel_id > -NAMED_BASE:
        return None
    code, chars = -channel_id - NAMED_BASE, []
    while code:
        code, digit = divmod(code - 1, len(_ALPHABET))
        chars.append(_ALPHABET[digit])
    return "".join(chars)


def resume_command(game_id: str, name: str) -> str:
    return f"{invoked_as()} play {game_id}" + ("" if name == game_id else f" --save {name}")


def _ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        return "q"


async def _saved(svc: SessionService, game_id: str, name: str | None):
    """The unfinished session in this save (for a game's own save, also the one kept where the
    local table kept its only game before), or None."""
    session = await svc.active_in_channel(save_channel(game_id, name))
    if session is None and (name is None or name == game_id):
        legacy = await svc.active_in_channel(LEGACY_CHANNEL)
        if legacy is not None and legacy.game_id == game_id and legacy.guild_id is None:
            session = legacy
    return session


async def play(args: argparse.Namespace, settings: Settings, ask=_ask, out=print) -> int:
    store = await Store.open(settings.database)
    seed = args.seed
    svc = SessionService(store, seed_source=(lambda: seed) if seed is not None else new_seed)
    name = getattr(args, "save", None)
    try:
        channel = save_channel(args.game, name)
        session = await _saved(svc, args.game, name)
        if session is not None and session.status != "lobby" and session.game_id != args.game:
            raise ServiceError(f"The save `{name}` holds a game of {session.game().name}: resume it with "
                               f"`{resume_command(session.game_id, name or session.game_id)}`, or "
                               f"choose another --save name (play --list shows them).")
        options: dict[str, str] = {}
        if session is None or session.status == "lobby" or args.new:
            options = check_new_game(args)  # everything a new game could refuse, before ending any
        if session is not None and session.status == "lobby":  # a start that never finished
            await svc.end(session.id, session.host_id, can_manage=True)
            session = None
        if session is not None and args.new:
            await svc.end(session.id, session.host_id, can_manage=True)
            out(f"Ended game #{session.id} of {session.game().name} (--new).")
            session = None
        if session is None:
            session = await svc.open_lobby(guild_id=LOCAL_GUILD, channel_id=channel, game_id=args.game,
                                           host_id=LOCAL_USER, host_name="Player 1",
                                           options={**options, "turn_timer": "0"})
            for i in range(2, args.players + 1):
                session = await svc.join(session.id, i, f"Player {i}")
            for _ in range(args.bots):
                session = await svc.add_bot(session.id, 1)
            result = await svc.start(session.id, LOCAL_USER)
            session = result.session
            _print_events(out, session, result.events, None, people_in_game(session))
        else:
            out(f"Resuming game #{session.id} of {session.game().name} (save "
                f"{save_name(session.channel_id, session.game_id)}; --new to start over).")
        return await _loop(svc, session.id, ask, out)
    finally:
        await store.close()


async def list_saves(settings: Settings, out=print) -> int:
    """`play --list`: every unfinished local game, with the command that resumes it."""
    store = await Store.open(settings.database)
    try:
        svc = SessionService(store)
        rows = []
        for session in await svc.sessions_of_user(LOCAL_USER):
            name = save_name(session.channel_id, session.game_id)
            if session.guild_id is not None or name is None:
                continue
            game, state = session.game(), session.state()
            names = session.names()
            waiting = ", ".join(names.get(p, p) for p in game.to_act(state)) or "nobody"
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(session.updated_at))
            people = sum(1 for s in session.seats if s.user_id is not None and not s.auto)
            rows.append(f"  {name:<13} {game.name}, game #{session.id}, {count(len(session.seats), 'seat')} "
                        f"({people} at the keyboard), {waiting} to play, last move {when}\n"
                        f"  {'':<13} {resume_command(session.game_id, name)}")
        if not rows:
            out(f"No saved local game. Start one: {invoked_as()} play GAME (play --help).")
            return 0
        out("Saved local games (--new ends one and starts over):")
        for row in rows:
            out(row)
        return 0
    finally:
        await store.close()


def options_help() -> str:
    """Every installed game's options and their choices, for `play --help`."""
    lines = ["game options (--option KEY=VALUE):"]
    for gid, game in sorted(rules.GAMES.items()):
        if gid.startswith("test-"):
            continue
        specs = game.options
        if not specs:
            lines.append(f"  {gid}: none")
            continue
        lines.append(f"  {gid}:")
        for spec in specs:
            choices = ", ".join(c.value for c in spec.choices)
            lines.append(f"    {spec.key}={{{choices}}}  {spec.label} (default {spec.default})")
    return "\n".join(lines)


def check_new_game(args: argparse.Namespace) -> dict[str, str]:
    """The options of the game `args` asks for, once everything that could refuse to start it
    has been asked: the options and their values, the number of seats, the game's own setup
    (played once on a throwaway seed). ServiceError with the reason otherwise, so that `--new`
    never ends a save for a game that cannot start."""
    options = parse_options(args.option)
    game = rules.get_game(args.game)
    seats = args.players + args.bots
    try:
        resolved = game.resolve_options(options)
        if args.players < 1 or args.bots < 0:
            raise IllegalAction("--players is at least 1 (you) and --bots at least 0.")
        if seats > game.max_players:
            raise IllegalAction(f"{game.name} seats at most {game.max_players} "
                                f"(--players {args.players} and --bots {args.bots} make {seats}).")
        game.check_players(seats)
        game.start([str(i) for i in range(1, seats + 1)], resolved, 0)
    except IllegalAction as exc:
        raise ServiceError(exc.message) from None
    return options


def parse_options(given: list[str]) -> dict[str, str]:
    """`--option key=value` pairs; ServiceError (one line) for one without `=`."""
    out: dict[str, str] = {}
    for item in given:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise ServiceError(f"--option takes key=value (for example --option quest=iron-throne), "
                               f"not `{item[:40]}`.")
        out[key] = value
    return out


def people_in_game(session) -> set[str]:
    """The seats of the people at this keyboard (every seat no automatic player has)."""
    return {s.player_id for s in session.seats if s.user_id is not None and not s.auto}


def _print_events(out, session, events, player, present: set[str]) -> None:
    """The events this player may see, one a line. While somebody at the keyboard is in the game
    (`present`, the people not yet out; updated here) every line is shown: scoring, damage, what
    the next player needs. Once the last of them is out, what the automatic players do alone is
    summarised past EVENTS_SHOWN lines: the first lines, a count of the rest by kind, every
    player out, and the last lines."""
    names, users = session.names(), _users(session)
    shown = [e for e in events if e.kind != "game_over"  # the table's result panel says it, once
             and (e.visible_for(player) or e.visible_for(None))]
    lines = ["  • " + plain(name_players(e.text, names), users).replace("/move ", "type ")
             for e in shown]
    alone_from = len(shown) if present else 0
    for i, e in enumerate(shown):
        if e.kind == "eliminated" and present and e.data.get("player") in present:
            present.discard(e.data["player"])
            if not present:
                alone_from = i + 1
    for line in lines[:alone_from]:
        out(line)
    shown, lines = shown[alone_from:], lines[alone_from:]
    if len(lines) <= EVENTS_SHOWN:
        for line in lines:
            out(line)
        return
    head, tail = 4, EVENTS_SHOWN - 6
    skipped = shown[head:len(shown) - tail]
    kinds = Counter(e.kind.replace("_", " ") for e in skipped)
    summary = ", ".join(f"{kind} ×{n}" for kind, n in kinds.most_common(6))
    for line in lines[:head]:
        out(line)
    out(f"  … {len(skipped)} more events while the automatic players played on ({summary}) …")
    for i in range(head, len(shown) - tail):
        if shown[i].kind in KEPT_KINDS:
            out(lines[i])
    if any(e.kind in KEPT_KINDS for e in skipped):
        out("  …")
    for line in lines[-tail:]:
        out(line)


def _users(session) -> dict[str, str]:
    """User id -> name, for the mentions in the bot's text."""
    return {str(s.user_id): s.name for s in session.seats if s.user_id is not None}


def _text(session, payload: table.Payload) -> str:
    """A message for the terminal: markdown read plain, mentions as names, pictures named."""
    return payload_text(payload.content, payload.panels, _users(session)).replace("/move ", "type ")


def typed_moves(game: Game) -> bool:
    """Whether the game reads typed moves (/move), as the prompt does too."""
    return type(game).parse_move_text is not Game.parse_move_text


def _hot_seat(session) -> bool:
    """Two or more people share the keyboard in a game with hands to hide."""
    return session.game().has_private_view and len(people_in_game(session)) > 1


def _choices(session, pid: str, focus: str | None) -> list[tuple]:
    """The menu: (seat, action) pairs, the action None for handing the keyboard over. `pid` is
    the player to act; `focus` another person at the keyboard who may react and has it now. In
    hot-seat another person's reactions are theirs to see: the menu offers to pass them the
    keyboard (and them to give it back), never their moves."""
    game, state, names = session.game(), session.state(), session.names()
    people = {s.player_id: s for s in session.seats if s.user_id is not None and not s.auto}
    viewer = focus or pid
    choices: list[tuple] = [(people[viewer], a) for a in
                            table.named_actions(game.legal_actions(state, viewer), names)]
    if focus is not None:
        return choices + [(people[pid], None)]
    for other in game.may_act(state):
        if other != pid and other in people:
            if _hot_seat(session):
                choices.append((people[other], None))
            else:
                choices += [(people[other], a)
                            for a in table.named_actions(game.legal_actions(state, other), names)]
    return choices


async def _loop(svc: SessionService, session_id: int, ask, out) -> int:
    session = await svc.get(session_id)
    present = people_in_game(session)
    at_keyboard = str(LOCAL_USER)  # whoever typed the command: Player 1
    focus: str | None = None  # another person at the keyboard, reacting out of turn
    while True:
        session = await svc.get(session_id)
        game, state = session.game(), session.state()
        names = session.names()
        waiting = [p for p in game.to_act(state) if (s := session.seat(p)) and not s.auto]
        if focus is not None and focus not in game.may_act(state):
            focus = None
        viewer = focus or (waiting[0] if waiting else None)
        if (_hot_seat(session) and viewer is not None and viewer != at_keyboard
                and game.result(state) is None and session.status == "active"):
            # hot-seat: a hand is shown only once its player sits at the keyboard
            answer = ask(f"\nPass the keyboard to {names.get(viewer, viewer)}, then press "
                         "Enter (q to quit, the game is saved): ").strip()
            if answer.lower() in {"q", "quit", "exit"}:
                out("Saved. Run the same command again to go on.")
                return 0
            at_keyboard = viewer
        out("\n" + _text(session, table.table_payload(session, with_events=False)))
        if game.result(state) is not None or session.status != "active":
            return 0
        if not waiting or viewer is None:
            out("Nobody can act; the game cannot go on.")
            return 1
        pid = waiting[0]
        if game.has_private_view:
            mine = "\n" + _text(session, table.private_payload(session, viewer))
            if _hot_seat(session):  # say whose view this is
                mine = f"\n— {names.get(viewer, viewer)} only —" + mine
            out(mine)
        choices = _choices(session, pid, focus)
        first = session.seat(viewer)
        assert first is not None
        typed = typed_moves(game) and focus is None
        out(f"\n{first.name}, choose" + (" or type a move" if typed else "")
            + " (q to quit, the game is saved):")
        for i, (by_seat, a) in enumerate(choices, 1):
            if a is None:
                out(f"  {i:>2}. " + (f"({by_seat.name} may react) Pass the keyboard to {by_seat.name}"
                                     if focus is None else f"Done: back to {by_seat.name}"))
                continue
            group = f"[{name_players(a.group, names)}] " if a.group else ""
            by = "" if by_seat is first else f"({by_seat.name} may react) "
            out(f"  {i:>2}. {by}{group}{a.label}")
        answer = ask("> ").strip()
        if answer.lower() in {"q", "quit", "exit"}:
            out("Saved. Run the same command again to go on.")
            return 0
        if typed and answer and not answer.isdigit():
            await _typed_move(svc, session, first, answer, out, present)
            continue
        if not answer.isdigit() or not 1 <= int(answer) <= len(choices):
            out(f"Type a number from 1 to {len(choices)}" + (", or a move" if typed else "") + ".")
            continue
        chooser, action = choices[int(answer) - 1]
        if action is None:  # the keyboard goes to another person (or back)
            focus = None if focus is not None else chooser.player_id
            continue
        pid = chooser.player_id
        assert chooser.user_id is not None
        text = None
        if action.text_prompt:
            text = ask(f"{action.text_prompt} ").strip() or None
        try:
            result = await svc.act(session_id, chooser.user_id, action.key, version=session.version,
                                   text=text)
        except (ServiceError, IllegalAction) as exc:
            out(f"! {getattr(exc, 'message', exc)}")
            continue
        _print_events(out, result.session, result.events, pid, present)


async def _typed_move(svc: SessionService, session, seat, text: str, out, present: set[str]) -> None:
    """A move typed at the prompt (`b3 c5`, or `/move b3 c5`), read by the parser /move uses."""
    text = text.removeprefix("/move").strip()
    if len(text) > MOVE_MAX:
        out(f"! A move is short; that text has {len(text)} characters (at most {MOVE_MAX}).")
        return
    assert seat.user_id is not None
    try:
        keys = session.game().parse_move_text(session.state(), seat.player_id, text)
        result = await svc.act(session.id, seat.user_id, keys, version=session.version)
    except (ServiceError, IllegalAction) as exc:
        out(f"! {getattr(exc, 'message', exc)}")
        return
    _print_events(out, result.session, result.events, seat.player_id, present)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog=f"{invoked_as()} play", description="Play a game in the terminal.",
        epilog=options_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", choices=sorted(rules.GAMES))
    parser.add_argument("--list", action="store_true", help="the saved local games, and how to resume each")
    parser.add_argument("--save", metavar="NAME", default=None,
                        help="keep this game in a save of its own (1-12 of a-z 0-9 -); default: the game's own")
    parser.add_argument("--rules", action="store_true", help="print the game's rules and stop")
    parser.add_argument("--players", type=int, default=1, help="people at this keyboard (hot-seat)")
    parser.add_argument("--bots", type=int, default=None, help="automatic players (default: fill to the minimum)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--new", action="store_true", help="end the unfinished game in this save and start over")
    args = parser.parse_args(argv)
    if args.list:
        try:
            return asyncio.run(list_saves(Settings()))
        except StoreError as exc:
            print(f"Cannot open the database: {exc}", file=sys.stderr)
            return 2
    if args.game is None:
        parser.error("name a game (or --list the saved ones)")
    game = rules.get_game(args.game)
    if args.rules:
        for page in game.rules_pages():
            print(f"== {page.title} ==\n{plain(page.body)}\n")
        return 0
    if args.bots is None:
        args.bots = max(0, game.min_players - args.players)
    settings = Settings()
    # `docker stop` and service managers send SIGTERM: stop like Ctrl-C (every move is already
    # committed, so there is nothing else to save)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        return asyncio.run(play(args, settings))
    except StoreError as exc:
        print(f"Cannot open the database: {exc}", file=sys.stderr)
        return 2
    except (ServiceError, IllegalAction) as exc:
        print(getattr(exc, "message", exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nSaved. Run the same command again to go on.")
        return 0
