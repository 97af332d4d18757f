"""Terra Sancta, the Dreamers' chess variant for 2 or 4 players (see help.py for the rules)."""

from rules.terra_sancta.game import GAME, TerraSancta

__all__ = ["GAME", "TerraSancta"]
