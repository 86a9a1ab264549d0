"""The README's examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_blocks_run():
    text = README.read_text(encoding="utf-8")
    blocks = list(re.finditer(r"```python\n(.*?)```", text, flags=re.S))
    assert blocks, "README.md has no python example"
    namespace: dict = {}
    for block in blocks:
        # pad with blank lines so a failure points at the README's own line
        code = "\n" * text.count("\n", 0, block.start(1)) + block.group(1)
        exec(compile(code, str(README), "exec"), namespace)  # noqa: S102 - our own README
    # the tour computed what it says
    assert namespace["reach"].cells and namespace["seen"].any()
    assert namespace["owners"].max() == 3
    assert namespace["zones"].shape == (20, 32)


def test_quick_start_has_exactly_two_commands():
    text = README.read_text(encoding="utf-8")
    quick = text[text.index("## Quick start"):text.index("## A short example")]
    commands = re.findall(r"```sh\n(.*?)```", quick, flags=re.S)
    assert len(commands) == 2
    assert "wargrid demo" in commands[0] and "pytest" in commands[1]
