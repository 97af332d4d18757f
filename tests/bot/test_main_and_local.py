"""python -m bot without a token or with a bad database path; the local table."""

from __future__ import annotations

import argparse

import pytest

import rules
from bot.__main__ import main
from bot.config import Settings
from bot.local import play
from bot.sessions import ServiceError


def test_without_a_token_it_explains_and_exits_nonzero(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", "")
    monkeypatch.setenv("PANTHEON_COMMAND", "scripts/run")  # as scripts/run sets it
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "Traceback" not in err
    from rules import GAMES

    for game_id in GAMES:  # every installed game, with the command that works outside the venv
        assert f"scripts/run play {game_id}" in err
    assert "python -m bot play" not in err


@pytest.mark.parametrize(("name", "value"), [("LOG_LEVEL", "verbose"), ("TIMER_POLL_SECONDS", "0"),
                                           ("TIMER_POLL_SECONDS", "-5")])
def test_a_setting_out_of_its_range_stops_the_bot_with_its_name(monkeypatch, capsys, tmp_path, name, value):
    """A log level logging does not know, or a turn-timer poll of 0 (the timer loop would spin),
    is refused when the settings are read, naming the setting, instead of failing later."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    monkeypatch.setenv(name, value)
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "settings are not valid" in err and name.lower() in err.lower() and "Traceback" not in err


def test_the_log_level_is_read_in_any_case(monkeypatch):
    monkeypatch.setenv("LOG_LEVEL", " warning ")
    assert Settings(_env_file=None).log_level == "WARNING"


def test_env_example_copied_as_is_starts_the_bot_up_to_the_network(monkeypatch, capsys, tmp_path):
    """The README's step: `cp .env.example .env`, fill in the token, `scripts/run`. Every empty
    value means "not set" (no parse error, no content pack in the current folder)."""
    from pathlib import Path

    import discord

    example = Path(__file__).resolve().parents[2] / ".env.example"
    text = example.read_text(encoding="utf-8").replace("DISCORD_TOKEN=\n", "DISCORD_TOKEN=abc.def.ghi\n")
    assert "DISCORD_TOKEN=abc.def.ghi" in text
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(text, encoding="utf-8")
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "CONTENT_DIR", "LOG_LEVEL",
                 "TIMER_POLL_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings()
    assert settings.discord_token == "abc.def.ghi"
    assert settings.dev_guild_id is None and settings.content_dir is None
    seen: list[str] = []

    async def start(self, token, *, reconnect=True):  # the network step: Discord says no
        seen.append(token)
        assert self.settings.content_dir is None and self.settings.dev_guild_id is None
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.Client, "start", start)
    assert main([]) == 2
    assert seen == ["abc.def.ghi"]
    err = capsys.readouterr().err
    assert "Discord refused the token" in err and "not valid" not in err
    assert (tmp_path / "data" / "pantheon.db").exists()  # the database was opened on the way


def test_empty_environment_values_mean_not_set(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DEV_GUILD_ID", "")
    monkeypatch.setenv("CONTENT_DIR", "")
    monkeypatch.setenv("TIMER_POLL_SECONDS", "")
    settings = Settings()
    assert settings.dev_guild_id is None and settings.content_dir is None
    assert settings.timer_poll_seconds == 15.0


def test_an_unwritable_database_path_is_told_plainly(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(blocker / "pantheon.db"))
    assert main([]) == 2
    assert "Cannot open the database" in capsys.readouterr().err


def _args(**kw):
    base = dict(game="test-high-card", players=2, bots=0, seed=4, option=["cards=3"], new=False, save=None)
    base.update(kw)
    return argparse.Namespace(**base)


async def test_local_table_plays_hot_seat_to_the_end_and_resumes(tmp_path):
    settings = Settings(database_path=tmp_path / "local.db", discord_token="")
    out: list[str] = []
    answers = iter(["1", "q"])
    assert await play(_args(), settings, ask=lambda _: next(answers), out=out.append) == 0
    assert any("Saved" in line for line in out)
    # the next run resumes the same game and plays it out (Enter when the keyboard is passed)
    out2: list[str] = []
    answers2 = iter(["9", "x", "1", "1", "1", "1", "1", "1"])

    def ask2(prompt: str) -> str:
        return "" if "Pass the keyboard" in prompt else next(answers2)
    assert await play(_args(), settings, ask=ask2, out=out2.append) == 0
    text = "\n".join(out2)
    assert "Resuming game" in text
    assert "Type a number" in text  # 9 and x are not choices
    assert "game over" in text.lower()


async def test_local_table_with_automatic_players(tmp_path):
    settings = Settings(database_path=tmp_path / "local.db", discord_token="")
    out: list[str] = []
    answers = iter(["1"] * 50)
    code = await play(_args(players=1, bots=2), settings, ask=lambda _: next(answers), out=out.append)
    assert code == 0 and "game over" in "\n".join(out).lower()


@pytest.mark.parametrize("game", ["gods-of-magic", "deathly-thrones", "terra-sancta", "guilty-gods"])
async def test_local_table_real_games_start(tmp_path, game):
    settings = Settings(database_path=tmp_path / "local.db", discord_token="")
    out: list[str] = []
    answers = iter(["1", "1", "1", "q"])
    args = _args(game=game, players=1, bots=0 if game == "deathly-thrones" else 1, option=[])
    assert await play(args, settings, ask=lambda _: next(answers), out=out.append) == 0
    text = "\n".join(out)
    assert "choose" in text and "<@" not in text  # mentions are shown as names
    if game == "terra-sancta":  # the board is drawn in characters instead of the picture
        assert " a  b  c  d  e  f  g  h  i  j  k  l" in text and "K1" in text and "(1 = Player 1" in text


def _python_m_bot(args: list[str], cwd, extra_env: dict[str, str] | None = None):
    """Run `python -m bot ...` in a fresh process (the games load their content at import)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items()
           if k not in {"DISCORD_TOKEN", "DATABASE_PATH", "CONTENT_DIR", "DEV_GUILD_ID"}}
    env.update(extra_env or {})
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=env, input="q\n",
                          capture_output=True, text=True, timeout=120)


