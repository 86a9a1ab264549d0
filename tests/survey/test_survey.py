"""``wargrid.survey``: the same rows wherever it runs, failures kept as rows, resume, and clear errors."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

import wargrid
from wargrid.errors import ArgumentError, ArgumentTypeError
from wargrid.survey import COLUMNS, MEASURE_COLUMNS, SurveySpec, read_results, survey

OPTIONS = dict(size=(24, 24), kind="hex", players=3, seed_start=5)
MAPS = 6


@pytest.fixture(scope="module")
def here():
    """The reference: the maps measured one after the other in this process."""
    return survey(MAPS, workers=1, progress=False, **OPTIONS)


def test_rows_hold_what_the_library_says(here) -> None:
    assert here.seeds == list(range(5, 5 + MAPS)) and here.failed() == []
    spec = here.spec
    for row in here.rows[:3]:
        board = spec.generate(row["seed"])
        m = board.map
        assert set(row) == {c.name for c in COLUMNS}
        assert row["cells"] == 24 * 24 and row["towns"] == len(board.towns)
        assert row["land_share"] == m.passable().sum() / (24 * 24)
        labels = m.zones(unit="naval")
        assert row["zones_naval"] == len(np.unique(labels[labels >= 0]))
        p = m.partition(3, seed=row["seed"]).report
        assert row["partition_balanced"] is True and row["partition_cells_max"] == int(p.cells.max())
        assert row["partition_spread"] == p.spread <= 1
        starts = m.start_positions(3, seed=row["seed"], value=m.passable().astype(float))
        assert row["start_cells"] == [list(c) for c in starts.cells] and row["start_min_steps"] == starts.min_distance
        near = m.distance_table(list(starts.cells), list(board.towns)).min(axis=1)
        assert row["start_town_spread"] == near.max() - near.min()
        table = m.distance_table(list(starts.cells), list(starts.cells))
        assert row["start_distance_max"] == table.max() and row["paths_unreachable"] == 0
        steps = [len(m.path(starts[i], starts[j]).cells) - 1 for i in range(3) for j in range(i + 1, 3)]
        assert row["path_steps_max"] == max(steps) and math.isclose(row["path_steps_mean"], np.mean(steps))
        assert row["seconds_total"] >= row["seconds_generate"] > 0


@pytest.mark.slow
def test_local_processes_give_the_same_rows(here) -> None:
    pooled = survey(MAPS, workers=2, progress=False, **OPTIONS)
    assert pooled.where == "on 2 local processes"
    assert pooled.measures() == here.measures()


def test_a_local_dask_cluster_gives_the_same_rows(here) -> None:
    import distributed  # the test extra installs wargrid[survey]

    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            seen: list[int] = []
            result = survey(MAPS, client=client, on_row=lambda row: seen.append(row["seed"]), **OPTIONS)
            assert result.where.startswith("on the Dask cluster at ")
            assert sorted(seen) == here.seeds
            assert result.measures() == here.measures()
            plugins = client.run(lambda dask_worker: [n for n in dask_worker.plugins if n.startswith("wargrid-survey-warm")])
            assert [len(names) for names in plugins.values()] == [1]  # each worker warmed once, by the plugin
            by_address = survey(2, client=cluster.scheduler_address, progress=False, **OPTIONS)  # the CLI's way
            assert by_address.measures() == here.measures()[:2]


@pytest.mark.slow
def test_a_killed_worker_is_replaced_and_the_survey_completes(here, tmp_path: Path) -> None:
    import os
    import signal

    import distributed  # the test extra installs wargrid[survey]

    maps = 30
    reference = survey(maps, workers=1, progress=False, **OPTIONS)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            client.wait_for_workers(2)
            pids = client.run(os.getpid)
            killed: list[int] = []

            def kill_one(row: dict) -> None:
                if not killed:
                    pid = next(iter(pids.values()))
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)

            result = survey(maps, client=client, on_row=kill_one, out=tmp_path / "r.parquet", **OPTIONS)
            client.wait_for_workers(2, timeout=60)
            assert killed and killed[0] not in client.run(os.getpid).values()
    assert result.failed() == [] and result.measures() == reference.measures()
    assert [r["seed"] for r in read_results(str(tmp_path / "r.parquet"))] == reference.seeds


def test_a_failing_map_is_a_row_with_its_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from wargrid.survey import measuring as measure_module

    real = measure_module._partition

    def flaky(m, players, unit, seed, row):
        if seed == 6:
            raise RuntimeError("no\nland today")
        real(m, players, unit, seed, row)

    monkeypatch.setattr(measure_module, "_partition", flaky)
    out = tmp_path / "f.parquet"
    result = survey(3, workers=1, progress=False, out=out, **OPTIONS)
    assert [r["seed"] for r in result.failed()] == [6]
    bad = result.rows[1]
    assert bad["error"] == "RuntimeError: no land today" and bad["partition_feasible"] is None and bad["cells"] == 576
    assert result.rows[0]["error"] is None and result.rows[2]["partition_balanced"] is True
    assert "seed 6: RuntimeError: no land today" in result.summary()
    assert read_results(str(out))[1]["error"] == "RuntimeError: no land today"


def test_infeasible_requests_are_measures_not_errors() -> None:
    r = survey(1, size=(3, 2), players=8, workers=1, progress=False).rows[0]
    assert r["error"] is None and r["partition_feasible"] is False and r["starts_found"] is False
    assert r["start_cells"] is None and r["cells"] == 6


def test_resume_measures_only_the_missing_seeds(here, tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    interrupted: list[int] = []

    def stop_after_two(row: dict) -> None:
        interrupted.append(row["seed"])
        if len(interrupted) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        survey(MAPS, workers=1, out=out, on_row=stop_after_two, checkpoint=0.0, **OPTIONS)
    assert [r["seed"] for r in read_results(str(out))] == interrupted == [5, 6]
    seen: list[int] = []
    result = survey(MAPS, workers=1, out=out, resume=True, on_row=lambda row: seen.append(row["seed"]), **OPTIONS)
    assert seen == [7, 8, 9, 10] and result.measured == 4
    assert result.measures() == here.measures()
    table = pq.read_table(out)
    assert table.column_names == [c.name for c in COLUMNS] and table.num_rows == MAPS
    assert table.schema.field("start_cells").type.value_type.value_type.bit_width == 64
    assert [{k: r[k] for k in MEASURE_COLUMNS} for r in table.to_pylist()] == here.measures()
    with pytest.raises(ArgumentError, match="players='3', this survey asks for players='4'"):
        survey(MAPS, workers=1, out=out, resume=True, progress=False, **{**OPTIONS, "players": 4})


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(maps=0), ArgumentError, "maps must be >= 1"),
    (dict(maps=2.5), ArgumentTypeError, "maps"),
    (dict(size=(0, 4)), ArgumentError, "size"),
    (dict(size="big"), ArgumentTypeError, "size must be N or"),
    (dict(size=5000), ArgumentError, "past the 4194304 cells"),
    (dict(kind="triangle"), ArgumentError, "kind"),
    (dict(players=0), ArgumentError, "players"),
    (dict(seed_start=-1), ArgumentError, "seed_start"),
    (dict(unit="flying"), ArgumentError, "flying"),
    (dict(board={"lava": 0.2}), ArgumentError, "unknown board option 'lava'"),
    (dict(board={"water": 2.0}), ArgumentError, "water and forest must be in 0..0.9"),
    (dict(workers=0), ArgumentError, "workers"),
    (dict(workers=2, client="tcp://127.0.0.1:8786"), ArgumentError, "not both"),
    (dict(resume=True), ArgumentError, "needs out="),
    (dict(out="results.csv"), ArgumentError, "must be a .parquet file"),
    (dict(out=5), ArgumentTypeError, "out must be a path"),
    # every map's seed was listed up front: the process grew until the kernel killed it for memory
    (dict(maps=10**20), MemoryError, "a survey with maps=100000000000000000000 needs about"),
    (dict(progress=3), ArgumentTypeError, "progress must be"),
    (dict(workers=None, client=8786), ArgumentTypeError, "client must be a distributed.Client or a scheduler address"),
    (dict(workers=None, client="nonsense://x:1"), ArgumentError, "is no Dask scheduler address"),
])
def test_bad_arguments_are_clear_errors(kwargs: dict, error: type, match: str) -> None:
    args = {"maps": 2, "size": 8, "workers": 1, "progress": False, **kwargs}
    with pytest.raises(error, match=match):
        survey(args.pop("maps"), **args)


def test_a_client_that_could_not_connect_leaves_no_half_made_client_behind() -> None:
    """``distributed.Client`` raising in its constructor leaves a half-made client whose finalizer, run by a later
    garbage collection inside another cluster's start, made distributed's loop runner wait on itself (the next
    test's ``LocalCluster`` hung): the survey collects it before it raises."""
    import gc

    import distributed

    with pytest.raises(ArgumentError, match="is no Dask scheduler address"):
        survey(2, size=8, workers=None, client="nonsense://x:1", progress=False)
    assert not [o for o in gc.get_objects() if isinstance(o, distributed.Client)]


def test_a_results_file_of_something_else_is_refused(tmp_path: Path) -> None:
    import pyarrow as pa

    p = tmp_path / "other.parquet"
    pq.write_table(pa.table({"a": [1]}), p)
    with pytest.raises(ArgumentError, match="holds no survey results"):
        survey(2, size=8, out=p, resume=True, workers=1, progress=False)
    (tmp_path / "junk.parquet").write_text("not parquet")
    with pytest.raises(ArgumentError, match="cannot read survey results"):
        read_results(str(tmp_path / "junk.parquet"))


def test_report_draws_histograms_and_the_worst_and_best_maps(here, tmp_path: Path) -> None:
    import re
    import xml.etree.ElementTree as ET

    path = tmp_path / "r.html"
    here.write_report(path, show=2)
    page = path.read_text(encoding="utf-8")
    svgs = re.findall(r"<svg.*?</svg>", page, flags=re.S)
    assert all(ET.fromstring(s).tag.endswith("svg") for s in svgs)
    assert page.count('class="hist"') == 10 and page.count("<figure>") == 4
    spreads = sorted(here.rows, key=lambda r: (-r["start_town_spread"], r["seed"]))
    worst = page.index("Worst maps")
    assert page.index(f"seed {spreads[0]['seed']}: start_town_spread", worst) < page.index("Best maps")
    with pytest.raises(ArgumentError, match="rank_by must be a numeric column"):
        here.write_report(path, rank_by="error")


def test_the_spec_round_trips_and_describes_itself() -> None:
    s = SurveySpec.of(24, 16, kind="square", players=2, unit="cavalry", board={"water": 0.1})
    assert s.describe() == "24x16 square maps, 2 players (cavalry), water=0.1"
    assert s.generate(3).map == wargrid.generate(24, 16, kind="square", seed=3, water=0.1)


def test_import_wargrid_imports_no_extra_and_a_missing_one_is_named() -> None:
    code = textwrap.dedent("""
        import sys
        import wargrid
        assert not {"dask", "distributed", "pyarrow", "tqdm", "numba"} & set(sys.modules), sys.modules.keys()
        assert callable(wargrid.survey)
        sys.modules["pyarrow"] = None
        from wargrid._extras import MissingExtraError
        try:
            wargrid.survey(1, size=8, workers=1)
        except MissingExtraError as e:
            assert 'pip install "wargrid[survey]"' in str(e), e
        else:
            raise AssertionError("a survey ran without pyarrow")
        print("ok")
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


def test_a_worker_whose_small_map_fails_warms_every_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """``warm`` measures one small map of the survey's kind; where a step of it fails, the steps after it are
    unrun, so it loads the movement and territory kernels with ``warm_up`` (else the first timed rows would
    compile them). A small map that measures whole needs no ``warm_up``."""
    from wargrid.survey import measuring
    import wargrid.warmup as warmup

    calls: list[tuple[str, ...]] = []
    monkeypatch.setattr(warmup, "warm_up", lambda *groups: calls.append(groups))
    monkeypatch.setattr(measuring, "_WARMED", set())
    row = measuring.empty_row(0)
    row["error"] = "RuntimeError: a failed step"
    monkeypatch.setattr(measuring, "measure", lambda spec, seed: row)
    measuring.warm(SurveySpec(16, 16, kind="hex"))
    assert calls == [("movement", "territory")]
    row["error"] = None
    measuring.warm(SurveySpec(16, 16, kind="square"))
    measuring.warm(SurveySpec(16, 16, kind="hex"))  # (warmed once a process)
    assert calls == [("movement", "territory")]

    def failing(*groups: str) -> None:
        raise RuntimeError("no kernels")

    monkeypatch.setattr(warmup, "warm_up", failing)  # a warm-up that fails stops no survey (each row keeps its error)
    row["error"] = "RuntimeError: a failed step"
    measuring.warm(SurveySpec(16, 16, kind="staggered"))
    assert SurveySpec(16, 16, kind="staggered") in measuring._WARMED
