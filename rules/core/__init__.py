"""Shared pieces for every game: seeded randomness, dice, cards, the game interface."""

from rules.core.cards import Card, Suit, shuffled_deck, standard_deck
from rules.core.content import ContentError, content_files, load_model
from rules.core.dice import DiceError, DiceRoll, roll_expression
from rules.core.game import (
    Action,
    Event,
    EventData,
    Game,
    IllegalAction,
    OptionChoice,
    OptionSpec,
    Outcome,
    Result,
    RulesPage,
    StateT,
    ViewT,
    name_players,
    who,
)
from rules.core.rng import Rng, new_seed

__all__ = [
    "Action", "Card", "ContentError", "DiceError", "DiceRoll", "Event", "EventData", "Game",
    "IllegalAction", "OptionChoice", "OptionSpec", "Outcome", "Result", "Rng", "RulesPage",
    "StateT", "Suit", "ViewT", "content_files", "load_model", "name_players", "new_seed",
    "roll_expression", "shuffled_deck", "standard_deck", "who",
]
