"""Messages as Discord shows them, in HTML: the dark theme, embeds with their colour bar, fields
(inline ones side by side on a desktop, one under the other on a phone), the attached picture
where an embed's image is `attachment://name`, buttons with their styles and emoji, and select
menus with their placeholder. Markdown is rendered the way Discord renders it; what Discord would
show literally stays literal. The developer preview (`python -m bot preview`) writes these pages."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from bot.preview.style import CSS, MEASURE

PHONE_WIDTH = 400
DESKTOP_WIDTH = 1280


@dataclass
class Shown:
    """One message as a person sees it, with where it is shown ("#table", "DM to alice" ...)."""

    where: str
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # attachment name -> path next to the page
    note: str = ""  # "ephemeral: only alice sees it", "deleted" ...


@dataclass
class Where:
    """What mentions and timestamps read as: user ids' names, channel ids' names, the moment now."""

    names: dict[int, str] = field(default_factory=dict)
    channels: dict[int, str] = field(default_factory=dict)
    now: float | None = None

    def md(self, text: str, headings: bool = True) -> str:
        return markdown(text, names=self.names, channels=self.channels, now=self.now, headings=headings)


# --- markdown --------------------------------------------------------------------------------

_HOLD = "\x00{}\x00"
_HELD = re.compile("\x00(\\d+)\x00")
_CODE_BLOCK = re.compile(r"```(?:([A-Za-z0-9_+-]{1,20})\n)?(.+?)```", re.S)
_INLINE_CODE = re.compile(r"(`+)(.+?)\1", re.S)
_ESCAPE = re.compile(r"\\([\\*_~`|>#\-\[\]()])")
_SPANS = [
    (re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S), "strong"),
    (re.compile(r"__(?=\S)(.+?)(?<=\S)__", re.S), "u"),
    (re.compile(r"\*(?=[^\s*])(.+?)(?<=[^\s*])\*", re.S), "em"),
    (re.compile(r"(?<![A-Za-z0-9])_(?=\S)(.+?)(?<=\S)_(?![A-Za-z0-9])", re.S), "em"),
    (re.compile(r"~~(?=\S)(.+?)(?<=\S)~~", re.S), "s"),
    (re.compile(r"\|\|(.+?)\|\|", re.S), "spoiler"),
]
_LINK = re.compile(r"\[([^\]\n]{1,200})\]\((https?://[^)\s]{1,500})\)")
_USER = re.compile(r"&lt;@!?(\d{1,20})&gt;")
_CUSTOM_EMOJI = re.compile(r"&lt;a?:([A-Za-z0-9_]{2,32}):\d{1,20}&gt;")
_CHANNEL = re.compile(r"&lt;#(\d{1,20})&gt;")
_TIME = re.compile(r"&lt;t:(-?\d{1,13})(?::([tTdDfFR]))?&gt;")
_FORMATS = {"t": "%H:%M", "T": "%H:%M:%S", "d": "%d/%m/%Y", "D": "%d %B %Y", "f": "%d %B %Y %H:%M",
            "F": "%A, %d %B %Y %H:%M"}


def _relative(seconds: float) -> str:
    """Discord's relative time: "in 5 minutes", "2 hours ago"."""
    span = abs(seconds)
    for unit, size in (("year", 31_536_000), ("month", 2_592_000), ("day", 86_400), ("hour", 3600),
                       ("minute", 60), ("second", 1)):
        if span >= size or unit == "second":
            n = round(span / size)
            text = f"{n} {unit}{'s' * (n != 1)}"
            return f"in {text}" if seconds >= 0 else f"{text} ago"
    return ""


def _timestamp(m: re.Match[str], now: float | None) -> str:
    import datetime

    at = int(m.group(1))
    style = m.group(2) or "f"
    if style == "R":
        shown = _relative(at - (now if now is not None else datetime.datetime.now().timestamp()))
    else:
        shown = datetime.datetime.fromtimestamp(at, datetime.UTC).strftime(_FORMATS[style])
    return f'<span class="time">{shown}</span>'


def markdown(text: str, *, names: dict[int, str] | None = None, headings: bool = True,
             channels: dict[int, str] | None = None, now: float | None = None) -> str:
    """Discord's markdown in `text` as HTML (everything else escaped). `headings`: whether
    `# `, `> ` and `- ` lines are read as blocks (in message content, embed descriptions and
    field values; not in titles, names or footers). `names` and `channels`: how mentions of
    users and channels read; `now`: the moment relative timestamps count from."""
    held: list[str] = []

    def hold(markup: str) -> str:
        held.append(markup)
        return _HOLD.format(len(held) - 1)

    def code_block(m: re.Match[str]) -> str:
        return hold(f'<pre class="codeblock"><code>{html.escape(m.group(2).strip(chr(10)))}</code></pre>')

    text = _CODE_BLOCK.sub(code_block, text)
    text = _INLINE_CODE.sub(lambda m: hold(f"<code>{html.escape(m.group(2))}</code>"), text)
    text = _ESCAPE.sub(lambda m: hold(html.escape(m.group(1))), text)
    text = html.escape(text, quote=False)
    text = _LINK.sub(lambda m: hold(f'<a href="{html.escape(m.group(2))}">{m.group(1)}</a>'), text)
    for pattern, tag in _SPANS:
        if tag == "spoiler":
            text = pattern.sub(r'<span class="spoiler">\1</span>', text)
        else:
            text = pattern.sub(rf"<{tag}>\1</{tag}>", text)
    people = names or {}
    text = _USER.sub(lambda m: f'<span class="mention">@{html.escape(people.get(int(m.group(1)), "user"))}</span>',
                     text)
    text = _CUSTOM_EMOJI.sub(r":\1:", text)
    places = channels or {}
    text = _CHANNEL.sub(lambda m: f'<span class="mention">#{html.escape(places.get(int(m.group(1)), "channel"))}</span>',
                        text)
    text = _TIME.sub(lambda m: _timestamp(m, now), text)
    if headings:
        text = _blocks(text)
    else:
        text = text.replace("\n", "<br>")
    while _HELD.search(text):
        text = _HELD.sub(lambda m: held[int(m.group(1))], text)
    return text


