"""The harness checks what Discord itself accepts (tests/support/contract.py): each check refuses a
request broken in that one way, through the harness (a 400 for the bot, and the test fails even
when the bot swallows the 400), and accepts the same request unbroken."""

from __future__ import annotations

import io

import discord
import pytest
from discord.ext import commands

from bot.ui.items import HandButton
from tests.support import contract
from tests.support.discord_harness import DiscordHarness, HarnessError

CALLBACK = "/interactions/1/tok/callback"
QUIET = {"parse": []}


def _button(**over):
    return {"type": 2, "style": 1, "custom_id": "b", "label": "Go", **over}


def _message(*rows, **over):
    return {"content": "hi", "allowed_mentions": QUIET,
            "components": [{"type": 1, "components": list(r)} for r in rows], **over}


def test_a_well_formed_message_and_answer_pass():
    assert contract.problems("POST", "/channels/5/messages", _message([_button()])) == []
    assert contract.problems("POST", CALLBACK, {"type": 4, "data": _message([_button()])}) == []
    assert contract.problems("PATCH", "/webhooks/9/tok/messages/@original", _message([_button()])) == []


@pytest.mark.parametrize("body, why", [
    (_message([_button(label="x" * 81)]), "label"),
    (_message([_button()], content="x" * 2001), "content"),
    (_message([_button(style=9)]), "style"),
    (_message(*([_button(custom_id=f"b{i}")] for i in range(41))), "components"),
    (_message([{"type": 3, "custom_id": "s", "options": []}]), "options"),
    (_message([{"type": 3, "custom_id": "s", "options": [{"label": "", "value": "v"}]}]), "label"),
    (_message(embeds=[{"title": "t" * 257}]), "title"),
    (_message(embeds=[{"fields": [{"name": "n", "value": "v" * 1025}]}]), "value"),
])
def test_the_schema_refuses_each_broken_field(body, why):
    found = contract.problems("POST", "/channels/5/messages", body)
    assert len(found) == 1 and why in found[0], found


def test_an_unknown_route_is_refused():
    assert "no such operation" in contract.problems("POST", "/channels/5/nonsense", {})[0]


def test_all_embeds_together_at_most_6000_characters():
    fine = [{"description": "d" * 3000}, {"description": "d" * 3000}]
    assert contract.problems("POST", "/channels/5/messages", _message(embeds=fine)) == []
    over = fine + [{"title": "t"}]
    assert contract.problems("POST", "/channels/5/messages", _message(embeds=over)) == [
        "embeds: 6001 characters in all > 6000"]


def test_custom_ids_are_unique_in_a_message():
    twice = _message([_button(), _button(label="Again")])
    assert contract.problems("POST", "/channels/5/messages", twice) == [
        "custom_id 'b' is used twice in one message"]


def test_every_message_says_whom_it_may_ping():
    body = _message([_button()])
    del body["allowed_mentions"]
    assert contract.problems("POST", "/channels/5/messages", body) == [
        "allowed_mentions is missing: every message must say whom it may ping"]
    assert contract.problems("POST", CALLBACK, {"type": 4, "data": body}) != []


def test_component_emoji_must_be_a_unicode_emoji():
    assert contract.is_emoji("🃏") and contract.is_emoji("⚔") and contract.is_emoji("⚔️")
    assert not contract.is_emoji("🂠")  # a playing card back: a character, not an emoji
    broken = _message([_button(emoji={"name": "🂠"})])
    found = contract.problems("POST", "/channels/5/messages", broken)
    assert len(found) == 1 and "not in Unicode's emoji list" in found[0]
    option = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a", "emoji": {"name": "◆"}}]}
    assert len(contract.problems("POST", "/channels/5/messages", _message([option]))) == 1
    custom = _message([_button(emoji={"name": "pantheon", "id": "123"})])
    assert contract.problems("POST", "/channels/5/messages", custom) == []


def test_the_hand_button_has_an_emoji_discord_knows():
    button = HandButton("x")
    assert button.emoji is not None and contract.is_emoji(str(button.emoji))


