"""Pictures of big boards: wargrid's SVG and PNG writers against the ways a user would otherwise draw them.

Peers, on the same generated board and the same polygons (from the grid's
``centers_of`` and ``corner_offsets``):

- matplotlib: a ``PolyCollection`` with one face colour per cell, saved as
  PNG (Agg) and as SVG, at the same pixel size;
- Pillow, naive: one ``ImageDraw.polygon`` call per cell.

Prints seconds and wargrid's time divided by the peer's (below 1: wargrid
is faster).

    python benchmarks/bench_render.py                 # 512x512 hex and square boards
    python benchmarks/bench_render.py --size 256 --kinds hex
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np

import wargrid
from wargrid.render import render_svg
from wargrid.render.geometry import Frame
from wargrid.render.png import raster, render_png
from wargrid.render.scene import default_cell_size
from _bar import bar


def timed(fn, *a, **k) -> float:
    t = time.perf_counter()
    fn(*a, **k)
    return time.perf_counter() - t


def polygons(m: wargrid.Map, cell_size: float) -> tuple[Frame, np.ndarray, list[str]]:
    f = Frame.for_grid(m.grid, cell_size=cell_size)
    ys, xs = np.nonzero(m.grid.mask)
    colors = m.terrains.colors()
    return f, f.polygons(xs, ys), [colors[i] for i in m.terrain[ys, xs].tolist()]


def pillow_naive(m: wargrid.Map, cell_size: float, out: str) -> None:
    from PIL import Image, ImageDraw

    f, poly, cols = polygons(m, cell_size)
    img = Image.new("RGB", (f.width, f.height), "white")
    d = ImageDraw.Draw(img)
    for p, c in zip(poly.tolist(), cols):
        d.polygon([tuple(v) for v in p], fill=c)
    img.save(out)


def matplotlib_save(m: wargrid.Map, cell_size: float, out: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PolyCollection

    f, poly, cols = polygons(m, cell_size)
    dpi = 100
    fig = plt.figure(figsize=(f.width / dpi, f.height / dpi), dpi=dpi)
    ax = fig.add_axes([0, 0, 1, 1])
    ax.add_collection(PolyCollection(poly, facecolors=cols, edgecolors="none"))
    ax.set_xlim(0, f.width)
    ax.set_ylim(f.height, 0)
    ax.axis("off")
    fig.savefig(out, dpi=dpi)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--kinds", default="hex,square")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    try:
        import matplotlib  # noqa: F401

        have_mpl = True
    except ImportError:
        have_mpl = False
    print(f"board {args.size}x{args.size}; seconds (wargrid / peer)")
    for kind in bar(args.kinds.split(","), "boards"):
        m = wargrid.generate(args.size, args.size, seed=1, kind=kind)
        cs = default_cell_size(m.grid)
        f = Frame.for_grid(m.grid, cell_size=cs)
        print(f"\n{kind}: {args.size * args.size} cells, picture {f.width}x{f.height} px")
        raster.cache_clear()
        w_png = timed(render_png, m, os.path.join(tmp, "w.png"), cell_size=cs)
        w_svg = timed(render_svg, m, os.path.join(tmp, "w.svg"), cell_size=cs)
        print(f"  wargrid PNG            {w_png:7.2f} s")
        print(f"  wargrid SVG            {w_svg:7.2f} s  ({os.path.getsize(os.path.join(tmp, 'w.svg')) / 1e6:.0f} MB)")
        p = timed(pillow_naive, m, cs, os.path.join(tmp, "p.png"))
        print(f"  Pillow polygon loop    {p:7.2f} s  PNG ratio {w_png / p:.2f}")
        if have_mpl:
            mp = timed(matplotlib_save, m, cs, os.path.join(tmp, "m.png"))
            ms = timed(matplotlib_save, m, cs, os.path.join(tmp, "m.svg"))
            print(f"  matplotlib PNG         {mp:7.2f} s  PNG ratio {w_png / mp:.2f}")
            print(f"  matplotlib SVG         {ms:7.2f} s  SVG ratio {w_svg / ms:.2f}")
        else:
            print("  matplotlib             not installed")


if __name__ == "__main__":
    main()
