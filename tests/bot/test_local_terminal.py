"""The local table as a person at the keyboard reads it: markdown read plain, pictures named,
every line told while somebody plays, a pause before each hand in hot-seat, and nothing ended
before a new game is known to start."""

from __future__ import annotations

import argparse
import re

import pytest

from bot.config import Settings
from bot.local import EVENTS_SHOWN, play
from bot.render.panel import Panel
from bot.sessions import ServiceError, SessionService
from bot.terminal import panel_text, plain
from rules.core import name_players


def _args(game: str, players: int = 1, bots: int = 0, seed: int = 3, option=None, new=False, save=None):
    return argparse.Namespace(game=game, players=players, bots=bots, seed=seed, option=option or [],
                              new=new, save=save)


def _settings(tmp_path) -> Settings:
    return Settings(database_path=tmp_path / "local.db", discord_token="")


@pytest.mark.parametrize(("written", "shown"), [
    ("**Draw a step card** to set out.", "Draw a step card to set out."),
    ("*You drink your fill.* (+1 health)", "You drink your fill. (+1 health)"),
    ("__under__ ~~gone~~ ||hidden|| _soft_", "under gone hidden soft"),
    (r"\(a \*tale\* of\_old\) bot\-1", "(a *tale* of_old) bot-1"),  # escaped: shown as typed
    ("`b3*c5` and b3*c5 and 2 * 3 and snake_case_name", "b3*c5 and b3*c5 and 2 * 3 and snake_case_name"),
    ("``` **kept** ```", " **kept** "),  # code is shown as it is
    ("> a quote\n# A heading\n-# small print", "a quote\nA heading\nsmall print"),
    ("<@42> acts <t:1700000000:R> in <#99>", "alice acts soon in this table"),
    ("[the rules](https://example.com/r)", "the rules (https://example.com/r)"),
    ("@\u200beveryone", "@everyone"),
])
def test_markdown_is_read_plain_for_the_terminal(written, shown):
    assert plain(written, {"42": "alice"}) == shown


def test_a_picture_the_terminal_cannot_draw_is_named_not_counted():
    panel = Panel(title="Guilty Gods", description="*a line*", image_png=b"\x89PNG" * 800,
                  image_name="combat.png", footer="**Turn 3**")
    text = panel_text(panel)
    assert "(picture: combat, shown on Discord)" in text
    assert "bytes" not in text and "[image" not in text and "*" not in text
    assert text.splitlines()[-1] == "(Turn 3)"  # the footer stays last
    drawn = panel.model_copy(update={"text_art": "a *b* c"})
    assert "a *b* c" in panel_text(drawn) and "picture" not in panel_text(drawn)  # a drawing, verbatim


def _picker(out: list[str], seed: int = 5):
    """An answer to the last menu printed: one of its numbers, at random (seeded)."""
    import random

    rnd = random.Random(seed)

    def pick() -> str:
        count = 0
        for line in reversed(out):
            if ", choose" in line:
                break
            count += bool(re.match(r"\s{1,4}\d{1,3}\. ", line))
        return str(rnd.randint(1, max(1, count)))
    return pick


_RAW = [re.compile(p) for p in (
    r"\*\*", r"`", r"\[image", r"⟨", r"<@", r"<t:", r"\\[\\*_~`|>()\[\]#<-]", r"\|\|", r"~~", r"__\S",
    r"(?:^|\s)\*[^\s*][^*\n]*[^\s*]\*(?:$|[\s.,;:!?)])",  # *italics*
)]


@pytest.mark.parametrize(("game", "players", "bots", "option"), [
    ("gods-of-magic", 2, 1, ["storytelling=strict"]), ("deathly-thrones", 1, 0, []),
    ("terra-sancta", 1, 1, []), ("guilty-gods", 2, 0, []), ("by-gods-and-kings", 2, 0, [])])
async def test_whole_games_in_the_terminal_show_no_raw_markup(tmp_path, game, players, bots, option):
    """Every line the terminal prints in 150 answers of each game (the tables, the hands, the
    events, the menus): no markdown mark, escape, reference, mention or picture bytes."""
    out: list[str] = []
    pick, asked = _picker(out), [0]

    def ask(prompt: str) -> str:
        asked[0] += 1
        if asked[0] > 150:
            return "q"
        if prompt != "> ":
            return "" if "Pass the keyboard" in prompt else "a (tall) *tale* of_old_ times"
        return pick()

    assert await play(_args(game, players, bots, 7, option), _settings(tmp_path), ask=ask,
                      out=out.append) == 0
    text = "\n".join(out)
    assert asked[0] > 100 or "game over" in text  # long enough to show much, or to the end
    for line in text.splitlines():
        if game == "gods-of-magic" and "a (tall) *tale* of_old_ times" in line:
            line = line.replace("a (tall) *tale* of_old_ times", "")  # typed text, shown as typed
        for pattern in _RAW:
            assert not pattern.search(line), (pattern.pattern, line)
    if game == "gods-of-magic":
        assert "“a (tall) *tale* of_old_ times”" in text  # not `\(tall\) \*tale\*`


class _Recorder:
    """Every event a move made, as the service returned it."""

    def __init__(self, monkeypatch):
        self.events: list = []
        real = SessionService.act

        async def act(svc, *a, **kw):
            result = await real(svc, *a, **kw)
            self.events.append((result.session, list(result.events)))
            return result

        monkeypatch.setattr(SessionService, "act", act)


