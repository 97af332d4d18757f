"""Pure game logic for Pantheon: no discord, no asyncio, no I/O but reading content."""

from __future__ import annotations

from importlib import import_module

from rules.core.game import Game, IllegalAction

# game id -> module exposing GAME. Adding a game is adding a line here.
_MODULES: dict[str, str] = {
    "gods-of-magic": "rules.gods_of_magic",
    "deathly-thrones": "rules.deathly_thrones",
    "terra-sancta": "rules.terra_sancta",
}

GAMES: dict[str, Game] = {}


def _load() -> None:
    for game_id, module in _MODULES.items():
        game = import_module(module).GAME
        assert game.id == game_id, f"{module} registers {game.id}, expected {game_id}"
        GAMES[game_id] = game


def get_game(game_id: str) -> Game:
    """The registered game with this id; KeyError with the known ids otherwise."""
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise KeyError(f"unknown game {game_id!r} (installed: {known})") from None


_load()

__all__ = ["GAMES", "Game", "IllegalAction", "get_game"]
