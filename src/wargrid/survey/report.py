"""What people look at after a survey: a summary for the terminal and an HTML report.

The report is one self-contained HTML file: the summary, a histogram of each
fairness measure (inline SVG, drawn here), and the worst and best maps by one
measure, each drawn by ``wargrid.render.render_svg`` with its partition,
its starts and its towns (the maps are generated again from their seeds).
"""

from __future__ import annotations

import html
import os
from typing import Any, Protocol

import numpy as np

from ..errors import ArgumentError
from .._files import atomic_write
from .._validate import check_positive_int
from ..terrain import TerrainTable
from .columns import COLUMNS, STEPS
from .measuring import Row, SurveySpec


class SurveyLike(Protocol):
    """What the summary and the report read of a ``wargrid.survey.SurveyResult``."""

    @property
    def rows(self) -> tuple[Row, ...]: ...
    @property
    def spec(self) -> SurveySpec: ...
    @property
    def where(self) -> str: ...
    @property
    def measured(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def seeds(self) -> list[int]: ...
    def values(self, column: str) -> np.ndarray: ...

__all__ = ["summary_data", "summary_text", "write_report", "check_rank_by", "fairness_columns"]

_DOCS = {c.name: c.doc for c in COLUMNS}


def fairness_columns(result: SurveyLike) -> list[str]:
    """The measures the summary and the report show, in order."""
    unit = result.spec.unit or TerrainTable.default().classes[0]
    return ["land_share", f"largest_zone_{unit}", "partition_spread", "partition_compactness_max",
            "partition_chunks_max", "start_min_steps", "start_value_spread", "start_town_spread",
            "start_distance_min", "path_detour_mean"]


def _stats(v: np.ndarray) -> dict[str, float | int | None]:
    fin = v[np.isfinite(v)]
    if not fin.size:
        return {"count": 0, "infinite": int(np.isinf(v).sum()), "min": None, "p10": None, "median": None, "p90": None,
                "max": None}
    q = np.percentile(fin, [0, 10, 50, 90, 100])
    return {"count": int(fin.size), "infinite": int(np.isinf(v).sum()), "min": float(q[0]), "p10": float(q[1]),
            "median": float(q[2]), "p90": float(q[3]), "max": float(q[4])}


def summary_data(result: SurveyLike) -> dict[str, Any]:
    """The summary as plain data (what ``--json`` prints)."""
    rows = result.rows
    ok = [r for r in rows if r["error"] is None]
    times = {s: float(np.nanmean(result.values(f"seconds_{s}"))) if ok else None for s in (*STEPS, "total")}
    seeds = result.seeds
    return {
        "maps": len(rows), "measured": result.measured, "where": result.where, "seconds": round(result.seconds, 3),
        "maps_per_second": round(result.measured / result.seconds, 3) if result.seconds > 0 else None,
        "spec": result.spec.describe(), "seeds": [min(seeds), max(seeds)] if seeds else [],
        "failed": len(rows) - len(ok),
        "infeasible_partitions": sum(r["partition_feasible"] is False for r in ok),
        "unbalanced_partitions": sum(r["partition_balanced"] is False for r in ok),
        "no_starts": sum(r["starts_found"] is False for r in ok),
        "measures": {c: _stats(result.values(c)) for c in fairness_columns(result)},
        "mean_seconds": times,
        "errors": [{"seed": r["seed"], "error": r["error"]} for r in rows if r["error"] is not None][:10],
    }


def _fmt(v: float | int | None) -> str:
    if v is None:
        return "-"
    return f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"


def summary_text(result: SurveyLike) -> str:
    """A few lines for the terminal.

    >>> from wargrid.survey import survey
    >>> print(survey(2, size=12, players=2, workers=1, progress=False).summary())  # doctest: +ELLIPSIS
    survey of 2 12x12 hex maps, 2 players, seeds 0..1
    measured 2 in ... s (... maps/s) in this process
    failed 0, partition infeasible 0, unbalanced 0, no start positions 0
    ...
    """
    d = summary_data(result)
    seeds = f", seeds {d['seeds'][0]}..{d['seeds'][1]}" if d["seeds"] else ""
    rate = f" ({d['maps_per_second']:.3g} maps/s)" if d["maps_per_second"] else ""
    lines = [
        f"survey of {d['maps']} {d['spec']}{seeds}",
        f"measured {d['measured']} in {d['seconds']:.2f} s{rate} {d['where']}",
        f"failed {d['failed']}, partition infeasible {d['infeasible_partitions']}, "
        f"unbalanced {d['unbalanced_partitions']}, no start positions {d['no_starts']}",
        f"{'measure':<28}{'min':>9}{'p10':>9}{'median':>9}{'p90':>9}{'max':>9}",
    ]
    for name, s in d["measures"].items():
        inf = f"  ({s['infinite']} inf)" if s["infinite"] else ""
        lines.append(f"{name:<28}" + "".join(f"{_fmt(s[k]):>9}" for k in ("min", "p10", "median", "p90", "max")) + inf)
    t = d["mean_seconds"]
    if t["total"] is not None:
        lines.append("mean time a map: " + ", ".join(f"{s} {t[s] * 1000:.1f} ms" for s in STEPS)
                     + f" (total {t['total'] * 1000:.1f} ms)")
    for e in d["errors"][:3]:
        lines.append(f"seed {e['seed']}: {e['error']}")
    return "\n".join(lines)


def _histogram(values: np.ndarray, name: str) -> str:
    """An inline SVG histogram of the finite ``values``."""
    w, h, pad = 320, 170, 28
    fin = values[np.isfinite(values)]
    head = f'<svg class="hist" width="{w}" height="{h}" viewBox="0 0 {w} {h}"><title>{html.escape(_DOCS.get(name, name))}</title>'
    label = f'<text x="{w / 2}" y="14" text-anchor="middle" class="t">{html.escape(name)}</text>'
    if not fin.size:
        return head + label + f'<text x="{w / 2}" y="{h / 2}" text-anchor="middle">no finite values</text></svg>'
    bins = int(min(20, max(1, np.unique(fin).size)))
    counts, edges = np.histogram(fin, bins=bins)
    top = int(counts.max())
    bw = (w - 2 * pad) / bins
    bars = []
    for i, c in enumerate(counts):
        bh = (h - 2 * pad) * c / top
        bars.append(f'<rect x="{pad + i * bw:.1f}" y="{h - pad - bh:.1f}" width="{max(bw - 1, 1):.1f}" height="{bh:.1f}">'
                    f'<title>{edges[i]:.4g} .. {edges[i + 1]:.4g}: {int(c)}</title></rect>')
    inf = int(np.isinf(values).sum())
    note = f", {inf} inf" if inf else ""
    axis = (f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="#444"/>'
            f'<text x="{pad}" y="{h - 10}">{edges[0]:.4g}</text>'
            f'<text x="{w - pad}" y="{h - 10}" text-anchor="end">{edges[-1]:.4g}</text>'
            f'<text x="{pad - 4}" y="{pad + 4}" text-anchor="end">{top}</text>'
            f'<text x="{w / 2}" y="{h - 10}" text-anchor="middle">{fin.size} maps{note}</text>')
    return head + label + "".join(bars) + axis + "</svg>"


def _map_picture(result: SurveyLike, row: Row) -> str:
    """The map of ``row`` drawn with its partition (tinted regions), its starts (numbered) and its towns (white)."""
    from ..render import Markers, Regions, render_svg
    from ..territory import InfeasibleError

    spec = result.spec
    board = spec.generate(row["seed"])
    m = board.map
    overlays: list[object] = []
    try:
        overlays.append(Regions(m.partition(spec.players, unit=m.unit_class(spec.unit), seed=row["seed"]).owners,
                                alpha=0.45, name="partition"))
    except InfeasibleError:
        pass
    if board.towns:
        overlays.append(Markers(list(board.towns), color="#ffffff", radius=0.45, name="towns"))
    starts = [tuple(c) for c in row["start_cells"] or []]
    if starts:
        overlays.append(Markers(starts, color="#000000", radius=0.7, labels=[str(i + 1) for i in range(len(starts))],
                                name="starts"))
    svg = render_svg(m, overlays=overlays, grid_lines=False, title=f"seed {row['seed']}")
    return svg[svg.index("<svg"):]


def _ranked(result: SurveyLike, rank_by: str, show: int) -> tuple[list[Row], list[Row]]:
    v = result.values(rank_by)
    keep = [i for i in range(len(v)) if not np.isnan(v[i])]
    order = sorted(keep, key=lambda i: (v[i], result.rows[i]["seed"]))
    worst = [result.rows[i] for i in sorted(keep, key=lambda i: (-v[i], result.rows[i]["seed"]))[:show]]
    best = [result.rows[i] for i in order[:show]]
    return worst, best


_CSS = """body{font-family:system-ui,sans-serif;margin:2em;color:#222}pre{background:#f6f6f6;padding:1em;overflow-x:auto}
.hists,.maps{display:flex;flex-wrap:wrap;gap:12px}.hist rect{fill:#4e79a7}.hist text{font-size:11px}.hist .t{font-size:13px;font-weight:600}
figure{margin:0;width:380px}figure svg{width:100%;height:auto;border:1px solid #ccc}figcaption{font-size:13px}"""


def check_rank_by(rank_by: str) -> str:
    """``rank_by`` if it names a numeric column, else ``ArgumentError`` listing them."""
    numeric = {c.name for c in COLUMNS if c.type in ("int64", "float64", "bool")}
    if rank_by not in numeric:
        raise ArgumentError(f"rank_by must be a numeric column, one of {', '.join(sorted(numeric))}; got {rank_by!r}")
    return rank_by


def write_report(result: SurveyLike, path: str | os.PathLike[str], *, rank_by: str = "start_town_spread",
                 show: int = 3) -> None:
    """Write the HTML report of ``result`` to ``path``: summary, histograms, and the ``show`` worst and best
    maps by the column ``rank_by`` (larger is worse)."""
    check_rank_by(rank_by)
    show = check_positive_int(show, "show")
    worst, best = _ranked(result, rank_by, show)
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>wargrid survey</title><style>{_CSS}</style>"
             f"</head><body><h1>wargrid survey: {html.escape(result.spec.describe())}</h1>",
             f"<pre>{html.escape(summary_text(result))}</pre><h2>Fairness measures</h2><div class='hists'>"]
    parts += [_histogram(result.values(c), c) for c in fairness_columns(result)]
    parts.append("</div>")
    for title, rows in ((f"Worst maps by {rank_by}", worst), (f"Best maps by {rank_by}", best)):
        parts.append(f"<h2>{html.escape(title)}</h2><div class='maps'>")
        for r in rows:
            caption = f"seed {r['seed']}: {rank_by} = {r[rank_by]}"
            parts.append(f"<figure>{_map_picture(result, r)}<figcaption>{html.escape(caption)}</figcaption></figure>")
        if not rows:
            parts.append("<p>No map has this measure.</p>")
        parts.append("</div>")
    parts.append(f"<p>{html.escape(_DOCS[rank_by])}. Regions: the fair partition; black numbered dots: the starts; "
                 "white dots: the towns.</p></body></html>")
    atomic_write(path, "".join(parts))  # a full disk leaves the old report whole
