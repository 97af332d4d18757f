import pytest

import rules
from tests.support.echo import GAME as ECHO
from tests.support.heroes import GAME as HEROES
from tests.support.highcard import GAME as HIGH_CARD

# The test-only games are registered for the platform's tests (and the generic playouts).
rules.GAMES.setdefault(HIGH_CARD.id, HIGH_CARD)
rules.GAMES.setdefault(ECHO.id, ECHO)
rules.GAMES.setdefault(HEROES.id, HEROES)


@pytest.fixture
def high_card():
    return HIGH_CARD
