"""Raw Discord payloads (gateway and REST answers) for the offline harness.

Shapes follow Discord's API v10 as discord.py 2.7 parses them. Only what the
library reads is filled in; everything else is left out.
"""

from __future__ import annotations

import datetime
from typing import Any

import discord

DISCORD_EPOCH_MS = 1420070400000
#: Snowflakes start at 2025-01-01, so ids sort like real ones.
SNOWFLAKE_START = (1735689600000 - DISCORD_EPOCH_MS) << 22

EPHEMERAL = 1 << 6
LOADING = 1 << 7

#: What an ordinary member may do in a channel (no Manage Channels).
MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
)
#: What the bot may do in the test guild's channels.
BOT_PERMISSIONS = discord.Permissions(
    MEMBER_PERMISSIONS.value,
    manage_messages=True,
    manage_threads=True,
    create_public_threads=True,
    create_private_threads=True,
)


def snowflake_time(snowflake: int) -> str:
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC).isoformat()


def user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
    }


def member(user_id: int, name: str, *, permissions: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "user": user(user_id, name),
        "roles": [],
        "nick": None,
        "avatar": None,
        "joined_at": "2025-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def text_channel(channel_id: int, guild_id: int, *, position: int = 0) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": f"table-{channel_id}",
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }


def thread_channel(thread_id: int, guild_id: int, parent_id: int, owner_id: int) -> dict[str, Any]:
    return {
        "id": str(thread_id),
        "type": 11,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": f"thread-{thread_id}",
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": "2025-01-01T00:00:00+00:00",
            "locked": False,
            "invitable": True,
        },
    }


def dm_channel(channel_id: int, recipient: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": 1,
        "recipients": [recipient],
        "last_message_id": None,
        "flags": 0,
    }


def role(role_id: int, name: str, permissions: int = 0, position: int = 0) -> dict[str, Any]:
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "hoist": False,
        "position": position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def ready(bot_user: dict[str, Any], guild_ids: list[int], application_id: int) -> dict[str, Any]:
    return {
        "v": 10,
        "user": bot_user,
        "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
        "session_id": "harness-session",
        "resume_gateway_url": "wss://gateway.invalid",
        "shard": [0, 1],
        "application": {"id": str(application_id), "flags": 0},
        "private_channels": [],
        "relationships": [],
    }


def guild_create(
    guild_id: int,
    *,
    owner_id: int,
    channels: list[dict[str, Any]],
    threads: list[dict[str, Any]],
    members: list[dict[str, Any]],
) -> dict[str, Any]:
    return {
        "id": str(guild_id),
        "name": f"guild-{guild_id}",
        "icon": None,
        "owner_id": str(owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role(guild_id, "@everyone", MEMBER_PERMISSIONS.value)],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": "2025-01-01T00:00:00+00:00",
        "large": False,
        "unavailable": False,
        "member_count": len(members),
        "voice_states": [],
        "members": members,
        "channels": channels,
        "threads": threads,
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def app_info(application_id: int, bot_user: dict[str, Any], owner: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(application_id),
        "name": bot_user["username"],
        "icon": None,
        "description": "",
        "summary": "",
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": owner,
        "team": None,
        "verify_key": "0" * 64,
        "flags": 0,
        "bot": bot_user,
        "rpc_origins": [],
        "tags": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
    }


def interaction(
    *,
    interaction_id: int,
    type: int,
    token: str,
    application_id: int,
    user_data: dict[str, Any],
    channel: dict[str, Any],
    guild_id: int | None,
    permissions: int,
    app_permissions: int,
    data: dict[str, Any] | None = None,
    message: dict[str, Any] | None = None,
    locale: str = "en-US",
) -> dict[str, Any]:
    """An INTERACTION_CREATE payload, from a guild channel or from the user's DM."""
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "type": type,
        "token": token,
        "application_id": str(application_id),
        "version": 1,
        "attachment_size_limit": 10 * 1024 * 1024,
        "locale": locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "channel": channel,
        "channel_id": channel["id"],
        "app_permissions": str(app_permissions),
    }
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
        payload["guild_locale"] = "en-US"
        payload["guild"] = {"id": str(guild_id), "locale": "en-US", "features": []}
        payload["member"] = {**member(int(user_data["id"]), user_data["username"]), "user": user_data,
                             "permissions": str(permissions)}
        payload["authorizing_integration_owners"] = {"0": str(guild_id)}
        payload["context"] = 0
    else:
        payload["user"] = user_data
        payload["authorizing_integration_owners"] = {"0": "0"}
        payload["context"] = 1
    if data is not None:
        payload["data"] = data
    if message is not None:
        payload["message"] = message
    return payload


# --- Discord's limits on what a bot sends (answered with 400, code 50035) -------------------

