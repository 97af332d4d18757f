"""Headless Chromium for the preview: a page's height at a width, and its screenshot.
Chromium is found on PATH (`chromium`, Debian's package, or `chromium-browser`, `google-chrome`)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
TIMEOUT = 60.0
"""Seconds one Chromium run may take (it starts in about a second)."""
TALLEST = 16_384
"""The tallest screenshot taken (Chromium's own limit is about this)."""

_HEIGHT = re.compile(r'id="measured-height" data-height="(\d+)"')


def find() -> str | None:
    """The path of a Chromium, or None."""
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def _run(binary: str, args: list[str]) -> subprocess.CompletedProcess[str]:
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--mute-audio",
             "--no-first-run", "--disable-extensions", "--allow-file-access-from-files",
             "--run-all-compositor-stages-before-draw", "--virtual-time-budget=3000"]
    return subprocess.run([binary, *flags, *args], capture_output=True, text=True, timeout=TIMEOUT,
                          check=False)


def height(page: Path, width: int, binary: str | None = None) -> int:
    """The height in CSS pixels of the page (an HTML file written by bot/preview/html.py, which
    writes its own height into the DOM once loaded) laid out `width` pixels wide."""
    binary = binary or find()
    if binary is None:
        raise RuntimeError("Chromium is not installed")
    done = _run(binary, [f"--window-size={width},800", "--dump-dom", page.resolve().as_uri()])
    found = _HEIGHT.search(done.stdout)
    if found is None:
        raise RuntimeError(f"Chromium did not measure {page} (exit {done.returncode}): {done.stderr[-400:]}")
    return int(found.group(1))


def screenshot(page: Path, out: Path, width: int, binary: str | None = None) -> int:
    """A screenshot of the whole page at `width` pixels into `out` (PNG); returns its height."""
    binary = binary or find()
    if binary is None:
        raise RuntimeError("Chromium is not installed")
    tall = min(height(page, width, binary), TALLEST)
    done = _run(binary, [f"--window-size={width},{tall}", f"--screenshot={out.resolve()}",
                         page.resolve().as_uri()])
    if not out.exists():
        raise RuntimeError(f"Chromium made no screenshot of {page} (exit {done.returncode}): "
                           f"{done.stderr[-400:]}")
    return tall
