r"""XML helpers: escaping for the SVG and Tiled writers (``html.escape`` is light to import), and old DOCTYPE lines.

>>> escape("a < b & c"), quoteattr('say "hi"')
('a &lt; b &amp; c', '"say &quot;hi&quot;"')
>>> old = b'<?xml version="1.0"?>\n<!DOCTYPE map SYSTEM "map.dtd">\n<map/>'
>>> new = blank_doctype(old); new.split(b"\n")[2], len(new) == len(old), b"DOCTYPE" in new
(b'<map/>', True, False)
"""

from __future__ import annotations

import re
from html import escape as _html_escape

__all__ = ["blank_doctype", "escape", "quoteattr"]

# the prolog before a DOCTYPE: a byte-order mark, the XML declaration, comments and space, nothing else
_PROLOG = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*\?>)?(?:\s|<!--(?:[^-]|-(?!-))*-->)*")
# a DOCTYPE with a name and at most an external id: no internal subset ('[') and so no entity
_DOCTYPE = re.compile(rb"<!DOCTYPE\s+[A-Za-z_:][\w:.\-]*"
                      rb"(?:\s+(?:SYSTEM\s+(?:\"[^\"<>\[]*\"|'[^'<>\[]*')"
                      rb"|PUBLIC\s+(?:\"[^\"<>\[]*\"|'[^'<>\[]*')\s+(?:\"[^\"<>\[]*\"|'[^'<>\[]*')))?\s*>")


def escape(text: str) -> str:
    """XML-escape text content (``&``, ``<``, ``>``)."""
    return _html_escape(text, quote=False)


def quoteattr(text: str) -> str:
    """An XML attribute value with its quotes, escaped."""
    return '"' + _html_escape(text, quote=True) + '"'


def blank_doctype(data: bytes) -> bytes:
    """``data`` with a harmless DOCTYPE line (a name and an external id, no internal subset) blanked out.

    Old Tiled files start with ``<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">``:
    nothing in it is read (no DTD is fetched), so it is replaced by spaces of
    the same length (line numbers stay right) and the file parses with DTDs
    forbidden. A DOCTYPE with an internal subset, hence any entity, is left
    in place for the parser to refuse.
    """
    head = _PROLOG.match(data)
    start = head.end() if head else 0
    m = _DOCTYPE.match(data, start)
    if m is None:
        return data
    blank = re.sub(rb"[^\n]", b" ", m.group(0))
    return data[:start] + blank + data[m.end():]
