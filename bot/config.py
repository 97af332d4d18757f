"""Settings, read from the environment and `.env` (see .env.example)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def parse_shard_ids(text: str) -> list[int]:
    """`0-3`, `4,5,6` or `0-1,4`: the shard ids listed, in order, without repeats."""
    out: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        first, sep, last = part.partition("-")
        if not first.isdigit() or (sep and not last.isdigit()):
            raise ValueError(f"SHARD_IDS must look like 0-3 or 0,2,5; got {text!r}")
        low, high = int(first), int(last) if sep else int(first)
        if high < low:
            raise ValueError(f"SHARD_IDS: {part} goes backwards")
        out += [i for i in range(low, high + 1) if i not in out]
    if not out:
        raise ValueError("SHARD_IDS lists no shard")
    return out


COMMAND_VARIABLE = "PANTHEON_COMMAND"
"""Set by the launchers that wrap the program (scripts/run, the Docker image) to the command
their user types, which the program cannot see for itself."""


def invoked_as() -> str:
    """The command the user ran to start this program, for the guides to repeat: what a
    launcher put in PANTHEON_COMMAND (`scripts/run`, the image's `docker run ...`), `pantheon`
    for the installed command, or `python -m bot` (with the interpreter's path when a bare
    `python` would be another one)."""
    given = " ".join(os.environ.get(COMMAND_VARIABLE, "").split())
    if given:
        return given[:120]
    script = sys.argv[0] if sys.argv and sys.argv[0] else ""
    if Path(script).stem == "pantheon":
        found = shutil.which("pantheon")
        same = found is not None and Path(found).resolve() == Path(script).resolve()
        return "pantheon" if same else script[:120]
    return f"{_python()} -m bot"


def _python() -> str:
    """How to name this interpreter: `python` when that is what PATH finds, else its path
    (relative to this folder when it is under it, as `.venv/bin/python`)."""
    here = Path(sys.executable).absolute()
    found = shutil.which("python")
    if found is not None and Path(found).absolute() == here:
        return "python"
    try:
        return str(here.relative_to(Path.cwd()))
    except ValueError:
        return str(here)[:120]


class Settings(BaseSettings):
    # An empty value (``DEV_GUILD_ID=`` as .env.example has it) means "not set", in .env and in
    # the environment alike: the default applies instead of a parse error or an empty path.
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: str = Field(default="", description="The bot's token from the developer portal.")
    database_url: str | None = Field(
        default=None, description="The database: sqlite:///path/to/file.db or "
        "postgresql://user:password@host:5432/name. Unset: the SQLite file DATABASE_PATH.")
    database_path: Path = Field(default=Path("data/pantheon.db"))
    dev_guild_id: int | None = Field(
        default=None, description="Sync slash commands to this guild only (instant, for development)."
    )
    content_dir: Path | None = Field(default=None, description="A content pack that extends or replaces the shipped content.")
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING, ERROR or CRITICAL.")
    heartbeat_path: Path | None = Field(
        default=None, description="While connected, the bot writes the time here every 30 s "
        "(`python -m bot health` reads it: the Docker health check).")
    timer_poll_seconds: float = Field(
        default=15.0, gt=0, le=3600, description="Longest sleep between two checks of turn timers."
    )
    shard_count: int | None = Field(
        default=None, ge=1, description="Shards of the whole bot (all processes together). "
        "Unset: one process, one connection, discord.py's plain client.")
    shard_ids: str | None = Field(
        default=None, description="The shards this process runs (`0-3`, `0,2`); unset with "
        "SHARD_COUNT: all of them.")
    worker_lease_seconds: float = Field(
        default=60.0, gt=0, description="A process not seen for this long is gone: another "
        "takes over its guilds' turn timers (and the timers it had claimed).")
    kept_states: int = Field(
        default=256, ge=0, le=100_000, description="Game states kept parsed in memory with "
        "their worked-out actions and views (one per busy table; 0: none).")

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level

    @field_validator("database_url")
    @classmethod
    def _known_scheme(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("sqlite:///", "postgresql://",
                                                        "postgres://")):
            raise ValueError("DATABASE_URL must start with sqlite:/// or postgresql://")
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        ids = self.shards
        if ids is not None and self.shard_count is not None:
            bad = [i for i in ids if i >= self.shard_count]
            if bad:
                raise ValueError(f"SHARD_IDS {bad} are not below SHARD_COUNT={self.shard_count}")
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT")
        return self

    @property
    def database(self) -> str | Path:
        """What `Store.open` takes: DATABASE_URL when set, else the file DATABASE_PATH."""
        return self.database_url or self.database_path

    @property
    def shards(self) -> list[int] | None:
        """The shard ids this process runs; None when not sharded."""
        if self.shard_count is None:
            return None
        if self.shard_ids is None:
            return list(range(self.shard_count))
        return parse_shard_ids(self.shard_ids)