@pytest.mark.parametrize(("game", "bots", "kinds"), [
    ("gods-of-magic", 7, {"visitation"}),  # the scoring
    ("by-gods-and-kings", 3, {"hit"}),  # the hits, the enemies' among them
])
async def test_nothing_is_summarised_while_a_person_plays(tmp_path, monkeypatch, game, bots, kinds):
    """One person with automatic players: moves of many lines (past EVENTS_SHOWN) are told whole,
    with the scoring and the damage in them."""
    recorder = _Recorder(monkeypatch)
    out: list[str] = []
    pick, asked = _picker(out), [0]

    def ask(prompt: str) -> str:
        asked[0] += 1
        return "q" if asked[0] > 150 else pick()
    assert await play(_args(game, 1, bots, 3), _settings(tmp_path), ask=ask, out=out.append) == 0
    text = "\n".join(out)
    assert "more events" not in text
    longest = max(sum(1 for e in events if e.visible_for(None) and e.kind != "game_over")
                  for _, events in recorder.events)
    assert longest > EVENTS_SHOWN  # there were moves the old terminal summarised
    seen = set()
    for session, events in recorder.events:
        names = session.names()
        for e in events:
            if e.visible_for(None) and e.kind != "game_over":
                assert plain(name_players(e.text, names)) in text, e.text
                seen.add(e.kind)
    assert kinds <= seen


@pytest.mark.parametrize(("game", "seed"), [("guilty-gods", 4), ("by-gods-and-kings", 7)])
async def test_hot_seat_pauses_before_each_hand_of_another_person(tmp_path, game, seed):
    """Two people at one keyboard: a hand is shown only after the keyboard was passed to its
    player (and Enter pressed), every time the player changes; another person's reactions out of
    turn (By Gods and Kings: spend a card at any moment) are offered as passing them the
    keyboard, never listed under the eyes of the player to act."""
    transcript: list[tuple[str, str]] = []
    lines: list[str] = []
    pick, asked = _picker(lines, 3), [0]

    def ask(prompt: str) -> str:
        transcript.append(("ask", prompt))
        asked[0] += 1
        if "Pass the keyboard" in prompt:
            return ""
        return "q" if asked[0] > 200 else pick()

    def out(text: str) -> None:
        transcript.append(("out", text))
        lines.append(text)

    assert await play(_args(game, 2, 0, seed), _settings(tmp_path), ask=ask, out=out) == 0
    at_keyboard, passes, hands = "Player 1", 0, set()
    for kind, text in transcript:
        passed = re.search(r"Pass the keyboard to (Player \d), then", text) if kind == "ask" else None
        if passed:
            at_keyboard, passes = passed.group(1), passes + 1
        whose = re.search(r"— (Player \d) only —", text) if kind == "out" else None
        if whose:
            hands.add(whose.group(1))
            assert whose.group(1) == at_keyboard, "a hand shown before the keyboard was passed"
        reacting = re.search(r"\((Player \d) may react\) (.*)", text) if kind == "out" else None
        if reacting:
            assert reacting.group(2) == f"Pass the keyboard to {reacting.group(1)}", text
    assert hands == {"Player 1", "Player 2"} and passes >= 2
    if game == "by-gods-and-kings":
        assert any("Done: back to" in text for _, text in transcript)  # a reaction was offered


async def test_hot_seat_passing_the_keyboard_can_quit(tmp_path):
    out: list[str] = []
    answers = iter(["1", "q"])
    assert await play(_args("guilty-gods", 2, 0, 4), _settings(tmp_path), ask=lambda _: next(answers),
                      out=out.append) == 0
    assert out[-1].startswith("Saved.")


async def _resumes(settings, game: str, **kw) -> str:
    out: list[str] = []
    assert await play(_args(game, **kw), settings, ask=lambda _: "q", out=out.append) == 0
    return "\n".join(out)


@pytest.mark.parametrize(("game", "refused", "why"), [
    ("deathly-thrones", dict(option=["character=elf"]), "elf"),
    ("deathly-thrones", dict(option=["quest"]), "key=value"),
    ("deathly-thrones", dict(option=["colour=red"]), "colour"),
    ("guilty-gods", dict(players=2, bots=1), "3"),
    ("terra-sancta", dict(players=1, bots=2), "3"),
    ("deathly-thrones", dict(players=0), "--players"),
])
async def test_new_checks_the_new_game_before_it_ends_the_saved_one(tmp_path, game, refused, why):
    """`play GAME --new` with an option, a value or a number of seats the game refuses says why
    and leaves the saved game as it was: the next run resumes it."""
    settings = _settings(tmp_path)
    start = dict(players=2) if game == "guilty-gods" else dict(players=1, bots=1) if game == "terra-sancta" else {}
    await _resumes(settings, game, **start)
    with pytest.raises(ServiceError) as refusal:
        await _resumes(settings, game, new=True, **{**start, **refused})
    assert why in refusal.value.message
    assert "Resuming game #1" in await _resumes(settings, game, **start)
    # a new game that can start does end it (and says so)
    text = await _resumes(settings, game, new=True, **start)
    assert "Ended game #1" in text


async def test_deathly_thrones_final_table_tells_the_ending_once(tmp_path):
    endings = {}
    for seed in range(1, 12):
        out: list[str] = []
        assert await play(_args("deathly-thrones", seed=seed), _settings(tmp_path / str(seed)),
                          ask=lambda _: "1", out=out.append) == 0
        final = "\n".join(out).rsplit("Deathly Thrones is over.", 1)[1]
        summary = final.split("== 🏆 Deathly Thrones: game over ==\n", 1)[1].splitlines()[0]
        kind = "won" if " wins " in summary else "dead"
        endings.setdefault(kind, final)
        assert final.count(summary) == 1
        assert "has fallen" not in final and "throne is yours" not in final and "run ends" not in final
        if len(endings) == 2:
            break
    assert set(endings) == {"won", "dead"}
