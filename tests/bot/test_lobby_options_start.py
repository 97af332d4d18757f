"""Issue 28, item 6: no option a lobby accepts makes it unstartable. Options meant only for
simulations (Terra Sancta's `seat_factions`) are refused at a table, by name; an option value
that parses but with which the game could never start is refused when it is given, not at Start;
and every option value of every game, at its edges, leaves a lobby whose Start works."""

from __future__ import annotations

import pytest

import rules
from bot.sessions import ServiceError, SessionService
from bot.store import Store
from rules.core.game import IllegalAction, OptionChoice, OptionSpec
from tests.bot.e2e import ALICE, CHANNEL, make_bot
from tests.support.clock import Clock
from tests.support.discord_harness import DiscordHarness
from tests.support.highcard import HighCard

HOST = 10
GUILD = 1


class SplitCard(HighCard):
    """A test game with an option value that parses but always fails at the start."""

    id = "test-split-card"
    name = "Split Card (test)"
    options = [OptionSpec(key="cards", label="Cards each", default="3", choices=[
        OptionChoice(value="3", label="3"), OptionChoice(value="99", label="99")])]

    def setup(self, players, options, seed):
        if self.resolve_options(options)["cards"] == "99":
            raise IllegalAction("A deck has 52 cards: 99 each cannot be dealt.")
        return super().setup(players, options, seed)


@pytest.fixture(autouse=True)
def split_game(monkeypatch):
    monkeypatch.setitem(rules.GAMES, SplitCard.id, SplitCard())


@pytest.fixture
async def service(tmp_path):
    store = await Store.open(tmp_path / "p.db")
    yield SessionService(store, clock=Clock(), seed_source=lambda: 4242)
    await store.close()


async def open_lobby(service, game_id: str, channel: int = 500, host: int = HOST, **options):
    return await service.open_lobby(guild_id=GUILD, channel_id=channel, game_id=game_id,
                                    host_id=host, host_name="Ann", options=options or None)


# --- simulation-only options --------------------------------------------------------------
@pytest.mark.parametrize("value", ["bots", "grove,bots", "bots,grove,darkness,crown"])
async def test_seat_factions_is_refused_by_name_when_a_lobby_opens(service, value):
    with pytest.raises(ServiceError) as err:
        await open_lobby(service, "terra-sancta", seat_factions=value)
    assert "`seat_factions`" in err.value.message
    assert "simulations only" in err.value.message
    assert await service.store.open_in_channel(500) is None  # no lobby was left behind


async def test_seat_factions_is_refused_by_name_from_the_lobby_menus(service):
    s = await open_lobby(service, "terra-sancta")
    with pytest.raises(ServiceError) as err:
        await service.set_option(s.id, HOST, "seat_factions", "bots,grove")
    assert "`seat_factions`" in err.value.message and "simulations only" in err.value.message
    assert "seat_factions" not in (await service.get(s.id)).options


def test_simulations_still_take_seat_factions():
    game = rules.get_game("terra-sancta")
    assert game.simulation_options == ("seat_factions",)
    state = game.setup(["a", "b"], {"seat_factions": "grove,bots"}, 1)
    assert state.factions == {"a": "grove", "b": "bots"}


async def test_game_new_with_a_simulation_option_answers_in_discord_and_opens_nothing(tmp_path):
    """The reported command: `/game new game:terra-sancta options:seat_factions=bots`."""
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot) as h:
        reply = await h.slash("game new", user=ALICE, channel=CHANNEL,
                              options={"game": "terra-sancta", "options": "seat_factions=bots"})
        text = reply.text()
        assert reply.ephemeral  # only the host reads why
        assert "`seat_factions`" in text and "simulations only" in text
        assert "factions" in text.split("options:")[-1]  # says what may be set instead
        assert await bot.service.store.open_in_channel(CHANNEL) is None
        # the same channel opens a startable table next
        reply = await h.slash("game new", user=ALICE, channel=CHANNEL,
                              options={"game": "terra-sancta", "options": "factions=random"})
        assert await bot.service.store.open_in_channel(CHANNEL) is not None


# --- values that parse but could never start -----------------------------------------------
async def test_a_value_that_would_make_start_fail_is_refused_when_the_lobby_opens(service):
    with pytest.raises(ServiceError) as err:
        await open_lobby(service, SplitCard.id, cards="99")
    assert "99 each cannot be dealt" in err.value.message
    assert await service.store.open_in_channel(500) is None


async def test_a_value_that_would_make_start_fail_is_refused_from_the_menus(service):
    s = await open_lobby(service, SplitCard.id)
    with pytest.raises(ServiceError) as err:
        await service.set_option(s.id, HOST, "cards", "99")
    assert err.value.message.startswith("Cards each cannot be set so")
    assert "99 each cannot be dealt" in err.value.message
    s = await service.get(s.id)
    assert s.options["cards"] == "3"
    started = await service.start(s.id, HOST)
    assert started.session.status == "active"


def edge_values() -> list[tuple[str, str, str]]:
    """(game, option, value): every value of every option of every installed game (each menu
    has a handful, so its edges are all of them), changed alone from the defaults."""
    out = []
    for game_id in sorted(rules.GAMES):
        if game_id.startswith("test-"):
            continue
        for spec in rules.GAMES[game_id].options:
            out += [(game_id, spec.key, choice.value) for choice in spec.choices]
    return out


def seat_counts(game_id: str) -> list[int]:
    """The fewest and the most seats the game allows."""
    game = rules.get_game(game_id)
    allowed = []
    for n in range(game.min_players, game.max_players + 1):
        try:
            game.check_players(n)
        except IllegalAction:
            continue
        allowed.append(n)
    return sorted({allowed[0], allowed[-1]})


@pytest.mark.parametrize(("game_id", "key", "value"), edge_values())
async def test_every_accepted_option_value_starts_at_the_fewest_and_the_most_seats(
        service, game_id, key, value):
    for i, seats in enumerate(seat_counts(game_id)):
        host = HOST + i  # a person of their own at each table (their new character is held)
        s = await open_lobby(service, game_id, channel=600 + i, host=host)  # the menus' path
        s = await service.set_option(s.id, host, key, value)
        for _ in range(seats - 1):
            s = await service.add_bot(s.id, host)
        started = await service.start(s.id, host)
        assert started.session.status == "active", (game_id, key, value, seats)
        assert started.session.options[key] == value


async def test_every_game_opens_with_every_value_given_in_game_new(service):
    """The `options:` path takes the same values (one lobby per channel)."""
    for n, (game_id, key, value) in enumerate(edge_values()):
        s = await open_lobby(service, game_id, channel=1000 + n, **{key: value})
        assert s.options[key] == value
