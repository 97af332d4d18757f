"""Deathly Thrones: a solo roguelike played with one deck of cards (see game.py)."""

from rules.deathly_thrones.game import DeathlyThrones

GAME = DeathlyThrones()

__all__ = ["GAME", "DeathlyThrones"]
