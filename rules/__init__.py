"""Pure game logic for Pantheon: no discord, no asyncio, no I/O but reading content."""

from __future__ import annotations

from importlib.metadata import entry_points

from rules.core.game import Game, IllegalAction

ENTRY_POINTS = "pantheon.games"
"""Every game registers once, as an entry point of this group: `<game id> = "<module>:GAME"`
(see pyproject.toml). A game shipped as its own package registers the same way."""

GAMES: dict[str, Game] = {}
REGISTERED: list[str] = []
"""The ids of the games registered as entry points, sorted: every installed game, written once
(`GAMES` may also hold stand-ins a test adds). The bench's and the tests' lists of every game."""


def _load() -> None:
    found = sorted(entry_points(group=ENTRY_POINTS), key=lambda ep: ep.name)
    if not found:
        raise RuntimeError("No game is registered: install Pantheon (scripts/setup.sh does) so "
                           f"that its `{ENTRY_POINTS}` entry points are known.")
    for ep in found:
        game = ep.load()
        if not isinstance(game, Game) or game.id != ep.name:
            raise RuntimeError(f"the entry point {ep.name} = {ep.value} is not the game {ep.name}")
        GAMES[ep.name] = game
        REGISTERED.append(ep.name)


def get_game(game_id: str) -> Game:
    """The registered game with this id; KeyError with the known ids otherwise."""
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise KeyError(f"unknown game {game_id!r} (installed: {known})") from None


_load()

__all__ = ["GAMES", "REGISTERED", "Game", "IllegalAction", "get_game"]
