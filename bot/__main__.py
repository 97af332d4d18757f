"""Pantheon's command: `python -m bot`, installed as `pantheon`, `scripts/run` in a checkout.

python -m bot: run the Discord bot.
python -m bot play GAME ...: a game in the terminal (the local table; play --help for options).
python -m bot health: whether the running bot is connected (reads HEARTBEAT_PATH).
python -m bot migrate --to postgresql://...: copy the data into PostgreSQL (migrate --help).
python -m bot preview GAME: what players see in a scripted game, as HTML (preview --help)."""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from bot.config import Settings, invoked_as

NO_TOKEN = """\
Pantheon needs a Discord bot token to connect, and DISCORD_TOKEN is not set.

To get one:
  1. Open https://discord.com/developers/applications and create an application.
  2. In "Bot", reset and copy the token; {where}
  3. In "OAuth2 > URL Generator" tick the scopes bot and applications.commands and the
     permissions Send Messages, Send Messages in Threads, Embed Links, Attach Files and
     Read Message History; open the URL to invite the bot to your server.

No token yet? Try a game in the terminal on the local table:
{examples}
"""

IN_A_FILE = """put it in a file named .env here:
         DISCORD_TOKEN=your-token
     (copy .env.example to start from every setting)."""
IN_DOCKER = """pass it to the container:
         docker run -e DISCORD_TOKEN=your-token -v pantheon-data:/data pantheon"""


def no_token_message() -> str:
    """The help for a missing token, with a local-table line for every installed game, each
    written with the command that was run (`pantheon`, `python -m bot`, `scripts/run`, the
    image's `docker run ...`)."""
    from rules import GAMES

    command = invoked_as()
    width = max((len(g) for g in GAMES), default=0)
    examples = "\n".join(
        f"     {command} play {game_id:<{width}}  # {game.name}, {_players(game)}"
        for game_id, game in GAMES.items())
    where = IN_DOCKER if command.startswith("docker ") else IN_A_FILE
    return NO_TOKEN.format(where=where, examples=examples)


def usage() -> str:
    """The module's help, with the command that was run."""
    command = invoked_as()
    return "\n".join(command + line.removeprefix("python -m bot") if line.startswith("python -m bot")
                     else line for line in (__doc__ or "").splitlines())


def _players(game) -> str:
    from rules import IllegalAction

    counts = []
    for n in range(game.min_players, game.max_players + 1):
        try:
            game.check_players(n)
        except IllegalAction:
            continue
        counts.append(str(n))
    if counts == ["1"]:
        return "solo"
    if len(counts) > 2 and int(counts[-1]) - int(counts[0]) == len(counts) - 1:
        return f"{counts[0]}-{counts[-1]} players"
    return " or ".join(counts) + " players"


def load_games(settings: Settings) -> str | None:
    """Load every game and its content (a server pack from CONTENT_DIR included); the problem
    in one sentence, or None. Must run before anything imports `rules`."""
    if settings.content_dir:
        # the games read their content when `rules` is first imported: point them at the pack now
        os.environ["CONTENT_DIR"] = str(settings.content_dir)
    try:
        import rules  # noqa: F401
    except (ValueError, OSError, RuntimeError) as exc:  # ContentError names file, entry, field
        return f"The game content cannot be loaded:\n{exc}"
    return None


def health(settings: Settings) -> int:
    """`python -m bot health`: 0 when the running bot wrote its heartbeat lately (it is
    connected to Discord), 1 otherwise, with one line saying why. The Docker health check."""
    import time

    problem = load_games(settings)  # bot.app loads them: a broken pack is told, not a traceback
    if problem:
        print(problem, file=sys.stderr)
        return 1
    from bot.app import HEARTBEAT_STALE

    path = settings.heartbeat_path
    if path is None:
        print("HEARTBEAT_PATH is not set, so the bot writes no heartbeat.", file=sys.stderr)
        return 1
    try:
        age = time.time() - float(path.read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        print(f"No heartbeat in {path}: the bot is not connected yet.", file=sys.stderr)
        return 1
    if age > HEARTBEAT_STALE:
        print(f"The last heartbeat is {age:.0f} s old: the bot is not connected.", file=sys.stderr)
        return 1
    print(f"Connected (heartbeat {age:.0f} s ago).")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in {"-h", "--help"}:
        print(usage())
        return 0
    try:
        settings = Settings()
    except Exception as exc:  # a malformed .env
        print(f"Pantheon's settings are not valid: {exc}", file=sys.stderr)
        return 2
    if argv and argv[0] == "health":
        return health(settings)
    problem = load_games(settings)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    if argv and argv[0] == "migrate":
        from bot.migrate import main as migrate

        return asyncio.run(migrate(argv[1:], settings.database))
    if argv and argv[0] == "play":
        from bot.local import main as play

        return play(argv[1:])
    if argv and argv[0] == "preview":  # the developers' preview (bot/preview), from a checkout
        from bot.preview import main as preview

        return preview(argv[1:])
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not settings.discord_token:
        print(no_token_message(), file=sys.stderr)
        return 2
    return asyncio.run(_run(settings))


async def _until_stopped(bot, token: str) -> None:
    """Run the bot until it stops by itself or SIGTERM/SIGINT arrives (`docker stop`, a service
    manager, Ctrl-C); then close it cleanly: the gateway, the timers, the database."""
    import signal

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not the main thread, or no signals here
            pass
    runner = asyncio.ensure_future(bot.start(token))
    stopper = asyncio.ensure_future(stop.wait())
    try:
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            runner.result()  # a login or network failure is raised to the caller
            return
        logging.getLogger("pantheon").info("stopping: closing the connection and the database")
        await bot.close()
        runner.cancel()
        try:
            await runner
        except (asyncio.CancelledError, Exception):
            pass
    finally:
        stopper.cancel()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)


async def _run(settings: Settings) -> int:
    import discord

    from bot.app import build_bot
    from bot.store import Store, StoreError

    try:  # before logging in, so a bad path is told plainly and without touching the network
        store = await Store.open(settings.database)
    except StoreError as exc:
        print(f"Cannot open the database: {exc}", file=sys.stderr)
        return 2
    bot = build_bot(settings, store=store)

    synced = False

    @bot.event
    async def on_connect() -> None:
        nonlocal synced
        if not synced:  # once per process, not on every reconnect
            synced = True
            await bot.sync_commands()

    try:
        async with bot:
            await _until_stopped(bot, settings.discord_token)
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN in .env.", file=sys.stderr)
        return 2
    except (OSError, discord.GatewayNotFound, discord.HTTPException) as exc:
        print(f"Cannot reach Discord ({exc}). Check the network, then start again.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
