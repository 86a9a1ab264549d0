"""The server's own limits against hostile clients: JSON depth in linear time off the event loop, slow request
heads, greedy clients, and loopback spellings that must not switch off the Host guard.

Every socket here talks to 127.0.0.1 only; counts and waits are small and bounded (each ``recv`` has a
timeout, each loop a fixed count).
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargrid.cli import main
from wargrid.errors import ArgumentError
from wargrid.serve import bind_socket, is_loopback, serve, server_for
from wargrid.serve.app import create_app, json_depth

JSON = {"Content-Type": "application/json"}


def _depth(v: object) -> int:
    if isinstance(v, list):
        return 1 + max((_depth(x) for x in v), default=0)
    if isinstance(v, dict):
        return 1 + max((_depth(x) for x in v.values()), default=0)
    return 0


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ ab\n', max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet='[]{}"\\ k', max_size=5), inner,
                                                                 max_size=4),
    max_leaves=30,
)


@given(_json)
@settings(max_examples=120, deadline=None)
def test_json_depth_is_the_nesting_of_the_parsed_value(value):
    assert json_depth(json.dumps(value).encode()) == _depth(value)


def test_json_depth_reads_backslash_runs():
    assert json_depth(rb'["\\"]') == 1  # an escaped backslash, then the closing quote
    assert json_depth(rb'["\"]", [1]]') == 2  # an escaped quote keeps the string open over "]"
    assert json_depth(rb'["\\\"[[[", []]') == 2
    assert json_depth(b"") == 0 and json_depth(b'"[[[') == 0  # an unclosed string holds what follows


def test_json_depth_of_a_large_escaped_quote_body_is_prompt():
    # quadratic before: this 400 KB body held the event loop for hours; one linear pass now
    body = b'"' + b'\\"' * 200_000
    assert json_depth(body) == 0
    assert json_depth(b"[" * 300_000 + b'"\\"' * 100_000) == 300_000


# -- live servers (uvicorn on 127.0.0.1 in a thread) ---------------------------------------------

class Live:
    def __init__(self, **limits):
        self.app = create_app()
        self.server = server_for(self.app, **limits)
        self.sock = bind_socket("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> "Live":
        self.thread.start()
        for _ in range(600):
            if self.server.started:
                break
            time.sleep(0.05)
        assert self.server.started
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.app.state.worker.stop()
        self.sock.close()

    def get(self, path: str, timeout: float = 20) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def post(self, path: str, body: bytes, timeout: float = 30) -> tuple[int, bytes]:
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=body, headers=JSON)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()


def test_hostile_json_body_is_refused_while_other_requests_are_answered():
    with Live() as live:
        body = b'"' + b'\\"' * 40_000  # 80 KB of escaped quotes: minutes in the old depth check, on the event loop
        answers: dict[str, object] = {}

        def hostile() -> None:
            try:
                answers["hostile"] = live.post("/api/board", body)
            except OSError as e:  # a timeout: the server was stuck
                answers["hostile"] = repr(e)

        t = threading.Thread(target=hostile)
        t.start()
        try:
            status, meta = live.get("/api/meta", timeout=20)  # a blocked event loop answers nothing
            assert status == 200 and json.loads(meta)["max_side"] == 256
        finally:
            t.join(40)
        status, text = answers["hostile"]
        assert status == 400 and b"not valid JSON" in text


def _slow_head(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")
    return s


def _closed_by_server(s: socket.socket) -> bool:
    try:
        return s.recv(4096) == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def test_slowloris_heads_are_cut_and_one_client_holds_a_few_connections():
    with Live(header_timeout=1.0, max_client_connections=8) as live:
        socks = []
        try:
            for _ in range(70):
                socks.append(_slow_head(live.port))
            # all 70 are closed by the server: 62 as they open (over the per-client cap), 8 after the head deadline
            for s in socks:
                assert _closed_by_server(s)
            status, meta = live.get("/api/meta")
            assert status == 200
        finally:
            for s in socks:
                s.close()


def test_a_kept_alive_connection_with_a_stalled_second_head_is_cut():
    with Live(header_timeout=1.0) as live:
        s = socket.create_connection(("127.0.0.1", live.port), timeout=10)
        try:
            s.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            got = b""
            while b"max_side" not in got:
                chunk = s.recv(65536)
                assert chunk, got
                got += chunk
            assert got.startswith(b"HTTP/1.1 200")
            s.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.")
            assert _closed_by_server(s)
        finally:
            s.close()


def test_limits_are_checked():
    app = create_app()
    try:
        with pytest.raises(ArgumentError, match="header_timeout must be a number of seconds"):
            server_for(app, header_timeout=0)
        with pytest.raises(ArgumentError, match="max_client_connections must be an integer in 1..64"):
            server_for(app, max_client_connections=0)
    finally:
        app.state.worker.stop()


# -- loopback spellings ---------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["127.1", "LOCALHOST", "0x7f.1", "127.0.0.2", "Localhost"])
def test_every_spelling_of_a_loopback_address_is_loopback(host):
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "", "no-such-host.invalid"])
def test_other_hosts_are_not_loopback(host):
    assert not is_loopback(host)


def test_a_host_reachable_from_elsewhere_needs_allow_remote(capsys):
    with pytest.raises(ArgumentError, match="allow_remote=True"):
        serve(host="0.0.0.0", port=0)
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 1
    assert "--allow-remote" in capsys.readouterr().err


def _run_serve(*args: str) -> tuple[subprocess.Popen, str, str]:
    proc = subprocess.Popen([sys.executable, "-m", "wargrid", "serve", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()
    line = first if "playground on" in first else proc.stdout.readline()
    m = re.search(r":(\d+)/", line)
    assert m, (first, line, proc.poll())
    return proc, first, m.group(1)


def _status_for_host(port: str, host: str) -> int:
    s = socket.create_connection(("127.0.0.1", int(port)), timeout=20)
    try:
        s.sendall(f"GET /api/meta HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        head = s.recv(64)
    finally:
        s.close()
    return int(head.split()[1])


@pytest.mark.slow
@pytest.mark.parametrize("host", ["127.1", "LOCALHOST"])
def test_loopback_spellings_keep_the_dns_rebinding_guard(host):
    proc, first, port = _run_serve("--host", host)
    try:
        assert "reachable from other machines" not in first
        assert _status_for_host(port, "evil.example") == 400
        assert _status_for_host(port, f"127.0.0.1:{port}") == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.slow
def test_a_remote_bind_keeps_a_host_allow_list():
    proc, first, port = _run_serve("--host", "0.0.0.0", "--allow-remote", "--allowed-host", "board.lan")
    try:
        assert "reachable from other machines" in first and "board.lan" in first
        assert _status_for_host(port, "evil.example") == 400
        assert _status_for_host(port, f"board.lan:{port}") == 200
        assert _status_for_host(port, "localhost") == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)
