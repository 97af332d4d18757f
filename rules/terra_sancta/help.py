"""The rules pages for /game rules (written in the project's own words)."""

from __future__ import annotations

from rules.core import RulesPage


def rules_pages() -> list[RulesPage]:
    return [RulesPage(title="Terra Sancta", body="(rules to come)")]