def test_a_broken_content_pack_is_named_at_start(tmp_path):
    quests = tmp_path / "pack" / "deathly-thrones" / "quests"
    quests.mkdir(parents=True)
    (quests / "broken.yaml").write_text("name: Broken\nsteps: [1, 2]\n")
    done = _python_m_bot(["play", "deathly-thrones"], tmp_path,
                         {"CONTENT_DIR": str(tmp_path / "pack"), "DATABASE_PATH": str(tmp_path / "x.db")})
    assert done.returncode == 2
    assert "broken.yaml" in done.stderr and "Traceback" not in done.stderr


def test_content_dir_from_dot_env_adds_a_quest(tmp_path):
    from rules.core.content import SHIPPED

    quests = tmp_path / "pack" / "deathly-thrones" / "quests"
    quests.mkdir(parents=True)
    text = (SHIPPED / "deathly-thrones" / "quests" / "iron-throne.yaml").read_text(encoding="utf-8")
    (quests / "copper-throne.yaml").write_text(text.replace("name: The Iron Throne", "name: The Copper Throne", 1),
                                               encoding="utf-8")
    (tmp_path / ".env").write_text(f"CONTENT_DIR={tmp_path / 'pack'}\nDATABASE_PATH={tmp_path / 'x.db'}\n")
    done = _python_m_bot(["play", "deathly-thrones", "--option", "quest=copper-throne"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "The Copper Throne" in done.stdout


async def test_local_table_offers_reactions_to_the_other_people_at_the_keyboard(tmp_path):
    settings = Settings(database_path=tmp_path / "local.db", discord_token="")
    out: list[str] = []

    def ask(_prompt: str) -> str:
        shown = [line for line in out[-8:] if line.strip()[:3].strip().rstrip(".").isdigit()]
        react = [line for line in shown if "may react" in line]
        return (react[0] if react else shown[0]).strip().split(".")[0] if shown else "1"

    args = _args(game="test-echo", players=3, option=[])
    assert await play(args, settings, ask=ask, out=out.append) == 0
    text = "\n".join(out)
    assert "may react) Echo" in text and "echoes." in text and "game over" in text.lower()


def test_sigterm_stops_the_local_table_cleanly(tmp_path):
    """`docker stop` sends SIGTERM: the local table says it saved and exits 0 at once."""
    import os
    import signal
    import subprocess
    import sys
    import time

    env = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "CONTENT_DIR"}}
    env["DATABASE_PATH"] = str(tmp_path / "x.db")
    proc = subprocess.Popen([sys.executable, "-m", "bot", "play", "deathly-thrones"], cwd=tmp_path,
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    seen = ""
    deadline = time.monotonic() + 60
    assert proc.stdout is not None
    while "choose" not in seen and time.monotonic() < deadline:
        seen += proc.stdout.readline()
    assert "choose" in seen, seen
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Saved" in out


def test_sigterm_closes_the_bot_and_its_database(monkeypatch, tmp_path):
    """The bot process (`python -m bot`) closes the gateway, the timers and the store on
    SIGTERM and exits 0, instead of being killed after docker's grace period."""
    import asyncio
    import os
    import signal

    import discord

    from bot.store import Store

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "p.db"))
    closed: list[bool] = []
    real_close = Store.close

    async def close(self):
        closed.append(True)
        await real_close(self)

    async def start(self, token, *, reconnect=True):  # "connected": runs until stopped
        asyncio.get_running_loop().call_later(0.1, os.kill, os.getpid(), signal.SIGTERM)
        await asyncio.Event().wait()

    monkeypatch.setattr(Store, "close", close)
    monkeypatch.setattr(discord.Client, "start", start)
    before = signal.getsignal(signal.SIGTERM)
    assert main([]) == 0
    assert closed  # the database was closed (everything committed)
    assert signal.getsignal(signal.SIGTERM) == before  # the handler is gone with the loop


