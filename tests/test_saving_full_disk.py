"""Writes that fail part-way (a full disk) leave the old file whole and name the file: ``Picture.save``, the
survey report, the survey's results file and the simulation's debug picture."""

from __future__ import annotations

import errno

import pytest

import wargrid._files
from wargrid import Map, SquareGrid


def _full_disk(monkeypatch):
    def fsync(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(wargrid._files.os, "fsync", fsync)


def test_picture_save_on_a_full_disk_keeps_the_old_file(tmp_path, monkeypatch):
    p = tmp_path / "board.svg"
    p.write_text("old picture")
    pic = Map(SquareGrid(4, 3)).picture()
    _full_disk(monkeypatch)
    with pytest.raises(OSError, match=r"No space left on device: '.*board\.svg'"):
        pic.save(p)
    assert p.read_text() == "old picture"
    assert [f.name for f in tmp_path.iterdir()] == ["board.svg"]  # no temp file left behind
    monkeypatch.undo()
    pic.save(p)
    assert "<svg" in p.read_text()


def test_picture_save_checks_its_path():
    with pytest.raises(TypeError, match="path must be a file path"):
        Map(SquareGrid(2, 2)).picture().save(3)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def small_survey():
    import pyarrow  # noqa: F401 - the test extra installs wargrid[survey]; a missing one fails here

    import wargrid

    return wargrid.survey(2, size=(10, 10), players=2, workers=1, progress=False)


@pytest.mark.xdist_group("survey")  # a survey warms the movement and territory kernels: with the survey tests
def test_survey_report_on_a_full_disk_keeps_the_old_report(small_survey, tmp_path, monkeypatch):
    p = tmp_path / "report.html"
    p.write_text("old report")
    _full_disk(monkeypatch)
    with pytest.raises(OSError, match=r"No space left on device: '.*report\.html'"):
        small_survey.write_report(p)
    assert p.read_text() == "old report"
    assert [f.name for f in tmp_path.iterdir()] == ["report.html"]


@pytest.mark.xdist_group("survey")
def test_survey_results_on_a_full_disk_keep_the_old_file(small_survey, tmp_path, monkeypatch):
    p = tmp_path / "rows.parquet"
    p.write_bytes(b"old rows")
    _full_disk(monkeypatch)
    with pytest.raises(OSError, match=r"No space left on device: '.*rows\.parquet'"):
        small_survey.to_parquet(p)
    assert p.read_bytes() == b"old rows"
    assert [f.name for f in tmp_path.iterdir()] == ["rows.parquet"]
