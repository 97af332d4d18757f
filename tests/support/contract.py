"""Discord's contract for what a bot sends: its published API description, and what it cannot say.

Every REST call the harness records is matched to its operation in Discord's OpenAPI
description (`discord_spec/openapi.json`, see its README for the commit and licence) by method
and path template, and its JSON body (or a multipart request's `payload_json`) is validated
against that operation's request schema (JSON Schema 2020-12, `$ref`s resolved in the spec).
`problems(...)` adds what the schema cannot say: all the embeds of a message at most 6,000
characters, content at most 2,000 (the description allows 4,000, which bots are not given), custom
ids unique in a message, `allowed_mentions` on every message, every unicode
emoji of a component in Unicode's emoji list (the `emoji` package), and every `attachment://`
picture an embed shows uploaded with the message (or kept from it, on an edit).

Validation is compiled once per operation (jsonschema-rs); a body it refuses is described again
with `jsonschema`'s best match, which names the innermost failing field.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import emoji
import jsonschema
import jsonschema_rs

SPEC_PATH = Path(__file__).parent / "discord_spec" / "openapi.json"
API_VERSION_PREFIX = re.compile(r"^/v\d+")
MESSAGE_OPERATIONS = {  # operations whose body is a message the bot writes
    "create_message", "update_message", "execute_webhook", "update_original_webhook_message",
    "update_webhook_message", "create_interaction_response",
}
ATTACHMENT_URL = re.compile(r"^attachment://(?P<name>[^/]+)$")


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    operation_id: str
    pattern: re.Pattern[str]
    literal_segments: int
    schema: dict[str, Any] | None  # the JSON body's schema, None when the operation takes none


@functools.cache
def spec() -> dict[str, Any]:
    """The description, with one known leniency of the real API written in: a snowflake may be
    sent as a JSON number as well as a string (the spec allows only the string; Discord reads
    both, and discord.py sends `allowed_mentions.users` and new attachments' ids as numbers)."""
    described = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    schemas = described["components"]["schemas"]
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"],
                                          {"type": "integer", "minimum": 0}]}
    return described


def _template_pattern(template: str) -> tuple[re.Pattern[str], int]:
    parts = []
    literal = 0
    for segment in template.strip("/").split("/"):
        if segment.startswith("{") and segment.endswith("}"):
            parts.append(f"(?P<{segment[1:-1]}>[^/]+)")
        else:
            parts.append(re.escape(segment))
            literal += 1
    return re.compile("/" + "/".join(parts)), literal


@functools.cache
def operations() -> tuple[Operation, ...]:
    """Every operation of the description, the most literal templates first (`@original` before
    `{message_id}`)."""
    found = []
    for template, item in spec()["paths"].items():
        pattern, literal = _template_pattern(template)
        for method, op in item.items():
            if method == "parameters":
                continue
            body = ((op.get("requestBody") or {}).get("content") or {}).get("application/json")
            found.append(Operation(method.upper(), template, op["operationId"], pattern, literal,
                                   body["schema"] if body else None))
    return tuple(sorted(found, key=lambda o: -o.literal_segments))


def operation_for(method: str, path: str) -> Operation | None:
    path = API_VERSION_PREFIX.sub("", path)
    for op in operations():
        if op.method == method and op.pattern.fullmatch(path):
            return op
    return None


def _rooted(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with the spec's components beside it, so that `#/components/...` resolves."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema,
            "components": spec()["components"]}


@functools.cache
def _fast(operation_id: str) -> Any:
    op = next(o for o in operations() if o.operation_id == operation_id)
    assert op.schema is not None
    return jsonschema_rs.validator_for(_rooted(op.schema))