async def test_heartbeat_and_health_check(tmp_path):
    import asyncio
    import time

    from bot.__main__ import health
    from tests.bot.e2e import make_bot
    from tests.support.discord_harness import DiscordHarness

    beat = tmp_path / "beat"
    settings = Settings(database_path=tmp_path / "p.db", discord_token="", heartbeat_path=beat)
    assert health(settings) == 1  # nothing yet
    bot = make_bot(tmp_path / "p.db")
    bot.settings = settings
    async with DiscordHarness(bot):
        for _ in range(50):
            if beat.exists():
                break
            await asyncio.sleep(0.01)
        assert beat.exists()
        assert health(settings) == 0
    beat.write_text(f"{time.time() - 600:.0f}\n")
    assert health(settings) == 1  # stale: not connected


def test_local_table_option_without_a_value_is_one_line(tmp_path):
    done = _python_m_bot(["play", "deathly-thrones", "--option", "character"], tmp_path,
                         {"DATABASE_PATH": str(tmp_path / "x.db")})
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--option takes key=value" in done.stderr and len(done.stderr.strip().splitlines()) == 1


async def test_local_table_shows_plain_text_and_the_result_once(tmp_path):
    settings = Settings(database_path=tmp_path / "local.db", discord_token="")
    out: list[str] = []
    answers = iter(["1"] * 50)
    assert await play(_args(players=1, bots=1), settings, ask=lambda _: next(answers), out=out.append) == 0
    text = "\n".join(out)
    assert "**" not in text and "`" not in text and "<@" not in text
    assert text.lower().count("game over") == 1


def test_play_help_lists_every_games_options_and_rules_prints_the_pages(tmp_path):
    done = _python_m_bot(["play", "--help"], tmp_path)
    assert done.returncode == 0
    assert "quest={" in done.stdout and "storytelling={off, on, strict}" in done.stdout
    rules_out = _python_m_bot(["play", "gods-of-magic", "--rules"], tmp_path)
    assert rules_out.returncode == 0 and "== The Magic Table ==" in rules_out.stdout
    assert "**" not in rules_out.stdout


async def _quit(settings, **kw) -> str:
    out: list[str] = []
    assert await play(_args(**kw), settings, ask=lambda _: "q", out=out.append) == 0
    return "\n".join(out)


async def test_local_saves_are_kept_side_by_side_and_listed(tmp_path, monkeypatch):
    from bot.local import list_saves

    monkeypatch.setenv("PANTHEON_COMMAND", "scripts/run")  # as scripts/run sets it
    settings = Settings(database_path=tmp_path / "local.db", discord_token="")
    await _quit(settings)  # test-high-card's own save
    await _quit(settings, game="deathly-thrones", players=1, option=[])
    await _quit(settings, save="club")  # another game of test-high-card, named
    # another game never ends the first: each resumes
    assert "Resuming game #1" in await _quit(settings)
    assert "Resuming game #2" in await _quit(settings, game="deathly-thrones", players=1, option=[])
    assert "Resuming game #3" in await _quit(settings, save="club")
    listed: list[str] = []
    assert await list_saves(settings, out=listed.append) == 0
    text = "\n".join(listed)
    for command in ("scripts/run play test-high-card\n", "scripts/run play deathly-thrones\n",
                    "scripts/run play test-high-card --save club"):
        assert command in text + "\n"
    # a named save holding another game is refused, never ended
    with pytest.raises(ServiceError, match="holds a game of"):
        await _quit(settings, game="deathly-thrones", players=1, option=[], save="club")
    assert "Resuming game #3" in await _quit(settings, save="club")
    # --new ends it, and says so
    text = await _quit(settings, save="club", new=True)
    assert "Ended game #3" in text and "Resuming" not in text
    with pytest.raises(ServiceError, match="A save name"):
        await _quit(settings, save="Bad Name!")


