"""The local table: play a game in the terminal, hot-seat, on the same session
service and SQLite file as the Discord bot.

    python -m bot play GAME [--players N] [--bots N] [--seed S] [--option k=v] [--new]

An unfinished local game is resumed next time (use --new to end it and start over).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import signal
import sys

import rules
from bot import table
from bot.config import Settings
from bot.sessions import ServiceError, SessionService
from bot.store import Store, StoreError
from rules.core import IllegalAction, name_players, new_seed

LOCAL_GUILD = None
LOCAL_CHANNEL = 1  # the terminal is "channel 1" of no server


def _ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        return "q"


async def play(args: argparse.Namespace, settings: Settings, ask=_ask, out=print) -> int:
    store = await Store.open(settings.database)
    seed = args.seed
    svc = SessionService(store, seed_source=(lambda: seed) if seed is not None else new_seed)
    try:
        session = await svc.active_in_channel(LOCAL_CHANNEL)
        if session is not None and (args.new or session.game_id != args.game or session.status == "lobby"):
            await svc.end(session.id, session.host_id, can_manage=True)
            session = None
        if session is None:
            options = parse_options(args.option)
            session = await svc.open_lobby(guild_id=LOCAL_GUILD, channel_id=LOCAL_CHANNEL, game_id=args.game,
                                           host_id=1, host_name="Player 1", options={**options, "turn_timer": "0"})
            for i in range(2, args.players + 1):
                session = await svc.join(session.id, i, f"Player {i}")
            for _ in range(args.bots):
                session = await svc.add_bot(session.id, 1)
            result = await svc.start(session.id, 1)
            session = result.session
            _print_events(out, session, result.events, None)
        else:
            out(f"Resuming game #{session.id} of {session.game().name} (use --new to start over).")
        return await _loop(svc, session.id, ask, out)
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


def _print_events(out, session, events, player) -> None:
    names = session.names()
    for e in events:
        if e.kind == "game_over":
            continue  # the table's result panel says it, once
        if e.visible_for(player) or e.visible_for(None):
            out("  • " + _unmention(session, name_players(e.text, names)))


_BOLD = re.compile(r"\*\*([^*\n]{1,200})\*\*")
_TIME = re.compile(r"<t:\d{1,12}:R>")
_CHANNEL = re.compile(r"<#\d{1,20}>")


def _plain(text: str) -> str:
    return _BOLD.sub(r"\1", text).replace("`", "")


def _unmention(session, text: str) -> str:
    """Text written for Discord, for the terminal: mentions as the players' names, no bold
    marks, backticks, timestamps or channel links."""
    names = {str(s.user_id): s.name for s in session.seats if s.user_id is not None}
    text = re.sub(r"<@(\d{1,20})>", lambda m: names.get(m.group(1), m.group(0)), text)
    text = _BOLD.sub(r"\1", text).replace("`", "")
    return _CHANNEL.sub("this table", _TIME.sub("soon", text))


async def _loop(svc: SessionService, session_id: int, ask, out) -> int:
    while True:
        session = await svc.get(session_id)
        out("\n" + _unmention(session, table.table_payload(session).text()))
        game, state = session.game(), session.state()
        if game.result(state) is not None or session.status != "active":
            return 0
        waiting = [p for p in game.to_act(state) if (s := session.seat(p)) and not s.auto]
        if not waiting:
            out("Nobody can act; the game cannot go on.")
            return 1
        pid = waiting[0]
        if game.has_private_view:
            out("\n" + _unmention(session, table.private_payload(session, pid).text()))
        # the player to act, then the reactions other people at this keyboard may make now
        people = {s.player_id: s for s in session.seats if s.user_id is not None and not s.auto}
        first = people[pid]
        choices = [(first, a) for a in game.legal_actions(state, pid)]
        for other in game.may_act(state):
            if other != pid and other in people:
                choices += [(people[other], a) for a in game.legal_actions(state, other)]
        out(f"\n{first.name}, choose (q to quit, the game is saved):")
        for i, (by_seat, a) in enumerate(choices, 1):
            group = f"[{a.group}] " if a.group else ""
            by = "" if by_seat is first else f"({by_seat.name} may react) "
            out(f"  {i:>2}. {by}{group}{a.label}")
        answer = ask("> ").strip().lower()
        if answer in {"q", "quit", "exit"}:
            out("Saved. Run the same command again to go on.")
            return 0
        if not answer.isdigit() or not 1 <= int(answer) <= len(choices):
            out(f"Type a number from 1 to {len(choices)}.")
            continue
        chooser, action = choices[int(answer) - 1]
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
        _print_events(out, result.session, result.events, pid)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot play", description="Play a game in the terminal.",
        epilog=options_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=sorted(rules.GAMES))
    parser.add_argument("--rules", action="store_true", help="print the game's rules and stop")
    parser.add_argument("--players", type=int, default=1, help="people at this keyboard (hot-seat)")
    parser.add_argument("--bots", type=int, default=None, help="automatic players (default: fill to the minimum)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--new", action="store_true", help="end an unfinished local game and start over")
    args = parser.parse_args(argv)
    game = rules.get_game(args.game)
    if args.rules:
        for page in game.rules_pages():
            print(f"== {page.title} ==\n{_plain(page.body)}\n")
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
