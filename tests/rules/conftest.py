import pytest

from rules.by_gods_and_kings.catalogue import clear_cache
from rules.core.content import set_content_dir

BGK_DIR = "by-gods-and-kings"


@pytest.fixture
def pack(tmp_path):
    """A content pack folder for By Gods and Kings (with its scenarios/); the shipped content
    again afterwards."""
    base = tmp_path / BGK_DIR
    (base / "scenarios").mkdir(parents=True)
    set_content_dir(tmp_path)
    clear_cache()
    yield base
    set_content_dir(None)
    clear_cache()
