"""Gods of Magic: gods build magical realms from a shared deck and roll on the Magic Table."""

from rules.gods_of_magic.game import GodsOfMagic

GAME = GodsOfMagic()

__all__ = ["GAME", "GodsOfMagic"]