def _explain(schema: dict[str, Any], body: Any) -> str:
    """The innermost reason `jsonschema` gives for refusing the body."""
    validator = jsonschema.Draft202012Validator(_rooted(schema))
    errors = list(validator.iter_errors(body))
    if not errors:  # the two validators disagree: name the fast one's reason
        return "refused by the schema"
    error = _innermost(max(errors, key=_RELEVANCE))
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return f"{where or '(body)'}: {_reason(error)}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _reason(error: Any) -> str:
    """The rule broken and by how much, the value itself shortened (jsonschema's message starts
    with the whole value, so a long one hid the reason)."""
    rule, limit, value = error.validator, error.validator_value, error.instance
    if rule in ("maxLength", "minLength"):
        return f"{rule} {limit}, got {len(value)} characters ({_short(value)})"
    if rule in ("maxItems", "minItems"):
        return f"{rule} {limit}, got {len(value)} items"
    if rule in ("maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"):
        return f"{rule} {limit}, got {value}"
    if rule in ("enum", "const"):
        return f"must be {'one of ' if rule == 'enum' else ''}{limit}, got {_short(value)}"
    if rule == "type":
        return f"must be of type {limit}, got {_short(value)}"
    if rule == "pattern":
        return f"must match {limit}, got {_short(value)}"
    return f"{rule}: {error.message[:120]}"


def _wrong_kind(errors: list[Any]) -> bool:
    """A union's alternative that is of another kind than the value (its `type` discriminator or
    its JSON type differs): its errors say nothing about what is wrong."""
    for e in errors:
        if not e.relative_path and e.validator == "type":
            return True
        if list(e.relative_path) == ["type"] and e.validator in ("enum", "const"):
            return True
    return False


def _innermost(error: Any) -> Any:
    """Through `oneOf`/`anyOf`: into the one alternative of the value's own kind."""
    while error.context:
        branches: dict[Any, list[Any]] = {}
        for e in error.context:
            branches.setdefault(e.relative_schema_path[0], []).append(e)
        fitting = [errs for errs in branches.values() if not _wrong_kind(errs)]
        if len(fitting) != 1:
            break
        error = max(fitting[0], key=_RELEVANCE)
    return error


_RELEVANCE = jsonschema.exceptions.by_relevance()


def _branch(schema: dict[str, Any], body: Any) -> dict[str, Any]:
    """An `anyOf` request body (the interaction callback) narrowed to the alternative whose
    `type` enum holds the body's type, so that the errors name the real field."""
    alternatives = schema.get("anyOf")
    if not alternatives or not isinstance(body, dict):
        return schema
    components = spec()["components"]["schemas"]
    for alt in alternatives:
        target = components[alt["$ref"].rsplit("/", 1)[1]] if "$ref" in alt else alt
        enum = ((target.get("properties") or {}).get("type") or {}).get("enum") or []
        if body.get("type") in enum:
            return alt
    return schema


def schema_problems(method: str, path: str, body: Any) -> list[str]:
    """What Discord's published description refuses in this call (an unknown route included)."""
    op = operation_for(method, path)
    if op is None:
        return [f"{method} {path}: no such operation in Discord's API description"]
    if op.schema is None or body is None:
        return []
    if _fast(op.operation_id).is_valid(body):
        return []
    return [f"{op.operation_id} {_explain(_branch(op.schema, body), body)}"]


# --- what the schema cannot say ------------------------------------------------------------


def _message_of(operation_id: str, body: Any) -> dict[str, Any] | None:
    """The message a call writes, or None (a modal, an autocomplete, a deferral ...)."""
    if not isinstance(body, dict) or operation_id not in MESSAGE_OPERATIONS:
        return None
    if operation_id == "create_interaction_response":
        if body.get("type") not in (4, 7):
            return None
        return body.get("data") or {}
    return body