def test_a_modal_title_and_labels_at_most_45():
    def modal(title="Your line", label="Line"):
        return {"type": 9, "data": {"custom_id": "m", "title": title, "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "t", "style": 1, "label": label}]}]}}

    assert contract.problems("POST", CALLBACK, modal()) == []
    assert "title" in contract.problems("POST", CALLBACK, modal(title="t" * 46))[0]
    assert "label" in contract.problems("POST", CALLBACK, modal(label="l" * 46))[0]


def test_a_picture_an_embed_shows_must_be_uploaded():
    embeds = [{"image": {"url": "attachment://board.png"}}]
    assert contract.attachment_problems(embeds, ["board.png"]) == []
    assert contract.attachment_problems(embeds, ["other.png"]) == [
        "embeds[0]: attachment://board.png is not uploaded with the message"]


# --- through the harness: the bot gets Discord's 400 and the test fails ----------------------


def _bot() -> commands.Bot:
    return commands.Bot(command_prefix="!", intents=discord.Intents.default(),
                        allowed_mentions=discord.AllowedMentions.none())


async def test_the_harness_fails_a_test_on_a_violation_even_if_the_bot_swallows_it():
    async with DiscordHarness(_bot()) as h:
        channel = h.bot.get_channel(2000)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Hand", custom_id="x", emoji="🂠"))
        try:
            await channel.send("table", view=view)
        except discord.HTTPException as exc:
            assert exc.code == 50035  # what Discord answers
        with pytest.raises(HarnessError, match="emoji"):
            await h.settle()
        fine = discord.ui.View()
        fine.add_item(discord.ui.Button(label="Hand", custom_id="x", emoji="🃏"))
        message = await channel.send("table", view=fine)
        await h.settle()
        assert h.message(message.id).buttons()[0]["emoji"]["name"] == "🃏"


async def test_the_harness_refuses_a_picture_that_is_not_uploaded():
    async with DiscordHarness(_bot()) as h:
        channel = h.bot.get_channel(2000)
        embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
        with h.allow_errors() as caught, pytest.raises(discord.HTTPException):
            await channel.send(embed=embed, file=discord.File(io.BytesIO(b"png"), "other.png"))
        assert any("attachment://board.png" in str(e) for e in caught)
        sent = await channel.send(embed=embed, file=discord.File(io.BytesIO(b"png"), "board.png"))
        await sent.edit(embed=embed.set_footer(text="kept"))  # the edit keeps the picture
        await h.settle()
        assert h.message(sent.id).attachments == {"board.png": b"png"}


async def test_the_harness_refuses_a_message_without_allowed_mentions():
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    async with DiscordHarness(bot) as h:
        with h.allow_errors() as caught, pytest.raises(discord.HTTPException):
            await h.bot.get_channel(2000).send("hello")
        assert any("allowed_mentions" in str(e) for e in caught)


def test_a_refusal_names_the_rule_and_the_size_not_only_the_value():
    body = _message(embeds=[{"description": "The board shows " * 300}])
    (found,) = contract.problems("POST", "/channels/5/messages", body)
    assert "description: maxLength 4096, got 4800 characters" in found and len(found) < 160


def test_modal_custom_ids_are_unique():
    modal = {"type": 9, "data": {"custom_id": "m", "title": "Lines", "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "t", "style": 1, "label": "One"}]},
        {"type": 1, "components": [{"type": 4, "custom_id": "t", "style": 1, "label": "Two"}]}]}}
    assert contract.problems("POST", CALLBACK, modal) == ["modal custom_id 't' is used twice"]


def test_mentions_parsed_and_listed_exclude_each_other():
    body = _message([_button()], allowed_mentions={"parse": ["users"], "users": ["1001"]})
    assert contract.problems("POST", "/channels/5/messages", body) == [
        "allowed_mentions: parse 'users' and a users list exclude each other"]
    listed = _message([_button()], allowed_mentions={"parse": [], "users": ["1001"]})
    assert contract.problems("POST", "/channels/5/messages", listed) == []


def test_a_select_cannot_ask_for_more_values_than_it_has_options():
    select = {"type": 3, "custom_id": "s", "min_values": 2, "max_values": 2,
              "options": [{"label": "a", "value": "a"}]}
    assert contract.problems("POST", "/channels/5/messages", _message([select])) == [
        "select 's': min_values 2 > 1 options"]


async def test_the_older_limit_checks_fail_the_test_too():
    """Duplicate option values: the schema allows them, Discord does not; a bot that swallows
    the 400 still fails the test."""
    async with DiscordHarness(_bot()) as h:
        view = discord.ui.View()
        view.add_item(discord.ui.Select(custom_id="s", options=[
            discord.SelectOption(label="a", value="v"), discord.SelectOption(label="b", value="v")]))
        try:
            await h.bot.get_channel(2000).send("menu", view=view)
        except discord.HTTPException:
            pass
        with pytest.raises(HarnessError, match="values are not unique"):
            await h.settle()
