"""Finding and validating content files.

Shipped content lives in `content/<game>/` of the checkout; an installed wheel carries the
same folder as `rules/content/` (setup.py maps it), found beside the code. A server may set
CONTENT_DIR to a folder of its own with the same layout: a file there with the same relative
path replaces the shipped one, a new file adds to it.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

import yaml
from pydantic import BaseModel, ValidationError


def _shipped() -> Path:
    """The shipped content: the copy an installed wheel carries inside the `rules` package, or
    else the checkout's `content/` beside the packages (a source tree, an editable install)."""
    here = Path(__file__).resolve()
    packaged = here.parents[1] / "content"
    return packaged if packaged.is_dir() else here.parents[2] / "content"


SHIPPED = _shipped()

M = TypeVar("M", bound=BaseModel)

_override: Path | None = None


class ContentError(ValueError):
    """A content file that cannot be used; the message names the file, entry and field."""


def set_content_dir(path: str | Path | None) -> None:
    """Point content loading at a server's own pack (None: only the shipped content)."""
    global _override
    _override = Path(path) if path else None


def content_roots() -> list[Path]:
    roots = [SHIPPED]
    extra = _override or (Path(os.environ["CONTENT_DIR"]) if os.environ.get("CONTENT_DIR") else None)
    if extra is not None and extra.resolve() != SHIPPED:
        roots.append(extra)
    return roots


def content_files(game_id: str, pattern: str) -> list[Path]:
    """Files of one game matching a glob (e.g. 'quests/*.yaml'), overrides applied, sorted by path."""
    found: dict[str, Path] = {}
    for root in content_roots():
        base = root / game_id
        if base.is_dir():
            for path in base.glob(pattern):
                found[path.relative_to(base).as_posix()] = path
    return [found[k] for k in sorted(found)]


def read_yaml(path: Path) -> object:
    try:
        with path.open(encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
    except yaml.YAMLError as exc:
        raise ContentError(f"{path}: not valid YAML: {exc}") from exc
    except OSError as exc:
        raise ContentError(f"{path}: cannot be read: {exc}") from exc
    broken = _unsendable(data)
    if broken is not None:
        raise ContentError(f"{path}: the text {broken!r} holds an escape that is half a character "
                           "(a lone \\ud800-\\udfff); write the character itself")
    return data


def _unsendable(value: object) -> str | None:
    """The first text in `value` that is not valid Unicode (a lone surrogate, which YAML's
    `\\ud800` escapes make): Discord's messages could not carry it."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value[:40]
        return None
    if isinstance(value, dict):
        parts = [*value.keys(), *value.values()]
    elif isinstance(value, list):
        parts = value
    else:
        return None
    for part in parts:
        found = _unsendable(part)
        if found is not None:
            return found
    return None


def load_model(path: Path, model: type[M]) -> M:
    """Validate one YAML file against a model; errors name the file, the entry and the field."""
    data = read_yaml(path)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ContentError(_explain(path, exc)) from exc


def _explain(path: Path, exc: ValidationError) -> str:
    lines = [f"{path}: {exc.error_count()} problem(s)"]
    for err in exc.errors()[:10]:
        where = ".".join(str(p) for p in err["loc"]) or "(top)"
        lines.append(f"  at {where}: {err['msg']}")
    return "\n".join(lines)


class UnknownContent(KeyError):
    """A state names a content version this process does not hold (the files changed since
    the game started): restore it from where it was kept (`Pinned.restore`)."""


class Pinned(Generic[M]):
    """One game's content, by version: a running game names the version it started with and
    keeps reading that one, even after a server changes its content pack.

    A version is a hash of the content's canonical JSON, so the same cards give the same version
    whatever the files look like. `current()` loads the files (through the game's loader) and
    registers their version; `dump` / `restore` carry a version to a process that has not seen
    it (the bot keeps each version it used in its database)."""

    def __init__(self, game_id: str, model: type[M], load: Callable[[], M]):
        self.game_id = game_id
        self.model = model
        self._load = load
        self._versions: dict[str, M] = {}
        self._current: dict[tuple[str, ...], str] = {}

    def current(self) -> str:
        """The version of the content in the files now (a server's pack applied)."""
        roots = tuple(str(r) for r in content_roots())
        version = self._current.get(roots)
        if version is None:
            version = self.add(self._load())
            self._current[roots] = version
        return version

    def add(self, content: M) -> str:
        """Register content; returns its version."""
        text = content.model_dump_json()
        version = hashlib.sha256(text.encode()).hexdigest()[:16]
        self._versions.setdefault(version, content)
        return version

    def get(self, version: str) -> M:
        try:
            return self._versions[version]
        except KeyError:
            raise UnknownContent(f"{self.game_id} content version {version} is not loaded") from None

    def knows(self, version: str) -> bool:
        return version in self._versions

    def dump(self, version: str) -> str:
        return self.get(version).model_dump_json()

    def restore(self, version: str, text: str) -> None:
        """Bring back a version kept elsewhere; refuses text that is not that version. The kept
        text is the dump the version was hashed from: when the models have changed since (a
        legacy format read into a newer one), it still matches by that hash, and the content
        is registered under its old version."""
        content = self.model.model_validate_json(text)
        if hashlib.sha256(text.encode()).hexdigest()[:16] == version:
            self._versions.setdefault(version, content)
            return
        if self.add(content) != version:
            raise ContentError(f"the kept {self.game_id} content does not match version {version}")
