"""Guilty Gods: a two-player duel of creature decks (Lilium and Umbra), combos, seals, summoners."""

from rules.guilty_gods.game import GuiltyGods

GAME = GuiltyGods()

__all__ = ["GAME", "GuiltyGods"]
