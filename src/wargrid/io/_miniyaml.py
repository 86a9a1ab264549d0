"""OpenRA's MiniYaml, read into a tree of nodes (a small, strict reader).

MiniYaml is one ``Key: Value`` per line, nested by indentation (one tab, or
four spaces, a level; fewer than four spaces count for nothing). ``#`` starts a comment unless written ``\\#``; the
first ``:`` splits key from value (a line without one is a key with an empty
value); blank and comment-only lines are skipped. Keys keep OpenRA's
inheritance markers as written: ``^Name`` (an abstract definition),
``Inherits: ^Name`` and ``-Key:`` (remove an inherited key) are ordinary
nodes here; ``merged`` applies the removal markers of one tree onto another.

>>> nodes = parse("General:\\n\\tId: TEMPERAT  # comment\\nTemplates:\\n    Template@255:\\n        Id: 255\\n")
>>> [n.key for n in nodes], nodes[0].get("Id"), nodes[1].children[0].child("Id").line
(['General', 'Templates'], 'TEMPERAT', 5)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterator

from .errors import MapFileError

__all__ = ["Node", "parse", "merged", "MAX_DEPTH"]

MAX_DEPTH = 64
"""Deepest nesting a file may use (OpenRA's own files use about 6 levels)."""


@dataclass
class Node:
    """One ``Key: Value`` line, its 1-based ``line`` number and the nodes nested under it."""

    key: str
    value: str
    line: int
    children: list["Node"] = field(default_factory=list)

    def child(self, key: str) -> "Node | None":
        """The last child named ``key`` (a later key overrides an earlier one, as in OpenRA), or ``None``."""
        found = None
        for c in self.children:
            if c.key == key:
                found = c
        return found

    def get(self, key: str, default: str = "") -> str:
        """The value of child ``key``, or ``default``."""
        c = self.child(key)
        return default if c is None else c.value

    def __iter__(self) -> Iterator["Node"]:
        return iter(self.children)


def _split(raw: str) -> str:
    """``raw`` without its comment (``\\#`` is a literal ``#``)."""
    if "#" not in raw:
        return raw
    out = []
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == "\\" and raw.startswith("\\#", i):
            out.append("#")
            i += 2
            continue
        if c == "#":
            break
        out.append(c)
        i += 1
    return "".join(out)


def parse(text: str, path: str | os.PathLike[str] | None = None) -> list[Node]:
    """The top-level nodes of MiniYaml ``text``; ``MapFileError`` (naming ``path`` and the line) when malformed.

    >>> parse("A: 1\\n\\tB: x:y\\n")[0].children[0].value
    'x:y'
    >>> parse("A:\\n\\t\\tB: 2\\n", "m.yaml")
    Traceback (most recent call last):
    ...
    wargrid.errors.MapFileError: m.yaml:2: indented 2 levels under a line of level 0 (one level at most)
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    roots: list[Node] = []
    stack: list[Node] = []  # stack[k]: the last node of level k
    for n, raw in enumerate(text.splitlines(), start=1):
        i = len(raw) - len(raw.lstrip(" \t"))
        indent = raw[:i]
        # a tab is a level, so are four spaces; spaces short of four count for nothing (as in OpenRA)
        level = i if " " not in indent else indent.count("\t") + indent.count(" ") // 4
        body = _split(raw[i:]).strip()
        if not body:
            continue
        if level > len(stack):
            raise MapFileError(f"indented {level - len(stack) + 1} levels under a line of level {len(stack) - 1} "
                               "(one level at most)", path, n)
        if level >= MAX_DEPTH:
            raise MapFileError(f"nested {level} levels deep, more than the {MAX_DEPTH} allowed", path, n)
        key, sep, value = body.partition(":")
        node = Node(key.strip(), value.strip() if sep else "", n)
        if not node.key:
            raise MapFileError(f"a line with no key: {raw.strip()[:60]!r}", path, n)
        del stack[level:]
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)
    return roots


def merged(base: list[Node], over: list[Node]) -> list[Node]:
    """``base`` with ``over`` laid on top, as OpenRA merges rule files: a key in both merges its
    children (``over``'s value wins when it has one), a new key is appended, ``-Key`` removes ``Key``
    (and stays, to remove it from what the result is laid on, when ``base`` lacks ``Key``).

    >>> a = parse("T:\\n\\tClear: 100\\n\\tRough: 50\\n")
    >>> b = parse("T:\\n\\t-Rough:\\n\\tBeach: 70\\n")
    >>> [(c.key, c.value) for c in merged(a, b)[0].children]
    [('Clear', '100'), ('Beach', '70')]
    """
    out = [Node(n.key, n.value, n.line, list(n.children)) for n in base]
    for o in over:
        if o.key.startswith("-"):
            kept = [n for n in out if n.key != o.key[1:]]
            out = kept if len(kept) < len(out) else out + [o]  # nothing to remove: keep the marker for later
            continue
        same = [k for k, n in enumerate(out) if n.key == o.key]
        if not same:
            out.append(Node(o.key, o.value, o.line, list(o.children)))
            continue
        k = same[-1]
        old = out[k]
        out[k] = Node(o.key, o.value if o.value else old.value, o.line, merged(old.children, o.children))
    return out
