"""Content files whose text Discord could not carry are refused when read, naming the file."""

from __future__ import annotations

import pytest

from rules.core import ContentError
from rules.core.content import read_yaml


@pytest.mark.parametrize("text", ['name: "Ash\\ud800en"', 'names: [ok, "half \\udfff"]',
                                  'steps: {"\\ud83d": 1}'])
def test_an_escape_making_half_a_character_is_refused_with_the_files_name(tmp_path, text):
    path = tmp_path / "pack.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError, match="pack.yaml.*half a character"):
        read_yaml(path)


def test_whole_characters_written_or_escaped_are_read(tmp_path):
    path = tmp_path / "fine.yaml"
    path.write_text('title: "Dragon 🐉 \\U0001F409 \\u00e9"\nlist: [1, {a: b}]', encoding="utf-8")
    assert read_yaml(path) == {"title": "Dragon 🐉 🐉 é", "list": [1, {"a": "b"}]}