def _blocks(text: str) -> str:
    out: list[str] = []
    for line in text.split("\n"):
        heading = re.match(r"(#{1,3}) (.+)", line)
        if heading:
            out.append(f'<div class="h{len(heading.group(1))}">{heading.group(2)}</div>')
        elif line.startswith("-# "):
            out.append(f'<div class="subtext">{line[3:]}</div>')
        elif line.startswith("&gt; "):
            out.append(f'<div class="quote">{line[5:]}</div>')
        elif re.match(r"[-*] ", line):
            out.append(f'<div class="li">• {line[2:]}</div>')
        else:
            out.append(f"<div>{line or '&nbsp;'}</div>")
    return "".join(out)


# --- messages --------------------------------------------------------------------------------

_BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}


def _emoji(emoji: dict | None) -> str:
    if not emoji:
        return ""
    if emoji.get("id"):
        return f'<span class="emoji">:{html.escape(emoji.get("name") or "emoji")}:</span>'
    return f'<span class="emoji">{html.escape(emoji.get("name") or "")}</span>'


def _component(comp: dict) -> str:
    kind = comp.get("type")
    if kind == 1:
        return '<div class="row">' + "".join(_component(c) for c in comp.get("components") or []) + "</div>"
    if kind == 2:
        style = _BUTTON_STYLES.get(comp.get("style", 2), "secondary")
        disabled = " disabled" if comp.get("disabled") else ""
        label = html.escape(comp.get("label") or "")
        return f'<span class="button {style}{disabled}">{_emoji(comp.get("emoji"))}{label}</span>'
    if kind in (3, 5, 6, 7, 8):
        placeholder = html.escape(comp.get("placeholder") or "Make a selection")
        options = comp.get("options") or []
        listed = "".join(
            f'<li>{_emoji(o.get("emoji"))}<b>{html.escape(o.get("label") or "")}</b>'
            + (f'<small>{html.escape(o["description"])}</small>' if o.get("description") else "")
            + "</li>" for o in options)
        disabled = " disabled" if comp.get("disabled") else ""
        return (f'<details class="select{disabled}"><summary>{placeholder}<span class="chevron">⌄</span>'
                f'</summary><ul>{listed}</ul></details>')
    return f'<div class="unknown">component of type {html.escape(str(kind))}</div>'


def _embed(embed: dict, files: dict[str, str], where: Where) -> str:
    colour = embed.get("color")
    bar = f"#{colour:06x}" if isinstance(colour, int) else "#1e1f22"
    parts: list[str] = []
    author = embed.get("author") or {}
    if author.get("name"):
        parts.append(f'<div class="author">{html.escape(author["name"])}</div>')
    if embed.get("title"):
        parts.append(f'<div class="title">{where.md(embed["title"], headings=False)}</div>')
    if embed.get("description"):
        parts.append(f'<div class="description">{where.md(embed["description"])}</div>')
    fields = embed.get("fields") or []
    if fields:
        cells = []
        for f in fields:
            inline = " inline" if f.get("inline") else ""
            cells.append(f'<div class="field{inline}"><div class="fname">'
                         f'{where.md(str(f.get("name") or ""), headings=False)}</div>'
                         f'<div class="fvalue">{where.md(str(f.get("value") or ""))}</div></div>')
        parts.append('<div class="fields">' + "".join(cells) + "</div>")
    image = (embed.get("image") or {}).get("url") or ""
    if image.startswith("attachment://"):
        name = image[len("attachment://"):]
        if name in files:
            parts.append(f'<img class="image" src="{html.escape(files[name])}" alt="{html.escape(name)}">')
        else:
            parts.append(f'<div class="missing">picture {html.escape(name)} is not attached</div>')
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        parts.append(f'<div class="footer">{html.escape(footer)}</div>')
    return f'<div class="embed" style="border-left-color:{bar}">{"".join(parts)}</div>'


def message_html(shown: Shown, where: Where | None = None) -> str:
    where = where or Where()
    body = [f'<div class="where">{html.escape(shown.where)}'
            + (f' <span class="note">{html.escape(shown.note)}</span>' if shown.note else "") + "</div>",
            '<div class="msg"><div class="avatar">P</div><div class="main">',
            '<div class="head"><span class="botname">Pantheon</span><span class="tag">APP</span></div>']
    if shown.content:
        body.append(f'<div class="content">{where.md(shown.content)}</div>')
    body += [_embed(e, shown.files, where) for e in shown.embeds]
    shown_images = {(e.get("image") or {}).get("url", "")[len("attachment://"):] for e in shown.embeds}
    for name, path in shown.files.items():  # an attachment no embed shows is shown under the message
        if name not in shown_images:
            body.append(f'<img class="attachment" src="{html.escape(path)}" alt="{html.escape(name)}">')
    if shown.components:
        body.append('<div class="components">' + "".join(_component(c) for c in shown.components) + "</div>")
    body.append("</div></div>")
    return '<section class="message">' + "".join(body) + "</section>"


def page(title: str, messages: list[Shown], where: Where | None = None) -> str:
    """A whole page: `messages` one under the other, in Discord's dark theme."""
    return (f'<!doctype html><html><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>"
            f'<h1 class="pagetitle">{html.escape(title)}</h1>'
            + "".join(message_html(m, where) for m in messages)
            + f"<script>{MEASURE}</script></body></html>")
