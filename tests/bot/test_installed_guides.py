"""The installed program: where it finds its content, and guides that name the command the user
ran (`pantheon`, `python -m bot`, `scripts/run`, the Docker image's). The wheel itself is built,
installed into a fresh venv and run from another folder by scripts/check-installed (CI)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main, usage
from bot.config import Settings, invoked_as
from bot.local import list_saves, play

ROOT = Path(__file__).resolve().parents[2]
DOCKER = "docker run -it --rm -v pantheon-data:/data pantheon"


def _executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def _as(monkeypatch, tmp_path, how: str) -> str:
    """Make this process look started the way `how` says; the command its guides should name."""
    monkeypatch.delenv("PANTHEON_COMMAND", raising=False)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    monkeypatch.setenv("PATH", str(bin_dir))
    if how == "pantheon":  # the installed command, found on PATH
        monkeypatch.setattr(sys, "argv", [str(_executable(bin_dir / "pantheon"))])
        return "pantheon"
    if how == "pantheon off PATH":  # run by its path
        script = _executable(tmp_path / "venv" / "bin" / "pantheon")
        monkeypatch.setattr(sys, "argv", [str(script)])
        return str(script)
    main_py = str(ROOT / "bot" / "__main__.py")
    if how == "python -m bot":  # the `python` on PATH is this interpreter
        monkeypatch.setattr(sys, "argv", [main_py])
        monkeypatch.setattr(sys, "executable", str(_executable(bin_dir / "python")))
        return "python -m bot"
    if how == "venv python -m bot":  # another `python` (or none) on PATH: the venv's, by its path
        monkeypatch.setattr(sys, "argv", [main_py])
        monkeypatch.setattr(sys, "executable", str(_executable(tmp_path / ".venv" / "bin" / "python")))
        return ".venv/bin/python -m bot"
    monkeypatch.setenv("PANTHEON_COMMAND", {"scripts/run": "scripts/run", "docker": DOCKER}[how])
    return {"scripts/run": "scripts/run", "docker": DOCKER}[how]


HOW = ["pantheon", "pantheon off PATH", "python -m bot", "venv python -m bot", "scripts/run", "docker"]


@pytest.mark.parametrize("how", HOW)
def test_the_no_token_guide_names_the_command_that_was_run(monkeypatch, capsys, tmp_path, how):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "")
    command = _as(monkeypatch, tmp_path, how)
    assert invoked_as() == command
    assert main([]) == 2
    err = capsys.readouterr().err
    from rules import GAMES

    examples = [line for line in err.split("No token yet?", 1)[1].splitlines()[1:] if line.strip()]
    assert len(examples) == len(GAMES)
    for line, game_id in zip(examples, GAMES, strict=True):  # each with this command, no other
        assert line.startswith(f"     {command} play {game_id} ")
    if how == "docker":  # a container reads no .env: the token is passed to it
        assert "docker run -e DISCORD_TOKEN=" in err and ".env here" not in err
    else:
        assert ".env here" in err and "docker run" not in err
    assert all(line.startswith(command) for line in usage().splitlines()[2:])


@pytest.mark.parametrize("how", HOW)
async def test_play_list_and_help_name_the_command_that_was_run(monkeypatch, tmp_path, how):
    command = _as(monkeypatch, tmp_path, how)
    monkeypatch.chdir(tmp_path)
    settings = Settings(database_path=tmp_path / "local.db", discord_token="")
    listed: list[str] = []
    assert await list_saves(settings, out=listed.append) == 0
    assert listed == [f"No saved local game. Start one: {command} play GAME (play --help)."]
    import argparse

    args = argparse.Namespace(game="deathly-thrones", players=1, bots=0, seed=2, option=[], new=False,
                              save="club")
    await play(args, settings, ask=lambda _: "q", out=[].append)
    listed.clear()
    assert await list_saves(settings, out=listed.append) == 0
    assert listed[-1].splitlines()[-1].strip() == f"{command} play deathly-thrones --save club"
    assert "1 seat (1 at the keyboard)" in listed[-1]  # not "1 seats"


def test_play_help_names_the_command(monkeypatch, capsys, tmp_path):
    from bot.local import main as play_main

    _as(monkeypatch, tmp_path, "pantheon")
    with pytest.raises(SystemExit):
        play_main(["--help"])
    assert capsys.readouterr().out.startswith("usage: pantheon play ")


def test_scripts_run_tells_the_program_its_command(tmp_path):
    """scripts/run passes on how it was called (PANTHEON_COMMAND), which the program cannot see."""
    scripts = tmp_path / "checkout" / "scripts"
    scripts.mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "run", scripts / "run")
    (scripts / "setup.sh").write_text("true\n")  # already set up
    fake = _executable(tmp_path / "checkout" / ".venv" / "bin" / "python")
    fake.write_text('#!/bin/sh\necho "$PANTHEON_COMMAND | $*"\n')
    env = {k: v for k, v in os.environ.items() if k != "PANTHEON_COMMAND"}
    done = subprocess.run(["bash", "checkout/scripts/run", "play", "--list"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.stdout == "checkout/scripts/run | -m bot play --list\n", done.stderr


def _content_module(tree: Path):
    """rules/core/content.py imported as if it lived in `tree` (a checkout or an installed wheel)."""
    target = tree / "rules" / "core" / "content.py"
    target.parent.mkdir(parents=True)
    shutil.copy(ROOT / "rules" / "core" / "content.py", target)
    spec = importlib.util.spec_from_file_location("content_elsewhere", target)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_installed_content_is_found_beside_the_code(tmp_path):
    """In a wheel the content is rules/content/ (setup.py maps content/ there); in a checkout it is
    content/ beside the packages."""
    site = tmp_path / "site-packages"
    (site / "rules" / "content" / "deathly-thrones").mkdir(parents=True)
    (site / "content").mkdir()  # some other package's folder of that name is not ours
    assert _content_module(site).SHIPPED == site / "rules" / "content"
    checkout = tmp_path / "checkout"
    assert _content_module(checkout).SHIPPED == checkout / "content"


def test_the_wheel_maps_content_and_the_image_runs_the_installed_package():
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert '"rules.content"' in setup and 'package_dir={"rules.content": "content"}' in setup
    final = (ROOT / "Dockerfile").read_text(encoding="utf-8").rsplit("\nFROM ", 1)[1]
    assert "COPY bot" not in final and "COPY rules" not in final and "COPY content" not in final
    assert 'ENTRYPOINT ["pantheon"]' in final and 'CMD ["pantheon", "health"]' in final
    assert f'PANTHEON_COMMAND="{DOCKER}"' in final
    assert "scripts/check-installed" in (ROOT / "scripts" / "test").read_text(encoding="utf-8")


@pytest.mark.parametrize("pack", [False, True])
def test_health_answers_in_one_line_without_a_heartbeat_or_with_a_broken_pack(tmp_path, pack):
    """The image's health check (`pantheon health`) says why in a sentence, never a traceback."""
    env = {k: v for k, v in os.environ.items() if k not in {"HEARTBEAT_PATH", "CONTENT_DIR"}}
    env["HEARTBEAT_PATH"] = str(tmp_path / "no-beat")
    if pack:
        quests = tmp_path / "pack" / "deathly-thrones" / "quests"
        quests.mkdir(parents=True)
        (quests / "broken.yaml").write_text("name: Broken\nsteps: [1, 2]\n")
        env["CONTENT_DIR"] = str(tmp_path / "pack")
    done = subprocess.run([sys.executable, "-m", "bot", "health"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert ("broken.yaml" in done.stderr) if pack else ("not connected" in done.stderr)
