"""``wargrid serve``: options, the printed address, loopback by default."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request

import pytest

from wargrid.cli import main
from wargrid.serve import bind_socket, is_loopback


def test_help_names_the_options(capsys):
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--host" in out and "--port" in out and "127.0.0.1" in out


@pytest.mark.parametrize("port", ["-1", "70000", "http"])
def test_bad_port_is_a_usage_error(port, capsys):
    assert main(["serve", "--port", port]) == 2
    assert "port" in capsys.readouterr().err


def test_port_in_use_is_one_clear_line(capsys):
    sock = bind_socket("127.0.0.1", 0)
    try:
        port = sock.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    finally:
        sock.close()
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err


@pytest.mark.slow
def test_serve_prints_its_loopback_address_and_answers():
    proc = subprocess.Popen(
        [sys.executable, "-m", "wargrid", "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, (line, proc.poll())
        with urllib.request.urlopen(m.group(0) + "api/meta", timeout=30) as r:
            meta = json.loads(r.read())
        assert meta["max_side"] == 256
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_is_loopback():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("[::1]") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2") and not is_loopback("example.org")
    with pytest.raises(TypeError, match="host must be a string"):
        is_loopback(5)


def test_bind_socket_checks_its_arguments():
    with pytest.raises(ValueError, match="port must be an integer in 0..65535"):
        bind_socket("127.0.0.1", 70000)
    with pytest.raises(TypeError, match="host must be a non-empty string"):
        bind_socket("", 0)


def test_serve_on_another_loopback_address_answers_its_own_host():
    proc = subprocess.Popen(
        [sys.executable, "-m", "wargrid", "serve", "--host", "127.0.0.2", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.2:(\d+)/", line)
        assert m, (line, proc.poll())
        with urllib.request.urlopen(m.group(0), timeout=30) as r:
            assert r.status == 200 and b"wargrid playground" in r.read()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
