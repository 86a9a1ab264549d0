"""The CLI tests read stderr line by line: keep the once-a-process compile notice out of it."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_compile_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARGRID_QUIET", "1")
