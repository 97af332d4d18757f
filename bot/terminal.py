"""Discord's text for the terminal (the local table): markdown read the way Discord reads it and
written out plain, mentions as names, pictures named instead of their bytes.

Discord shows `**bold**`, `*italics*`, `__underline__`, `~~strike~~`, `||spoilers||`, code in
backticks, `> quotes`, `# headings`, `[masked](links)` and `\\*` escapes; a terminal shows
their marks literally. Each pattern is bounded and reads one line at a time, so no text makes it
backtrack for long."""

from __future__ import annotations

import re

from bot.render.panel import Panel, to_text

_ESCAPED = re.compile(r"\\([\\*_~`|>\[\]()#<:@!-])")
_SLOT = "\ue000"
"""Where an escaped character waits while the marks are taken out (a private-use character,
never in the bot's own text); put back at the end."""
_FENCE = re.compile(r"```(?:[a-z]{1,12}\n)?(.{0,4000}?)```", re.S)
_CODE = re.compile(r"``?([^`\n]{1,500}?)``?")
_PAIRED = [
    re.compile(r"\*\*(?=\S)([^\n]{0,500}?\S)\*\*"),
    re.compile(r"__(?=\S)([^\n]{0,500}?\S)__"),
    re.compile(r"~~(?=\S)([^\n]{0,500}?\S)~~"),
    re.compile(r"\|\|(?=\S)([^\n]{0,500}?\S)\|\|"),
    re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]{0,500}?[^\s*])\*(?![\w*])"),
    re.compile(r"(?<![\w_])_(?=[^\s_])([^_\n]{0,500}?[^\s_])_(?![\w_])"),
]
_LINK = re.compile(r"\[([^\]\n]{1,200})\]\(<?(https?://[^)\s>]{1,400})>?\)")
_LINE_START = re.compile(r"^(?:-# |#{1,3} |>>> |> )", re.M)
_USER = re.compile(r"<@!?(\d{1,20})>")
_CHANNEL = re.compile(r"<#\d{1,20}>")
_TIME = re.compile(r"<t:\d{1,12}(?::[tTdDfFR])?>")
_EMOJI = re.compile(r"<a?:(\w{1,32}):\d{1,20}>")


def plain(text: str, names: dict[str, str] | None = None) -> str:
    """`text` as written for Discord, for a terminal: the marks gone, what they marked kept;
    mentions of the users in `names` (id -> name) as their names, timestamps as "soon",
    channel links as "this table"."""
    kept: list[str] = []

    def keep(m: re.Match[str]) -> str:
        kept.append(m.group(1))
        return _SLOT
    text = text.replace(_SLOT, "")
    text = _ESCAPED.sub(keep, text)  # an escaped mark is a character, never a mark
    text = _FENCE.sub(lambda m: _protect(m.group(1).rstrip("\n"), kept), text)
    text = _CODE.sub(lambda m: _protect(m.group(1), kept), text)
    names = names or {}
    text = _USER.sub(lambda m: names.get(m.group(1), "someone"), text)
    text = _CHANNEL.sub("this table", _TIME.sub("soon", text))
    text = _EMOJI.sub(r":\1:", text)
    text = _LINK.sub(r"\1 (\2)", text)
    text = _LINE_START.sub("", text)
    for pattern in _PAIRED:
        text = pattern.sub(r"\1", text)
    pieces = iter(kept)
    text = re.sub(_SLOT, lambda _: next(pieces, ""), text)
    return text.replace("@\u200b", "@")


def _protect(code: str, kept: list[str]) -> str:
    """Code is shown as it is: every character of it waits in a slot."""
    kept.extend(code)
    return _SLOT * len(code)


def picture_note(panel: Panel) -> str:
    """What the terminal says for a picture it cannot show."""
    name = panel.image_name.rsplit(".", 1)[0].replace("-", " ").replace("_", " ")
    return f"(picture: {name[:40]}, shown on Discord)"


def panel_text(panel: Panel, names: dict[str, str] | None = None) -> str:
    """One panel for the terminal: its text read plain; its drawing for the terminal (a board in
    characters) as it is, before the footer; a picture that has none, named."""
    art = panel.text_art or (panel.text_art_of() if panel.text_art_of is not None else "")
    bare = panel.model_copy(update={"image_png": None, "text_art": "", "text_art_of": None,
                                    "footer": ""})
    lines = [plain(to_text(bare), names)]
    if art:
        lines.append(art)
    elif panel.image_png:
        lines.append(picture_note(panel))
    if panel.footer:
        lines.append(f"({plain(panel.footer, names)})")
    return "\n".join(lines)


def payload_text(content: str | None, panels: list[Panel], names: dict[str, str] | None = None) -> str:
    """A whole message (its content, then each panel) as terminal text."""
    parts = [plain(content, names)] if content else []
    parts += [panel_text(p, names) for p in panels]
    return "\n".join(parts)
