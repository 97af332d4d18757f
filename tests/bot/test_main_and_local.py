"""python -m bot without a token or with a bad database path; the local table."""

from __future__ import annotations

import argparse

import pytest

from bot.__main__ import main
from bot.config import Settings
from bot.local import play


def test_without_a_token_it_explains_and_exits_nonzero(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", "")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "Traceback" not in err
    from rules import GAMES

    for game_id in GAMES:  # every installed game, with the command that works outside the venv
        assert f"scripts/run play {game_id}" in err
    assert "python -m bot play" not in err


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
    base = dict(game="test-high-card", players=2, bots=0, seed=4, option=["cards=3"], new=False)
    base.update(kw)
    return argparse.Namespace(**base)


async def test_local_table_plays_hot_seat_to_the_end_and_resumes(tmp_path):
    settings = Settings(database_path=tmp_path / "local.db", discord_token="")
    out: list[str] = []
    answers = iter(["1", "q"])
    assert await play(_args(), settings, ask=lambda _: next(answers), out=out.append) == 0
    assert any("Saved" in line for line in out)
    # the next run resumes the same game and plays it out
    out2: list[str] = []
    answers2 = iter(["9", "x", "1", "1", "1", "1", "1", "1"])
    assert await play(_args(), settings, ask=lambda _: next(answers2), out=out2.append) == 0
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
