"""Finding and validating content files.

Shipped content lives in `content/<game>/`. A server may set CONTENT_DIR to a
folder of its own with the same layout: a file there with the same relative path
replaces the shipped one, a new file adds to it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TypeVar

import yaml
from pydantic import BaseModel, ValidationError

SHIPPED = Path(__file__).resolve().parents[2] / "content"

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
            return yaml.safe_load(fh)
    except yaml.YAMLError as exc:
        raise ContentError(f"{path}: not valid YAML: {exc}") from exc
    except OSError as exc:
        raise ContentError(f"{path}: cannot be read: {exc}") from exc


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
