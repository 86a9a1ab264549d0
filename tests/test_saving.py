"""Saves behave like writing the file in place: mode kept, links followed, errors name the file (issue 21, row 13)."""

import os
import tempfile
import stat

import numpy as np
import pytest

import wargrid
from wargrid._files import atomic_write


def _mode(p):
    return stat.S_IMODE(os.stat(p).st_mode)


def test_an_existing_file_keeps_its_mode(tmp_path):
    p = tmp_path / "a.txt"
    p.write_bytes(b"old")
    os.chmod(p, 0o644)
    atomic_write(p, b"new")
    assert p.read_bytes() == b"new" and _mode(p) == 0o644
    os.chmod(p, 0o640)
    atomic_write(p, b"newer")
    assert _mode(p) == 0o640


def test_a_new_file_follows_the_umask(tmp_path):
    old = os.umask(0o027)
    try:
        atomic_write(tmp_path / "b.txt", "x")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "b.txt") == 0o640


def test_a_saved_map_follows_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        wargrid.save_map(wargrid.generate(6, 4, seed=1), tmp_path / "m.npz")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "m.npz") == 0o644


def test_a_symlink_is_written_through(tmp_path):
    real = tmp_path / "real.txt"
    real.write_bytes(b"old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    atomic_write(link, b"new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new"


def test_errors_name_the_file_asked_for(tmp_path):
    missing = tmp_path / "missing" / "c.txt"
    with pytest.raises(FileNotFoundError) as e:
        atomic_write(missing, b"x")
    assert e.value.filename == str(missing)
    assert ".tmp" not in str(e.value)


def test_errors_in_a_read_only_folder_name_the_file_asked_for(tmp_path, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()

    def denied(*args, dir=None, **kwargs):  # what the system answers in a folder the user cannot write (root always can)
        raise PermissionError(13, "Permission denied", os.path.join(str(dir), ".c.txt.abc.tmp"))

    monkeypatch.setattr(tempfile, "mkstemp", denied)
    with pytest.raises(PermissionError) as e:
        atomic_write(folder / "c.txt", b"x")
    assert e.value.filename == str(folder / "c.txt")
    assert ".tmp" not in str(e.value)
    assert list(folder.iterdir()) == []
