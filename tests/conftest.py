import pytest

import rules
from tests.support.highcard import GAME as HIGH_CARD

# The test-only game is registered for the platform's tests.
rules.GAMES.setdefault(HIGH_CARD.id, HIGH_CARD)


@pytest.fixture
def high_card():
    return HIGH_CARD
