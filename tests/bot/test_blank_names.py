"""Issue 28, item 7: names that show nothing. The Hangul fillers count as letters for Python, so
a character could be named with them, and a display name of them left a seat with no visible
name. `/character create` refuses them, and a blank display name is shown as a fallback."""

from __future__ import annotations

import pytest

import tests.support.payloads as P
from bot.records import RecordError, check_name, name_from
from bot.sessions import SessionService
from bot.store import Store
from rules.core.text import blank, letter_or_digit, shown_name, visible
from tests.bot.e2e import ALICE, BOB, CHANNEL, make_bot
from tests.support.discord_harness import DiscordHarness

BLANKS = {
    "hangul filler": "\u3164",
    "hangul choseong filler": "\u115f",
    "hangul jungseong filler": "\u1160",
    "halfwidth hangul filler": "\uffa0",
    "braille blank": "\u2800",
    "zero-width space": "\u200b",
    "word joiner": "\u2060",
    "soft hyphen": "\u00ad",
    "ideographic space": "\u3000",
    "mongolian vowel separator": "\u180e",
    "combining grapheme joiner": "\u034f",
    "tag space": "\U000e0020",
    "variation selector": "\ufe0f",
}


@pytest.mark.parametrize("ch", BLANKS.values(), ids=BLANKS.keys())
def test_each_blank_character_counts_as_showing_nothing(ch):
    assert blank(ch)
    assert not visible(ch * 3)
    assert not visible(f" {ch} {ch} ")
    assert not letter_or_digit(ch)


@pytest.mark.parametrize("text", ["Bob", "Éowyn", "李娜", "Ωmega", "7", "👍", "ㄱ", "한"])
def test_what_can_be_seen_stays_visible(text):
    assert visible(text)
    assert visible(f"\u3164{text}\u200b")


@pytest.mark.parametrize("ch", ["\u3164", "\u115f\u1160", "\uffa0", "\u2800", "\u3164 \u3164",
                                "\u200b\u3164", "\U000e0020\u3164"])
def test_a_character_name_of_blanks_is_refused_clearly(ch):
    with pytest.raises(RecordError) as err:
        check_name(ch * 3, "character")
    assert err.value.message == ("A character's name needs letters or digits that can be seen: a "
                                 "name of blank characters (such as the Hangul filler) shows "
                                 "nothing.")


@pytest.mark.parametrize("name", ["Bob\u3164", "\u3164Bob", "Bo\u115fb", "Ann\u2800", "A\u200bnn"])
def test_a_blank_hidden_inside_a_name_is_refused(name):
    """"Bob" and "Bob" + a filler would look the same in every list."""
    with pytest.raises(RecordError) as err:
        check_name(name, "character")
    assert "blank or invisible characters" in err.value.message


@pytest.mark.parametrize("name", ["Bob", "Éowyn of the Mark", "O'Neil-Smith Jr.", "한국 영웅", "Li 2"])
def test_ordinary_names_are_still_taken(name):
    assert check_name(name, "character") == name


def test_a_record_named_after_a_blank_display_name_gets_the_label():
    assert name_from("\u3164\u3164", "character") == "Character"
    assert name_from("\u2800\u115f\u1160", "character") == "Character"
    assert name_from("Bob\u3164\u3164", "character") == "Bob"


@pytest.mark.parametrize("name", ["\u3164", "\u3164\u3164\u3164", "\u115f\u1160\uffa0", "\u2800",
                                  "\u200b\u202e", " \u3000 ", ""])
def test_a_display_name_of_blanks_is_shown_as_the_fallback(name):
    assert shown_name(name, "Player 2") == "Player 2"


def test_a_visible_display_name_is_kept_without_the_marks_that_reverse_text():
    assert shown_name("Bob", "Player 2") == "Bob"
    assert shown_name("\u202eevil\u202c", "Player 2") == "evil"
    assert shown_name("\u2067Ann\u2069", "Player 2") == "Ann"
    assert shown_name("x" * 500, "Player 2") == "x" * 64


async def test_seats_of_blank_display_names_show_player_numbers(tmp_path):
    store = await Store.open(tmp_path / "p.db")
    try:
        svc = SessionService(store)
        s = await svc.open_lobby(guild_id=1, channel_id=2, game_id="gods-of-magic", host_id=10,
                                 host_name="\u3164\u3164")
        s = await svc.join(s.id, 11, "Bob")
        s = await svc.join(s.id, 12, "\u115f\u1160\u2800")
        assert [seat.name for seat in s.seats] == ["Player 1", "Bob", "Player 3"]
        assert (await svc.get(s.id)).names() == {"10": "Player 1", "11": "Bob", "12": "Player 3"}
    finally:
        await store.close()


@pytest.fixture
def blank_display_names(monkeypatch):
    """Alice's and Bob's display names are Hangul fillers; their account names are ordinary."""
    original = P.user

    def user(user_id, name, **kwargs):
        data = original(user_id, name, **kwargs)
        if user_id in (ALICE, BOB):
            data["username"] = {ALICE: "alice", BOB: "bob"}[user_id]
        return data

    monkeypatch.setattr(P, "user", user)
    return {ALICE: "\u3164\u3164", BOB: "\u3164"}


async def test_in_discord_blank_names_never_reach_a_message(tmp_path, blank_display_names):
    bot = make_bot(tmp_path / "p.db")
    async with DiscordHarness(bot, members=blank_display_names) as h:
        # /character create refuses a name of fillers, and says why
        reply = await h.slash("character create", user=ALICE, channel=CHANNEL,
                              options={"name": "\u3164\u3164\u3164", "kit": "gilbert"})
        assert "can be seen" in reply.text()
        # a character made by a person whose display name is blank names its owner readably
        reply = await h.slash("character create", user=ALICE, channel=CHANNEL,
                              options={"name": "Hero", "kit": "gilbert"})
        assert "A character of alice." in reply.text()
        assert "\u3164" not in reply.text()
        # the lobby shows readable seats
        lobby = (await h.slash("game new", user=ALICE, channel=CHANNEL,
                               options={"game": "gods-of-magic"})).message
        await h.click(lobby, h.find_button(lobby, "Join"), user=BOB)
        text = lobby.text()
        assert "Player 1" in text and "Player 2" in text
        assert "\u3164" not in text
        # /roll names the roller by their account name
        reply = await h.slash("roll", user=ALICE, channel=CHANNEL, options={"dice": "1d20"})
        assert "rolled by alice" in reply.text()
        assert "\u3164" not in reply.text()
