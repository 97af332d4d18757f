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


# --- PostgreSQL -------------------------------------------------------------------------------
# A throwaway server is started once per test run when PostgreSQL is installed (tests/support/
# postgres.py) and each test gets its own empty database. Without PostgreSQL its tests are
# skipped with the reason, except under CI=true, where a missing server fails the run.
_postgres: dict[str, object] = {}


def _server():
    from tests.support import postgres

    if "server" not in _postgres:
        _postgres["server"], _postgres["reason"] = postgres.find()
    return _postgres["server"], _postgres["reason"]


def pytest_sessionfinish(session, exitstatus):
    server = _postgres.get("server")
    if server is not None:
        server.stop()  # type: ignore[attr-defined]


def pytest_terminal_summary(terminalreporter):
    reason = _postgres.get("reason")
    if reason:
        terminalreporter.write_line(f"PostgreSQL tests skipped: {reason}", yellow=True)


@pytest.fixture(scope="session")
def postgres_server():
    import os

    server, reason = _server()
    if server is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true requires PostgreSQL for its tests: {reason}", pytrace=False)
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    return server


@pytest.fixture
async def postgres_url(postgres_server) -> str:
    """The URL of a new, empty database on the throwaway server."""
    return await postgres_server.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_target(request, tmp_path):
    """Where a store opens, once per backend: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "p.db"
    server = request.getfixturevalue("postgres_server")
    return await server.new_database()
