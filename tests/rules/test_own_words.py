"""The players' texts are the project's own words, not the rulebooks' sentences.

For each of the five games: every `/game rules` page (title and body) and every text of its
content files (each string value of each YAML file under `content/<game>/`, and the files'
comments) must share no run of `RUN` words in a row with that game's rulebook
(`shared/seeds/`, see its README). Words are compared lower-cased, punctuation and markdown
dropped, so a copied sentence with new bold marks or a changed ending is still found. Names and
numbers are data, and a list of them is never eight words of running text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
import yaml

from rules import GAMES

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"


def _seeds_dir() -> Path:
    """The rulebooks: the shared folder next to the work tree (the README's `shared/seeds/`)."""
    for base in (ROOT, *ROOT.parents):
        found = base / "shared" / "seeds"
        if found.is_dir():
            return found
    pytest.skip("the rulebooks (shared/seeds/) are not on this machine")


RULEBOOKS = {
    "by-gods-and-kings": "000_676d8dccff98b451.txt",
    "guilty-gods": "001_61cf36f2ffd3999f.txt",
    "gods-of-magic": "002_45d186b927c4f65f.txt",
    "terra-sancta": "003_a9ea089f37af94d2.txt",
    "deathly-thrones": "004_232f6f1be0817d67.txt",
}
"""Game id -> its rulebook (shared/seeds/README.md); the game's content folder has its id."""

RUN = 8
"""Words in a row that may not be shared with the rulebook."""

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def words(text: str) -> list[str]:
    """The words of `text`, lower-cased, without punctuation or markdown."""
    return _WORD.findall(text.lower().replace("\u2019", "'").replace("\u2018", "'"))


def runs(text: str, n: int = RUN) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


def shared(text: str, book: set[tuple[str, ...]], n: int = RUN) -> list[str]:
    """The longest stretches of `text` made of `n`-word runs found in `book` (which holds the
    rulebook's `n`-word runs), each as its words joined by spaces."""
    w = words(text)
    hits = [i for i in range(len(w) - n + 1) if tuple(w[i:i + n]) in book]
    out: list[str] = []
    start = end = -1
    for i in hits:
        if i > end:
            if start >= 0:
                out.append(" ".join(w[start:end + n - 1]))
            start = i
        end = i + 1
    if start >= 0:
        out.append(" ".join(w[start:end + n - 1]))
    return out


@cache
def rulebook_runs(game_id: str) -> set[tuple[str, ...]]:
    return runs((_seeds_dir() / RULEBOOKS[game_id]).read_text(encoding="utf-8"))


def _strings(node: object, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, str):
        yield where, node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from _strings(v, f"{where}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _strings(v, f"{where}[{i}]")


def _texts(game_id: str) -> Iterator[tuple[str, str]]:
    """(where, text) for every rules page and content text of the game."""
    for i, page in enumerate(GAMES[game_id].rules_pages()):
        yield f"rules page {i + 1}", f"{page.title}\n{page.body}"
    folder = CONTENT / game_id
    for path in sorted(folder.rglob("*.y*ml")):
        name = path.relative_to(CONTENT).as_posix()
        raw = path.read_text(encoding="utf-8")
        comments = "\n".join(line.split("#", 1)[1] for line in raw.splitlines() if line.lstrip().startswith("#"))
        if comments:
            yield f"{name} comments", comments
        yield from _strings(yaml.safe_load(raw), name)


def copies(game_id: str) -> dict[str, list[str]]:
    """where -> the stretches it shares with the game's rulebook."""
    book = rulebook_runs(game_id)
    out: dict[str, list[str]] = {}
    for where, text in _texts(game_id):
        found = shared(text, book)
        if found:
            out.setdefault(where, []).extend(found)
    return out


def test_every_game_is_checked():
    assert set(RULEBOOKS) == {g for g in GAMES if not g.startswith("test-")}  # test-*: the test games
    for game_id in RULEBOOKS:
        assert (CONTENT / game_id).is_dir()
        assert sum(1 for _ in _texts(game_id)) > 5


@pytest.mark.parametrize("game_id", sorted(RULEBOOKS))
def test_no_sentence_is_copied_from_the_rulebook(game_id):
    found = copies(game_id)
    assert not found, "copied from the rulebook:\n" + "\n".join(
        f"- {where}: {' / '.join(stretches)}" for where, stretches in sorted(found.items()))


def test_the_check_finds_a_copied_sentence_with_a_new_ending_and_markdown():
    """The detector itself: the Gods of Magic rulebook's realm sentence, bolded and with its
    ending changed, is found; the same facts in other words are not."""
    book = rulebook_runs("gods-of-magic")
    assert shared("• A **realm** is a group of cards that must include one Location, at least.", book) == [
        "a realm is a group of cards that must include one location"]
    assert shared("A realm is any number of your cards gathered around at least one Location.", book) == []
    assert shared("Ten sided, 200 cards, 5 suits", book) == []
