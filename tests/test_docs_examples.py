"""The runnable examples of the documentation site (``docs/examples``) run and print what they say."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "docs" / "examples").glob("*.py"))


def test_every_capability_page_has_an_example() -> None:
    names = {p.stem for p in EXAMPLES}
    assert {"grids", "map_edits", "movement", "sight", "territory", "rts", "tactics", "io_files", "render", "cli"} <= names


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(example), run_name="__main__")
    assert capsys.readouterr().out.strip()


def test_examples_are_included_by_the_pages() -> None:
    docs = EXAMPLES[0].parent.parent
    pages = "".join(p.read_text(encoding="utf-8") for p in docs.glob("*.rst"))
    for example in EXAMPLES:
        assert f"examples/{example.name}" in pages, example.name
