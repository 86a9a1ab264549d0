"""How a notebook shows a result, without the result knowing how pictures are drawn.

Results (``Path``, ``MovementRange``, ``FlowField``, ``Fog``, ``Partition``,
``Influence``, ...) are plain data. They carry the notebook protocol
(``_repr_svg_``, ``_repr_png_``) through the small ``Shown`` mixin below,
which hands the result to the renderer that ``wargrid.render`` registers when
it is imported (``import wargrid`` imports it). How each result type is drawn
is written once, in ``wargrid.render.results`` (``overlays_for``, one
``functools.singledispatch``); ``overlays_of`` asks it for a result's overlays.

>>> import wargrid
>>> p = wargrid.Map(wargrid.SquareGrid(3, 2)).path((0, 0), (2, 1))
>>> p._repr_svg_().count("<polyline"), type(overlays_of(p)[0]).__name__
(1, 'Polyline')
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

__all__ = ["Shown", "Renderer", "register_renderer", "draw", "overlays_of"]

Format = Literal["svg", "png"]


class Renderer(Protocol):
    """What ``wargrid.render`` registers: draw a result for a notebook, and give its overlays."""

    def draw(self, result: object, fmt: Format) -> Any: ...

    def overlays(self, result: object, **options: Any) -> list[Any]: ...


_renderer: Renderer | None = None


def register_renderer(renderer: Renderer) -> None:
    """Install the renderer that draws results (``wargrid.render`` does, when it is imported)."""
    global _renderer
    _renderer = renderer


def _get() -> Renderer:
    if _renderer is None:  # pragma: no cover - wargrid/__init__ imports wargrid.render
        import importlib

        importlib.import_module("wargrid.render")
    assert _renderer is not None
    return _renderer


def draw(result: object, fmt: Format) -> Any:
    """``result`` drawn as ``fmt`` (SVG markup or PNG bytes), ``None`` when it has no picture."""
    return _get().draw(result, fmt)


def overlays_of(result: object, **options: Any) -> list[Any]:
    """The render overlays that draw ``result`` (``wargrid.render.overlays_for``)."""
    return _get().overlays(result, **options)


class Shown:
    """The notebook protocol for a result: a notebook calls these and shows the picture ``wargrid.render`` draws."""

    __slots__ = ()

    def _repr_svg_(self) -> str | None:
        out: str | None = draw(self, "svg")
        return out

    def _repr_png_(self) -> bytes | None:
        out: bytes | None = draw(self, "png")
        return out