def _components(items: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for comp in items:
        yield comp
        for key in ("components",):
            yield from _components(comp.get(key) or [])
        for key in ("component", "accessory"):
            if isinstance(comp.get(key), dict):
                yield from _components([comp[key]])


def _embed_length(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        total += len(str(f.get("name") or "")) + len(str(f.get("value") or ""))
    return total


def _embed_urls(embed: dict[str, Any]) -> Iterator[str]:
    for key, sub in (("image", "url"), ("thumbnail", "url"), ("author", "icon_url"),
                     ("footer", "icon_url")):
        url = (embed.get(key) or {}).get(sub)
        if url:
            yield url


def is_emoji(text: str) -> bool:
    """Unicode's emoji list, as the `emoji` package keeps it (with or without the variation
    selector, which Discord accepts both ways)."""
    return emoji.is_emoji(text) or emoji.is_emoji(text + "\ufe0f") or emoji.is_emoji(text.replace("\ufe0f", ""))


def attachment_problems(embeds: list[dict[str, Any]], names: Iterable[str]) -> list[str]:
    """Every `attachment://` picture an embed shows must be among the message's files: those
    uploaded with the call and, on an edit, those it keeps."""
    known = set(names)
    problems = []
    for i, embed in enumerate(embeds):
        for url in _embed_urls(embed):
            match = ATTACHMENT_URL.match(url)
            if match and match["name"] not in known:
                problems.append(f"embeds[{i}]: {url} is not uploaded with the message")
    return problems


def message_problems(message: dict[str, Any], *, creating: bool) -> list[str]:
    problems = []
    content = message.get("content")
    if isinstance(content, str) and len(content) > 2000:  # the description says 4,000: not for bots
        problems.append(f"content: {len(content)} characters > 2000")
    embeds = message.get("embeds") or []
    total = sum(_embed_length(e) for e in embeds if isinstance(e, dict))
    if total > 6000:
        problems.append(f"embeds: {total} characters in all > 6000")
    mentions = message.get("allowed_mentions")
    if creating and mentions is None:  # the project's rule: Discord would ping every mention
        problems.append("allowed_mentions is missing: every message must say whom it may ping")
    if isinstance(mentions, dict):
        for kind in ("users", "roles"):
            if kind in (mentions.get("parse") or []) and mentions.get(kind):
                problems.append(f"allowed_mentions: parse {kind!r} and a {kind} list exclude each other")
    problems += _reused_ids(message.get("components") or [], "custom_id {!r} is used twice in one message")
    for comp in _components(message.get("components") or []):
        custom_id = comp.get("custom_id")
        options = comp.get("options")
        if isinstance(options, list) and options and (comp.get("min_values") or 1) > len(options):
            problems.append(f"select {custom_id!r}: min_values {comp.get('min_values')} > "
                            f"{len(options)} options")
        for em in [comp.get("emoji")] + [o.get("emoji") for o in comp.get("options") or []]:
            if isinstance(em, dict) and not em.get("id") and not is_emoji(em.get("name") or ""):
                problems.append(f"emoji {em.get('name')!r} is not in Unicode's emoji list "
                                "(Discord answers 50035, invalid emoji)")
    return problems


def _reused_ids(components: list[dict[str, Any]], problem: str) -> list[str]:
    """`problem` (formatted with the id) for each custom id used again among these components."""
    seen: set[str] = set()
    problems = []
    for comp in _components(components):
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                problems.append(problem.format(custom_id))
            seen.add(custom_id)
    return problems


def modal_problems(modal: dict[str, Any]) -> list[str]:
    """The schema bounds the modal's title and its inputs' labels; their custom ids must differ."""
    return _reused_ids(modal.get("components") or [], "modal custom_id {!r} is used twice")


def problems(method: str, path: str, body: Any) -> list[str]:
    """Everything Discord would refuse in one call's body: the schema's verdict and the rules
    above (the pictures' names are checked against the message's files by the harness,
    `attachment_problems`)."""
    found = schema_problems(method, path, body)
    op = operation_for(method, path)
    if op is None:
        return found
    message = _message_of(op.operation_id, body)
    if message is not None:
        creating = method == "POST"
        found += message_problems(message, creating=creating)
    if op.operation_id == "create_interaction_response" and isinstance(body, dict) and body.get("type") == 9:
        found += modal_problems(body.get("data") or {})
    return found
