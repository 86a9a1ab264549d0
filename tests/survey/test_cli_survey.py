"""``wargrid survey``: rows, summary, report and JSON from the command line; usage errors exit 2 in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wargrid.cli import main
from wargrid.survey import MEASURE_COLUMNS, read_results, survey


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["survey", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_survey_writes_rows_summary_and_report(capsys, tmp_path: Path) -> None:
    out, report = tmp_path / "r" / "rows.parquet", tmp_path / "report.html"
    code, text, err = run(capsys, "--maps", "3", "--size", "20x16", "--players", "2", "--seed-start", "4",
                          "--workers", "1", "--out", str(out), "--report", str(report))
    assert code == 0, err
    assert text.startswith("survey of 3 20x16 hex maps, 2 players, seeds 4..6\nmeasured 3 in ")
    assert f"rows: {out}" in text and report.read_text(encoding="utf-8").count("<figure>") == 6
    expect = survey(3, size=(20, 16), players=2, seed_start=4, workers=1, progress=False)
    assert [{k: r[k] for k in MEASURE_COLUMNS} for r in read_results(str(out))] == expect.measures()
    code, text, err = run(capsys, "--maps", "4", "--size", "20x16", "--players", "2", "--seed-start", "4",
                          "--workers", "1", "--out", str(out), "--resume", "--json")
    d = json.loads(text)
    assert code == 0 and d["maps"] == 4 and d["measured"] == 1 and d["seeds"] == [4, 7] and d["failed"] == 0
    code, _, err = run(capsys, "--maps", "4", "--size", "24", "--out", str(out), "--resume", "--workers", "1")
    assert code == 1 and "was made with width='20'" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv, message", [
    (["--maps", "0"], "--maps must be >= 1"),
    (["--maps", "2", "--players", "0"], "--players must be >= 1"),
    (["--maps", "2", "--seed-start", "-3"], "--seed-start must be >= 0"),
    (["--maps", "2", "--workers", "0"], "--workers must be >= 1"),
    (["--maps", "2", "--resume"], "--resume needs --out"),
    (["--maps", "2", "--out", "rows.csv"], "--out must end in .parquet"),
    (["--maps", "2", "--report", "r.pdf"], "--report must end in .html or .htm"),
])
def test_usage_errors_exit_2(capsys, argv: list[str], message: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_argparse_refuses_workers_with_a_scheduler_and_a_missing_maps(capsys) -> None:
    for argv in (["--maps", "2", "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"], ["--size", "8"]):
        code, _, err = run(capsys, *argv)
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_unknown_unit_rank_and_scheduler_are_one_line_failures(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "--maps", "1", "--size", "8", "--scheduler", "nonsense://x:1", "--out",
                       str(tmp_path / "none.parquet"))
    assert code == 1 and "is no Dask scheduler address" in err and not (tmp_path / "none.parquet").exists()
    code, _, err = run(capsys, "--maps", "1", "--size", "8", "--unit", "flying", "--workers", "1")
    assert code == 1 and "flying" in err
    # (the process grew until the kernel killed it; then the generic 'out of memory' line hid which argument)
    code, _, err = run(capsys, "--maps", "99999999999999999999", "--size", "8")
    assert code == 1 and "a survey with maps=99999999999999999999 needs about" in err
    code, _, err = run(capsys, "--maps", "1", "--size", "8", "--workers", "1", "--report", str(tmp_path / "r.html"),
                       "--rank-by", "seedling")
    assert code == 2 and "--rank-by must be a numeric column" in err and not (tmp_path / "r.html").exists()


def test_the_docs_page_documents_every_column_and_is_in_the_toctree() -> None:
    from wargrid.survey import COLUMNS

    docs = Path(__file__).resolve().parents[2] / "docs"
    page = (docs / "survey.md").read_text(encoding="utf-8")
    for c in COLUMNS:
        assert f"| `{c.name}` | {c.type} | {c.doc} |" in page, c.name
    toctree = (docs / "index.md").read_text(encoding="utf-8").split("```{toctree}")[1]
    assert "\nsurvey\n" in toctree
