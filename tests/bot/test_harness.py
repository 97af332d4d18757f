"""The offline Discord harness's own tests, on a small bot built here.

They pin the discord.py internals the harness relies on (see
/work/shared/notes/discord-offline-testing.md): if an upgrade breaks them,
these tests say so before the bot's end-to-end tests do.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.support.discord_harness import (
    CommandUnavailable,
    DiscordHarness,
    FakeMessage,
    HarnessError,
    Reply,
)

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
log = logging.getLogger("tests.demo")


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:count:(?P<n>\d+)"):
    """A persistent button: its state lives in its custom_id, so it survives a restart."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", style=discord.ButtonStyle.primary,
                                           custom_id=f"demo:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.seen.append(("count", self.n, interaction.user.id))
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        view.add_item(Later(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)  # type 7


class Later(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:later:(?P<n>\d+)"):
    """Defers the update (type 6), then edits the message through the interaction token."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Later", custom_id=f"demo:later:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        interaction.client.loop.create_task(self.finish(interaction))

    async def finish(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.001)
        await interaction.edit_original_response(content=f"later {self.n}", view=None)


class Boom(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:boom"):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Boom", style=discord.ButtonStyle.danger,
                                           custom_id="demo:boom"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("the handler broke")


class Reason(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:reason"):
    """Opens a modal; its submission edits the message the button is on (type 7)."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Give a reason", custom_id="demo:reason"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        modal = discord.ui.Modal(title="Why", custom_id="demo:why")
        modal.add_item(discord.ui.TextInput(label="Reason", custom_id="demo:reason-text"))

        async def on_submit(submitted: discord.Interaction) -> None:
            text = modal.children[0].value
            await submitted.response.edit_message(content=f"because {text}", view=None)

        modal.on_submit = on_submit
        await interaction.response.send_modal(modal)


class Tally(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:tally"):
    """Two clicks at once: the lock lets exactly one of them win."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Claim", custom_id="demo:tally"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        async with bot.lock:
            await asyncio.sleep(0)  # both clicks are in flight here
            if bot.claimed is None:
                bot.claimed = interaction.user.id
                await interaction.response.edit_message(content=f"claimed by {bot.claimed}", view=None)
            else:
                await interaction.response.send_message("too late", ephemeral=True)


class Confirm(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.value: bool | None = None

    @discord.ui.button(label="Yes", custom_id="demo:yes")
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.value = True
        await interaction.response.edit_message(content="ok", view=None)
        self.stop()


class Pick(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=300)

    @discord.ui.select(custom_id="demo:pick", placeholder="Pick a colour",
                       options=[discord.SelectOption(label=c, value=c) for c in ("red", "green", "blue")])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        interaction.client.seen.append(("pick", tuple(select.values)))
        await interaction.response.send_message(f"you picked {', '.join(select.values)}", ephemeral=True)


class Ask(discord.ui.Modal, title="A question"):
    answer = discord.ui.TextInput(label="Your answer", custom_id="demo:answer", max_length=100)
    note = discord.ui.Label(text="A note", component=discord.ui.TextInput(custom_id="demo:note", required=False))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        note = self.note.component.value
        interaction.client.seen.append(("modal", self.answer.value, note))
        await interaction.response.send_message(f"answer: {self.answer.value} / {note}")


class Demo(commands.GroupCog, group_name="demo"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="ping", description="Ping with options")
    @app_commands.rename(times="how-many")
    async def ping(self, interaction: discord.Interaction, word: str, times: int = 1,
                   loud: bool = False, ratio: float = 0.5, who: discord.Member | None = None) -> None:
        self.bot.seen.append(("ping", word, times, loud, ratio, who.id if who else None,
                              interaction.channel_id, interaction.guild_id))
        embed = discord.Embed(title="Pong", description=word * times)
        embed.add_field(name="loud", value=str(loud))
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        view.add_item(Later(0))
        view.add_item(Boom())
        await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(name="pick", description="A select menu")
    async def pick(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick one", view=Pick())

    @app_commands.command(name="ask", description="Answers with a modal")
    async def ask(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Ask())

    @app_commands.command(name="dm", description="Sends you a DM")
    async def dm(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await interaction.user.send("your hand", file=discord.File(io.BytesIO(PNG), "hand.png"))
        except discord.Forbidden as exc:
            self.bot.seen.append(("dm refused", exc.code))
            await interaction.followup.send("I cannot DM you", ephemeral=True)
        else:
            await interaction.followup.send("sent", ephemeral=True)

    @app_commands.command(name="post", description="Posts then edits a channel message")
    async def post(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        message = await interaction.channel.send("first")
        try:
            await message.edit(content="second")
        except discord.HTTPException as exc:
            self.bot.seen.append(("edit failed", exc.status, exc.code))
            await interaction.followup.send("the edit failed", ephemeral=True)

    @app_commands.command(name="card", description="Defers, then shows an image")
    async def card(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        embed = discord.Embed(title="Your card").set_image(url="attachment://card.png")
        await interaction.edit_original_response(
            embed=embed, attachments=[discord.File(io.BytesIO(PNG), "card.png")])

    @app_commands.command(name="vote", description="A button that opens a modal")
    async def vote(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Reason())
        await interaction.response.send_message("why?", view=view,
                                                file=discord.File(io.BytesIO(PNG), "board.png"))

    @app_commands.command(name="confirm", description="Waits on a view, then follows up")
    async def confirm(self, interaction: discord.Interaction) -> None:
        view = Confirm()
        await interaction.response.send_message("sure?", view=view)
        await view.wait()
        await interaction.followup.send(f"confirmed: {view.value}")

    @app_commands.command(name="game", description="Autocompleted option")
    async def game(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"game {name}")

    @game.autocomplete("name")
    async def game_autocomplete(self, interaction: discord.Interaction, current: str):
        names = ["high-card", "gods-of-magic", "guilty-gods", "terra-sancta"]
        return [app_commands.Choice(name=n, value=n) for n in names if current in n]

    @app_commands.command(name="host", description="Checks Manage Channels itself")
    async def host(self, interaction: discord.Interaction) -> None:
        allowed = interaction.permissions.manage_channels
        await interaction.response.send_message("host ok" if allowed else "not allowed", ephemeral=not allowed)

    @app_commands.command(name="broken", description="Raises")
    async def broken(self, interaction: discord.Interaction) -> None:
        raise ValueError("broken command")

    @app_commands.command(name="silent", description="Never answers")
    async def silent(self, interaction: discord.Interaction) -> None:
        return None


@app_commands.command(name="admin", description="Needs Manage Channels")
@app_commands.default_permissions(manage_channels=True)
@app_commands.guild_only()
async def admin(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("ok")


def make_bot() -> commands.Bot:
    class DemoBot(commands.Bot):
        async def setup_hook(self) -> None:
            await self.add_cog(Demo(self))
            self.add_dynamic_items(Counter, Later, Boom, Reason, Tally)
            self.tree.add_command(admin)

    bot = DemoBot(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                  allowed_mentions=discord.AllowedMentions.none())
    bot.seen = []
    bot.lock = asyncio.Lock()
    bot.claimed = None
    return bot


@pytest.fixture
async def h():
    async with DiscordHarness(make_bot()) as harness:
        yield harness


async def test_slash_with_options_reaches_command_with_types(h: DiscordHarness) -> None:
    reply = await h.slash("demo ping", user=1001, channel=2001,
                          options={"word": "ab", "how-many": 3, "loud": True, "ratio": 2, "who": 1002})
    assert h.bot.seen == [("ping", "ab", 3, True, 2.0, 1002, 2001, 1000)]
    assert reply.type == 4 and not reply.ephemeral
    assert reply.embeds[0]["title"] == "Pong" and "ababab" in reply.text()
    assert h.messages_in(2001) == [reply.message]
    assert [b["label"] for b in reply.message.buttons()] == ["Count 0", "Later", "Boom"]
    callback = reply.calls[0]
    assert callback.method == "POST" and callback.via == "webhook"
    assert callback.path.endswith("/callback") and callback.params == {"with_response": "1"}


async def test_missing_and_unknown_options_are_refused(h: DiscordHarness) -> None:
    with pytest.raises(AssertionError, match="needs options"):
        await h.slash("demo ping", user=1001)
    with pytest.raises(AssertionError, match="no option"):
        await h.slash("demo ping", user=1001, options={"word": "x", "nope": 1})
    with pytest.raises(AssertionError, match="no slash command"):
        await h.slash("nothing", user=1001)


async def test_button_type7_update_and_deferred_edit(h: DiscordHarness) -> None:
    reply = await h.slash("demo ping", user=1001, options={"word": "x"})
    click = await h.click(reply.message, h.find_button(reply.message, "Count 0"), user=1002)
    assert click.type == 7 and click.message is reply.message
    assert reply.message.content == "count 1" and reply.message.edits == 1
    assert h.find_button(reply.message, "Count 1") == "demo:count:1"
    later = await h.click(reply.message, "demo:later:1", user=1002)
    assert later.type == 6
    assert reply.message.content == "later 1" and reply.message.components == []
    assert [c.method for c in later.calls] == ["POST", "PATCH"]
    assert later.calls[1].path.endswith("/messages/@original")


async def test_dynamic_item_click_after_restart() -> None:
    async with DiscordHarness(make_bot()) as first:
        reply = await first.slash("demo ping", user=1001, options={"word": "x"})
        old = reply.message
    bot = make_bot()
    async with DiscordHarness(bot, restart_of=first) as second:  # a new bot, nothing in memory
        click = await second.click(old, "demo:count:0", user=1003)
        assert bot.seen == [("count", 0, 1003)]
        assert click.message is old and old.content == "count 1"
        assert second.messages_in(2000) == [old] and len(second.calls) == 1
    async with DiscordHarness(make_bot()) as third:  # an unrelated harness adopts the message
        click = await third.click(old, "demo:count:1", user=1003)
        assert click.message.id == old.id and click.message.content == "count 2"
        assert old.content == "count 1"  # the adopted copy changed, not the old object


async def test_select_menu(h: DiscordHarness) -> None:
    reply = await h.slash("demo pick", user=1001)
    select = h.find_select(reply.message, "colour")
    picked = await h.select(reply.message, select["custom_id"], ["green"], user=1002)
    assert h.bot.seen == [("pick", ("green",))]
    assert picked.ephemeral and picked.content == "you picked green"
    assert h.messages_in(2000) == [reply.message]  # the ephemeral answer is not in the channel
    assert h.ephemerals_to(1002) == [picked.message]
    with pytest.raises(AssertionError, match="cannot see"):
        await h.click(picked.message, "demo:x", user=1003)
    with pytest.raises(AssertionError, match="not options"):
        await h.select(reply.message, select["custom_id"], ["pink"], user=1002)


async def test_modal_opened_then_submitted(h: DiscordHarness) -> None:
    opened = await h.slash("demo ask", user=1001)
    assert opened.type == 9 and opened.modal["title"] == "A question"
    assert opened.message is None and h.messages_in(2000) == []
    with pytest.raises(AssertionError, match="required"):
        await h.submit_modal(opened, {"demo:note": "n"}, user=1001)
    done = await h.submit_modal(opened, {"demo:answer": "forty-two", "demo:note": "hi"}, user=1001)
    assert h.bot.seen == [("modal", "forty-two", "hi")]
    assert done.type == 4 and done.content == "answer: forty-two / hi"


async def test_dm_sent_with_file(h: DiscordHarness) -> None:
    reply = await h.slash("demo dm", user=1002)
    dms = h.dms_to(1002)
    assert len(dms) == 1 and dms[0].content == "your hand"
    assert dms[0].attachments == {"hand.png": PNG}
    assert reply.type == 5 and reply.ephemeral and reply.message.content == "sent"
    assert reply.created == [reply.message, dms[0]]
    assert [c.path for c in reply.calls if c.via == "http"] == [
        "/users/@me/channels", f"/channels/{h.dm_channel_id(1002)}/messages"]
    upload = [c for c in reply.calls if c.files][0]
    assert upload.files == [("hand.png", PNG)] and upload.json["content"] == "your hand"
    with pytest.raises(AssertionError, match="cannot see"):
        await h.click(dms[0], "demo:x", user=1001)
    await h.slash("demo dm", user=1002)  # the DM channel is cached: no second creation
    assert len(h.dms_to(1002)) == 2
    assert sum(c.path == "/users/@me/channels" for c in h.calls) == 1


async def test_dm_refused_with_50007(h: DiscordHarness) -> None:
    h.block_dms(1003)
    reply = await h.slash("demo dm", user=1003)
    assert ("dm refused", 50007) in h.bot.seen
    assert reply.message.content == "I cannot DM you" and h.dms_to(1003) == []
    refused = [c for c in reply.calls if c.status == 403]
    assert len(refused) == 1 and refused[0].path.endswith("/messages")


async def test_dm_interaction(h: DiscordHarness) -> None:
    reply = await h.slash("demo ping", user=1004, guild=False, options={"word": "dm"})
    assert h.bot.seen[0][-2:] == (h.dm_channel_id(1004), None)
    assert h.dms_to(1004) == [reply.message]
    with pytest.raises(CommandUnavailable):
        await h.slash("admin", user=1004, guild=False)


async def test_injected_failure_on_edit(h: DiscordHarness) -> None:
    h.fail_next("PATCH", r"/channels/2000/messages/\d+", 404, 10008, "Unknown Message")
    reply = await h.slash("demo post", user=1001)
    assert ("edit failed", 404, 10008) in h.bot.seen
    assert h.last_in(2000).content == "first" and h.last_in(2000).edits == 0
    assert reply.followups[0].content == "the edit failed"
    await h.slash("demo post", user=1001)  # only the next one failed
    assert h.last_in(2000).content == "second"


async def test_autocomplete(h: DiscordHarness) -> None:
    choices = await h.autocomplete("demo game", user=1001, options={"name": "gods"}, focused="name")
    assert [c["value"] for c in choices] == ["gods-of-magic", "guilty-gods"]


async def test_permissions_gate_commands(h: DiscordHarness) -> None:
    with pytest.raises(CommandUnavailable, match="manage_channels"):
        await h.slash("admin", user=1001)
    ok = await h.slash("admin", user=1001, permissions=discord.Permissions(manage_channels=True))
    assert ok.content == "ok"
    h.set_permissions(1002, discord.Permissions(administrator=True))
    assert (await h.slash("admin", user=1002)).content == "ok"
    refused = await h.slash("demo host", user=1001)
    assert refused.ephemeral and refused.content == "not allowed"
    host = await h.slash("demo host", user=1001, permissions=discord.Permissions(manage_channels=True))
    assert host.content == "host ok"


async def test_handler_error_fails_the_test(h: DiscordHarness) -> None:
    reply = await h.slash("demo ping", user=1001, options={"word": "x"})
    with pytest.raises(HarnessError, match="the handler broke"):
        await h.click(reply.message, "demo:boom", user=1001)
    with pytest.raises(HarnessError, match="broken command"):
        await h.slash("demo broken", user=1001)
    with h.allow_errors() as caught:
        await h.click(reply.message, "demo:boom", user=1001)
    assert any("the handler broke" in str(r.exc_info[1]) for r in caught)
    log.error("an error outside the bot's handlers")
    with pytest.raises(HarnessError, match="outside"):
        await h.settle()


async def test_unanswered_interaction_fails(h: DiscordHarness) -> None:
    with pytest.raises(HarnessError, match="never answered"):
        await h.slash("demo silent", user=1001)


async def test_discord_limits_are_enforced(h: DiscordHarness) -> None:
    channel = h.bot.get_channel(2000)
    with h.allow_errors():
        with pytest.raises(discord.HTTPException) as info:
            await channel.send("x" * 2001)
    assert info.value.code == 50035 and "2000" in info.value.text


async def test_sync_owner_and_close_restores_patches() -> None:
    from discord.webhook.async_ import AsyncWebhookAdapter

    original = AsyncWebhookAdapter.request
    bot = make_bot()
    async with DiscordHarness(bot) as h:
        assert AsyncWebhookAdapter.request is not original
        synced = await bot.tree.sync()
        assert sorted(c.name for c in synced) == ["admin", "demo"]
        assert {c["name"] for c in h.synced_commands[None]} == {"admin", "demo"}
        assert not await bot.is_owner(discord.Object(1001))
    assert AsyncWebhookAdapter.request is original
    assert "request" not in vars(bot.http)


async def test_one_interaction_costs_about_a_millisecond(h: DiscordHarness) -> None:
    reply = await h.slash("demo ping", user=1001, options={"word": "x"})
    n = 200
    start = time.perf_counter()
    for _ in range(n):
        await h.slash("demo game", user=1001, options={"name": "x"})
    per_slash = (time.perf_counter() - start) / n
    start = time.perf_counter()
    for i in range(n):
        await h.click(reply.message, f"demo:count:{i}", user=1002)
    per_click = (time.perf_counter() - start) / n
    print(f"\nslash {per_slash * 1000:.2f} ms, click {per_click * 1000:.2f} ms")
    assert isinstance(reply, Reply) and isinstance(reply.message, FakeMessage)


async def test_deferred_then_edited_with_an_image(h: DiscordHarness) -> None:
    reply = await h.slash("demo card", user=1001)
    assert reply.type == 5 and not reply.ephemeral
    msg = reply.message
    assert msg.embeds[0]["image"]["url"] == "attachment://card.png"
    assert msg.attachments == {"card.png": PNG} and not msg.loading
    edit = reply.calls[-1]
    assert edit.method == "PATCH" and edit.path.endswith("/@original") and edit.files == [("card.png", PNG)]


async def test_modal_from_a_button_edits_that_message(h: DiscordHarness) -> None:
    reply = await h.slash("demo vote", user=1001)
    assert reply.message.attachments == {"board.png": PNG}  # a file in the callback itself
    opened = await h.click(reply.message, h.find_button(reply, "reason"), user=1002)
    assert opened.type == 9
    done = await h.submit_modal(opened, {"demo:reason-text": "it is fun"}, user=1002)
    assert done.type == 7 and done.message is reply.message
    assert reply.message.content == "because it is fun" and reply.message.components == []


async def test_two_clicks_at_once_in_a_thread() -> None:
    bot = make_bot()
    async with DiscordHarness(bot, thread_ids=(3000,)) as h:
        channel = h.bot.get_channel(3000)
        view = discord.ui.View(timeout=None)
        view.add_item(Tally())
        sent = await channel.send("first to claim", view=view)
        message = h.last_in(3000)
        assert message.id == sent.id and isinstance(channel, discord.Thread)
        first, second = await asyncio.gather(h.click(message, "demo:tally", user=1001),
                                             h.click(message, "demo:tally", user=1002))
        assert bot.claimed == 1001
        assert (first.type, second.type) == (7, 4) and second.ephemeral
        assert message.content == "claimed by 1001"
        assert h.messages_in(3000) == [message]


async def test_guarded_clicks(h: DiscordHarness) -> None:
    reply = await h.slash("demo ping", user=1001, options={"word": "x"})
    with pytest.raises(AssertionError, match="no button"):
        await h.click(reply.message, "demo:count:7", user=1001)
    with pytest.raises(AssertionError, match="no single button"):
        h.find_button(reply.message, "Missing")
    await h.bot.get_channel(2000).get_partial_message(reply.message.id).delete()
    assert reply.message.deleted and h.messages_in(2000) == []


async def test_command_waiting_on_a_view(h: DiscordHarness) -> None:
    asked = await h.slash("demo confirm", user=1001)  # returns while the command waits on view.wait()
    assert asked.content == "sure?" and asked.followups == []
    await h.click(asked.message, h.find_button(asked, "Yes"), user=1001)
    await h.settle()  # the command resumes and follows up
    assert asked.message.content == "ok"
    assert [m.content for m in asked.followups] == ["confirmed: True"]


async def test_failed_start_restores_patches() -> None:
    from discord.webhook.async_ import AsyncWebhookAdapter

    class Broken(commands.Bot):
        async def setup_hook(self) -> None:
            raise RuntimeError("no database")

    original = AsyncWebhookAdapter.request
    bot = Broken(command_prefix="!", intents=discord.Intents.none())
    with pytest.raises(RuntimeError, match="no database"):
        async with DiscordHarness(bot):
            pass
    assert AsyncWebhookAdapter.request is original and "request" not in vars(bot.http)


async def test_injected_failure_on_the_callback(h: DiscordHarness) -> None:
    h.fail_next("POST", r"/callback$", 500, message="Discord is down")
    with h.allow_errors() as caught:
        reply = await h.slash("demo game", user=1001, options={"name": "x"})
    assert reply.type is None and reply.calls[0].status == 500
    assert any("Discord is down" in str(r.exc_info[1].__cause__ or r.exc_info[1]) for r in caught)
    assert h.messages_in(2000) == []


async def test_a_task_that_may_park_wakes_only_the_waits_that_wait_for_it(h: DiscordHarness) -> None:
    """With many clicks in flight, a view created at one table (a timer of minutes: a sleeper)
    wakes the wait of that click only, not every click's wait."""
    gate = asyncio.Event()

    async def parks() -> None:
        h._wake_soon()  # as a View's timeout timer does when it is set
        await gate.wait()

    async def other() -> None:
        await gate.wait()

    mine, theirs = asyncio.ensure_future(parks()), asyncio.ensure_future(other())
    loop = asyncio.get_running_loop()
    woken_mine, woken_theirs = loop.create_future(), loop.create_future()
    h._waiters[woken_mine] = lambda: {mine}
    h._waiters[woken_theirs] = lambda: {theirs}
    for _ in range(3):
        await asyncio.sleep(0)
    assert woken_mine.done() and not woken_theirs.done()
    del h._waiters[woken_mine], h._waiters[woken_theirs]
    gate.set()
    await asyncio.gather(mine, theirs)


async def test_a_task_of_one_frame_wakes_that_frame_s_wait_without_reading_the_others(h: DiscordHarness) -> None:
    """A click's wait is found by the bucket of its frame: a task caused by one frame that may
    park wakes that frame's wait (and a `settle` wait holding it), and no other click's wait
    reads its tasks (at 200 tables each click sets a timer: reading every wait was quadratic)."""
    from tests.support.discord_harness import _CAUSE

    gate = asyncio.Event()

    async def parks() -> None:
        h._wake_soon()  # as the bot's 2-second answer timer does when a click sets it
        await gate.wait()

    bucket_a: set[asyncio.Task] = set()
    bucket_b: set[asyncio.Task] = set()
    mark = _CAUSE.set(bucket_a)
    try:
        mine = asyncio.ensure_future(parks())  # the task factory puts it in bucket_a
    finally:
        _CAUSE.reset(mark)
    assert mine in bucket_a
    read: list[str] = []

    def tasks_of(name: str, bucket: set[asyncio.Task]):
        return lambda: read.append(name) or bucket

    loop = asyncio.get_running_loop()
    wake_a, wake_b, wake_all = loop.create_future(), loop.create_future(), loop.create_future()
    h._waiters.update({wake_a: tasks_of("a", bucket_a), wake_b: tasks_of("b", bucket_b),
                       wake_all: tasks_of("all", bucket_a | bucket_b)})
    h._bucket_waits.update({id(bucket_a): {wake_a}, id(bucket_b): {wake_b}})
    h._across[wake_all] = h._waiters[wake_all]
    for _ in range(3):
        await asyncio.sleep(0)
    assert wake_a.done() and wake_all.done() and not wake_b.done()
    assert "a" not in read and "b" not in read and read == ["all"]
    for wake in (wake_a, wake_b, wake_all):
        del h._waiters[wake]
    h._bucket_waits.clear()
    del h._across[wake_all]
    gate.set()
    await mine
