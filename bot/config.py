"""Settings, read from the environment and `.env` (see .env.example)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    # An empty value (``DEV_GUILD_ID=`` as .env.example has it) means "not set", in .env and in
    # the environment alike: the default applies instead of a parse error or an empty path.
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: str = Field(default="", description="The bot's token from the developer portal.")
    database_path: Path = Field(default=Path("data/pantheon.db"))
    dev_guild_id: int | None = Field(
        default=None, description="Sync slash commands to this guild only (instant, for development)."
    )
    content_dir: Path | None = Field(default=None, description="A content pack that extends or replaces the shipped content.")
    log_level: str = "INFO"
    heartbeat_path: Path | None = Field(
        default=None, description="While connected, the bot writes the time here every 30 s "
        "(`python -m bot health` reads it: the Docker health check).")
    timer_poll_seconds: float = Field(
        default=15.0, description="Longest sleep between two checks of turn timers."
    )
