"""By Gods and Kings: a party of adventurers fights through scenarios with playing cards and Shards."""

from rules.by_gods_and_kings.game import ByGodsAndKings

GAME = ByGodsAndKings()

__all__ = ["ByGodsAndKings", "GAME"]