def test_save_names_round_trip_to_channels_below_zero():
    from bot.local import game_channel, save_channel, save_name

    names = ["a", "-", "club", "a-b", "zzzzzzzzzzzz", "000000000000", "x1"]
    channels = {save_channel("terra-sancta", n) for n in names}
    assert len(channels) == len(names) and all(-(2**63) < c < 0 for c in channels)
    for n in names:
        assert save_name(save_channel("terra-sancta", n), "terra-sancta") == n
    assert save_channel("terra-sancta", "terra-sancta") == game_channel("terra-sancta")
    assert save_name(game_channel("gods-of-magic"), "gods-of-magic") == "gods-of-magic"
    assert len({game_channel(g) for g in rules.REGISTERED}) == len(rules.REGISTERED)
    assert save_name(1234567890123, "terra-sancta") is None  # a Discord channel is no save


def test_play_list_from_the_command_line(tmp_path):
    done = _python_m_bot(["play", "--list"], tmp_path, {"DATABASE_PATH": str(tmp_path / "x.db")})
    assert done.returncode == 0 and "No saved local game" in done.stdout
    done = _python_m_bot(["play"], tmp_path, {"DATABASE_PATH": str(tmp_path / "x.db")})
    assert done.returncode == 2 and "name a game" in done.stderr


async def test_local_table_reads_typed_moves_with_the_move_parser(tmp_path):
    from bot.sessions import SessionService
    from bot.store import Store

    settings = Settings(database_path=tmp_path / "local.db", discord_token="")
    text = await _quit(settings, game="terra-sancta", players=1, bots=1, option=["factions=random"])
    assert "or type a move" in text and "(or type b3 c5)" in text  # the board's hint, for the terminal
    store = await Store.open(settings.database)
    try:
        session = await SessionService(store).active_in_channel(
            __import__("bot.local", fromlist=["game_channel"]).game_channel("terra-sancta"))
        assert session is not None
        game, state = session.game(), session.state()
        move = next(m for m in game.move_completions(state, game.to_act(state)[0], "") if " " in m)
        version = session.version
    finally:
        await store.close()
    out: list[str] = []
    answers = iter(["zz9 yy9", "/move " + move, "q"])
    assert await play(_args(game="terra-sancta", players=1, bots=1, option=["factions=random"]), settings,
                      ask=lambda _: next(answers), out=out.append) == 0
    text = "\n".join(out)
    assert "! " in text  # the unreadable move is refused with the parser's reason
    piece_from, piece_to = move.split()[0], move.split()[-1]
    assert any(piece_from in line and piece_to in line and "Player 1" in line for line in out if "•" in line)
    store = await Store.open(settings.database)
    try:
        after = await SessionService(store).get(session.id)
        assert after.version > version
    finally:
        await store.close()


async def test_automatic_players_finishing_a_four_player_game_are_summarised(tmp_path):
    """The only person is out of a 4-player Terra Sancta game: the three automatic players play
    it out in one go, and the terminal shows a summary instead of hundreds of lines."""
    from bot.local import EVENTS_SHOWN

    settings = Settings(database_path=tmp_path / "local.db", discord_token="")
    out: list[str] = []
    answers = iter(["1"] * 3000)
    args = _args(game="terra-sancta", players=1, bots=3, seed=2, option=[])
    assert await play(args, settings, ask=lambda _: next(answers), out=out.append) == 0
    text = "\n".join(out)
    assert "game over" in text.lower() and "more events while the automatic players played on" in text
    run = longest = 0
    for line in out:
        run = run + 1 if line.startswith("  •") else 0
        longest = max(longest, run)
    assert longest <= EVENTS_SHOWN
