"""XML escaping for the SVG and Tiled writers (``html.escape`` is light to import).

>>> escape("a < b & c"), quoteattr('say "hi"')
('a &lt; b &amp; c', '"say &quot;hi&quot;"')
"""

from __future__ import annotations

from html import escape as _html_escape

__all__ = ["escape", "quoteattr"]


def escape(text: str) -> str:
    """XML-escape text content (``&``, ``<``, ``>``)."""
    return _html_escape(text, quote=False)


def quoteattr(text: str) -> str:
    """An XML attribute value with its quotes, escaped."""
    return '"' + _html_escape(text, quote=True) + '"'
