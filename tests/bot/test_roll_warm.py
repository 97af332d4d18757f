"""Issue 28, item 8: the first /roll of a process does not import d20 or build its grammar on
the event loop; the bot's setup hook does both in a worker thread.

Each check runs in a fresh interpreter (this test process may have imported d20 already)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import asyncio, json, sys, threading

    found = {}

    class Watch:
        # records the thread that imports d20 and lark (the grammar's compiler)
        def find_spec(self, name, path=None, target=None):
            if name in ("d20", "lark") and name not in found:
                found[name] = threading.current_thread() is threading.main_thread()
            return None

    sys.meta_path.insert(0, Watch())

    from tests.bot.e2e import make_bot
    from tests.support.discord_harness import DiscordHarness
    import rules.core.dice as dice

    async def main(db, warm):
        bot = make_bot(db)
        if not warm:  # the setup hook without its warm-up: what the check must catch
            import bot.app as app
            app.warm_up_dice = lambda: None
        out = {"before": "d20" in sys.modules}
        async with DiscordHarness(bot) as h:
            out["warmed_after_setup"] = dice.warmed()
            out["imported_after_setup"] = dict(found)
            built = []
            if warm:  # count the grammars a roll builds (d20 is already imported)
                import d20 as d20_module
                original = d20_module.Roller.__init__

                def counting(self, *a, **k):
                    if type(self) is d20_module.Roller:
                        built.append(1)
                    original(self, *a, **k)

                d20_module.Roller.__init__ = counting
            loaded = set(sys.modules)
            reply = await h.slash("roll", user=1001, channel=2000, options={"dice": "4d6kh3 + 2"})
            out["reply"] = reply.text()
            out["grammar_built_by_roll"] = len(built)
            out["modules_imported_by_roll"] = sorted(
                m for m in set(sys.modules) - loaded if m.split(".")[0] in ("d20", "lark"))
            out["imported_on_main"] = dict(found)
        print(json.dumps(out))

    asyncio.run(main(sys.argv[1], sys.argv[2] == "warm"))
""")


def run(tmp_path: Path, mode: str) -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / f"{mode}.db"), mode],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_setup_hook_builds_the_dice_grammar_off_the_loop_and_a_roll_pays_nothing(tmp_path):
    out = run(tmp_path, "warm")
    assert out["before"] is False
    assert out["warmed_after_setup"] is True
    # d20 and lark were imported by a worker thread (False: not the loop's), before any command
    assert out["imported_after_setup"] == {"d20": False, "lark": False}
    assert "4d6kh3 + 2" in out["reply"]
    assert out["grammar_built_by_roll"] == 0
    assert out["modules_imported_by_roll"] == []
    assert out["imported_on_main"] == {"d20": False, "lark": False}


def test_without_the_warm_up_the_first_roll_builds_the_grammar_on_the_loop(tmp_path):
    """The check above can fail: with the warm-up taken out of the setup hook, the first roll
    imports d20 and lark on the loop's thread."""
    out = run(tmp_path, "cold")
    assert out["warmed_after_setup"] is False
    assert out["imported_after_setup"] == {}
    assert "4d6kh3 + 2" in out["reply"]
    assert "d20" in out["modules_imported_by_roll"]
    assert out["imported_on_main"] == {"d20": True, "lark": True}