def message_problems(body: dict[str, Any]) -> list[str]:
    """What Discord would refuse in a message body (content, embeds, components)."""
    problems: list[str] = []
    content = body.get("content")
    if content is not None and len(content) > 2000:
        problems.append(f"content: {len(content)} characters > 2000")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        problems.append(f"embeds: {len(embeds)} > 10")
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in (("title", 256), ("description", 4096)):
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > limit:
                problems.append(f"embeds[{i}].{key}: {len(text)} characters > {limit}")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(f"embeds[{i}].fields: {len(fields)} > 25")
        for j, field in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                text = str(field.get(key) or "")
                total += len(text)
                if not text:
                    problems.append(f"embeds[{i}].fields[{j}].{key} is empty")
                if len(text) > limit:
                    problems.append(f"embeds[{i}].fields[{j}].{key}: {len(text)} characters > {limit}")
        for key, sub, limit in (("footer", "text", 2048), ("author", "name", 256)):
            text = (embed.get(key) or {}).get(sub) or ""
            total += len(text)
            if len(text) > limit:
                problems.append(f"embeds[{i}].{key}.{sub}: {len(text)} characters > {limit}")
    if total > 6000:
        problems.append(f"embeds: {total} characters in all > 6000")
    problems += component_problems(body.get("components") or [], flags=body.get("flags") or 0)
    attachments = body.get("attachments")
    if attachments is not None and len(attachments) > 10:
        problems.append(f"attachments: {len(attachments)} > 10")
    return problems


def component_problems(rows: list[dict[str, Any]], *, flags: int = 0) -> list[str]:
    problems: list[str] = []
    if flags & (1 << 15):  # components v2: only the total is checked here
        return problems
    if len(rows) > 5:
        problems.append(f"components: {len(rows)} action rows > 5")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        if row.get("type") != 1:
            problems.append(f"components[{r}]: type {row.get('type')} is not an action row")
            continue
        children = row.get("components") or []
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if selects and len(children) > 1:
            problems.append(f"components[{r}]: a select menu must be alone in its row")
        if len(children) > 5 or not children:
            problems.append(f"components[{r}]: {len(children)} components (1 to 5)")
        for c, comp in enumerate(children):
            where = f"components[{r}].components[{c}]"
            custom_id = comp.get("custom_id")
            if custom_id is not None:
                if len(custom_id) > 100:
                    problems.append(f"{where}.custom_id: {len(custom_id)} characters > 100")
                if custom_id in seen:
                    problems.append(f"{where}.custom_id {custom_id!r} is used twice")
                seen.add(custom_id)
            if comp.get("type") == 2:
                label = comp.get("label") or ""
                if len(label) > 80:
                    problems.append(f"{where}.label: {len(label)} characters > 80")
                if not label and not comp.get("emoji"):
                    problems.append(f"{where}: a button needs a label or an emoji")
                if comp.get("style") == 5 and not comp.get("url"):
                    problems.append(f"{where}: a link button needs a url")
                if comp.get("style") != 5 and custom_id is None and comp.get("style") != 6:
                    problems.append(f"{where}: a button needs a custom_id")
            elif comp.get("type") == 3:
                options = comp.get("options") or []
                if not 1 <= len(options) <= 25:
                    problems.append(f"{where}.options: {len(options)} (1 to 25)")
                values = [o.get("value") for o in options]
                if len(set(values)) != len(values):
                    problems.append(f"{where}.options: values are not unique")
                for o, option in enumerate(options):
                    if not option.get("label") or not option.get("value"):
                        problems.append(f"{where}.options[{o}]: label and value must not be empty")
                    for key in ("label", "value", "description"):
                        text = option.get(key) or ""
                        if len(text) > 100:
                            problems.append(f"{where}.options[{o}].{key}: {len(text)} characters > 100")
                placeholder = comp.get("placeholder") or ""
                if len(placeholder) > 150:
                    problems.append(f"{where}.placeholder: {len(placeholder)} characters > 150")
    return problems


def modal_problems(modal: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    title = modal.get("title") or ""
    if not title or len(title) > 45:
        problems.append(f"modal title: {len(title)} characters (1 to 45)")
    custom_id = modal.get("custom_id") or ""
    if not custom_id or len(custom_id) > 100:
        problems.append(f"modal custom_id: {len(custom_id)} characters (1 to 100)")
    rows = modal.get("components") or []
    if not 1 <= len(rows) <= 5:
        problems.append(f"modal components: {len(rows)} (1 to 5)")
    for comp in iter_modal_inputs(rows):
        if comp.get("type") == 4:
            if len(comp.get("value") or "") > 4000:
                problems.append(f"modal input {comp.get('custom_id')!r}: value > 4000 characters")
            if (comp.get("max_length") or 0) > 4000:
                problems.append(f"modal input {comp.get('custom_id')!r}: max_length > 4000")
    return problems


def iter_modal_inputs(rows: list[dict[str, Any]]):
    """The inputs of a modal: in action rows (type 1) or in labels (type 18)."""
    for row in rows:
        if row.get("type") == 1:
            yield from row.get("components") or []
        elif row.get("type") == 18:
            yield row["component"]
        else:
            yield row


def iter_components(components: list[dict[str, Any]]):
    """Every component of a message, depth first (action rows, containers, sections ...)."""
    for comp in components:
        yield comp
        if "components" in comp:
            yield from iter_components(comp["components"])
        if "component" in comp:
            yield from iter_components([comp["component"]])
        if "accessory" in comp:
            yield from iter_components([comp["accessory"]])
