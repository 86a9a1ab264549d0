"""The public API's docstrings carry numpydoc sections (the documentation site is built from them).

The documented API: every function ``wargrid`` exports and every public
method of ``Map``. Each one that takes parameters has a ``Parameters``
section; each whose body raises has a ``Raises`` section; an example after
the sections sits under an ``Examples`` header (napoleon would read it as
part of the section before).
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from typing import Any, Callable

import pytest

import wargrid
from wargrid import Map

# Names whose sections are still to be written skip the check while listed here.
PENDING: set[str] = set()  # public names still without their sections (none left)

HEADER = re.compile(r"^([A-Z][a-z]+(?: [A-Z][a-z]+)*)\n-{3,}$", re.M)


def documented_api() -> list[tuple[str, Callable[..., Any]]]:
    out = [(name, getattr(wargrid, name)) for name in wargrid.__all__ if inspect.isfunction(getattr(wargrid, name))]
    out += [(f"Map.{name}", fn) for name, fn in inspect.getmembers(Map, inspect.isfunction) if not name.startswith("_")]
    return out


def sections(fn: Callable[..., Any]) -> list[str]:
    return HEADER.findall(inspect.cleandoc(fn.__doc__ or ""))


def takes_parameters(fn: Callable[..., Any]) -> bool:
    return any(p not in ("self", "cls") for p in inspect.signature(fn).parameters)


def raises(fn: Callable[..., Any]) -> bool:
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    return any(isinstance(node, ast.Raise) and node.exc is not None for node in ast.walk(tree))


def example_after_sections(fn: Callable[..., Any]) -> bool:
    doc = inspect.cleandoc(fn.__doc__ or "")
    heads = list(HEADER.finditer(doc))
    if not heads:
        return True
    rest = doc[heads[-1].end():]
    return ">>>" not in rest or heads[-1].group(1) == "Examples"


API = documented_api()


def test_the_api_is_found() -> None:
    names = {n for n, _ in API}
    assert {"generate", "load_map", "Map.movement_range", "Map.set_terrain", "hex_to_offset"} <= names
    assert len(API) > 60
    assert PENDING <= names  # a name gone from the API must leave this list too


@pytest.mark.parametrize(("name", "fn"), [a for a in API if a[0] not in PENDING], ids=[a[0] for a in API if a[0] not in PENDING])
def test_numpydoc_sections(name: str, fn: Callable[..., Any]) -> None:
    found = sections(fn)
    if takes_parameters(fn):
        assert "Parameters" in found, f"{name}: no Parameters section"
    if raises(fn):
        assert "Raises" in found, f"{name}: raises, but has no Raises section"
    assert example_after_sections(fn), f"{name}: an example after the sections needs an Examples header"


def test_the_checks_catch_a_bare_docstring() -> None:
    def bare(x: int) -> int:
        """Twice ``x``.

        >>> bare(2)
        4
        """
        if x < 0:
            raise ValueError("x must be >= 0")
        return 2 * x

    assert takes_parameters(bare) and raises(bare) and sections(bare) == []
