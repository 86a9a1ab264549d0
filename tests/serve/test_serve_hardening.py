"""The playground under hostile or careless clients: other sites, deep JSON, stalled uploads, heavy requests.

Every socket here talks to 127.0.0.1 only; the counts of clients and the
waits are small and bounded.
"""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from wargrid.serve import bind_socket, server_for
from wargrid.serve.app import CLIENT_COOKIE, MAX_DEPTH, create_app

JSON = {"Content-Type": "application/json"}
HEAVY_BOARD = {"kind": "square-8", "width": 256, "height": 256, "seed": 1}
HEAVY_SPLIT = {"players": 3, "mode": "scattered", "max_chunk": 2}


def client(app=None, **kw) -> TestClient:
    return TestClient(app or create_app(**kw), base_url="http://127.0.0.1", raise_server_exceptions=False)


def new_board(c: TestClient, **kw) -> str:
    r = c.post("/api/board", json={"kind": "square-4", "width": 6, "height": 4, **kw})
    assert r.status_code == 200, r.text
    return r.json()["session"]


# -- row 7: requests from other sites, session floods --------------------------------------------

def test_cross_site_form_post_is_refused():
    c = client()
    r = c.post("/api/board", content=b'{"kind": "square-4", "width": 4, "height": 4}',
               headers={"Origin": "http://evil.com", "Content-Type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    r = c.post("/api/board", content=b'{"kind": "square-4", "width": 4, "height": 4}', headers={"Content-Type": "text/plain"})
    assert r.status_code == 415


@pytest.mark.parametrize("origin", ["http://evil.com", "null", "http://127.0.0.1.evil.com", "http://127.0.0.1:9"])
def test_json_post_from_another_origin_is_refused(origin):
    r = client().post("/api/board", json={"kind": "square-4", "width": 4, "height": 4}, headers={"Origin": origin})
    assert r.status_code == 403 and "other sites" in r.json()["error"]


def test_json_post_from_the_page_itself_is_answered():
    c = client()
    r = c.post("/api/board", json={"kind": "square-4", "width": 4, "height": 4}, headers={"Origin": "http://127.0.0.1"})
    assert r.status_code == 200, r.text
    r = c.post("/api/board", json={"kind": "square-4", "width": 4, "height": 4},
               headers={"Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 200, r.text


def test_page_gets_a_strict_client_cookie():
    c = client()
    cookie = c.get("/").headers["set-cookie"]
    assert cookie.startswith(f"{CLIENT_COOKIE}=") and "samesite=strict" in cookie.lower() and "httponly" in cookie.lower()
    assert "set-cookie" not in c.get("/").headers  # kept, not replaced


def test_a_flood_of_boards_does_not_evict_the_pages_session():
    app = create_app(capacity=16)
    page = client(app)
    page.get("/")  # the page's client cookie
    mine = new_board(page)
    evil = client(app)
    for _ in range(16):  # cross-site: refused outright
        r = evil.post("/api/board", content=b'{"kind": "square-4", "width": 4, "height": 4}',
                      headers={"Origin": "http://evil.com", "Content-Type": "text/plain"})
        assert r.status_code in (403, 415)
    for _ in range(40):  # a local script: replaces only its own boards
        new_board(evil)
    for _ in range(3):  # other pages, each with its own cookie
        other = client(app)
        other.get("/")
        new_board(other)
    r = page.post("/api/board/get", json={"session": mine})
    assert r.status_code == 200, r.text
    assert len(app.state.store) <= 16


# -- row 9: deep JSON ------------------------------------------------------------------------------

def test_deeply_nested_json_is_a_clear_400():
    c = client()
    r = c.post("/api/board", content=b"[" * 100_000 + b"]" * 100_000, headers=JSON)
    assert r.status_code == 400 and f"at most {MAX_DEPTH}" in r.json()["error"]
    r = c.post("/api/board", content=b'{"kind": "' + b"[" * 1000 + b'", "width": 4, "height": 4}', headers=JSON)
    assert r.status_code == 400 and "kind must be one of" in r.json()["error"]  # brackets in strings do not nest


# -- row 14: stalled uploads -----------------------------------------------------------------------

@pytest.fixture
def live_server():
    """A real server (the one ``wargrid serve`` runs) on 127.0.0.1 in a thread, with a 1 s body timeout."""
    app = create_app(body_timeout=1.0)
    server = server_for(app)
    sock = bind_socket("127.0.0.1", 0)
    t = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    t.start()
    try:
        for _ in range(600):
            if server.started:
                break
            time.sleep(0.05)
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        t.join(30)
        app.state.worker.stop()
        sock.close()


def _stall(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(b"POST /api/board HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              b"Content-Length: 1000\r\n\r\n{\"kind\": ")
    return s


def test_stalled_uploads_are_cut_and_the_server_keeps_answering(live_server):
    stalled = [_stall(live_server) for _ in range(8)]
    try:
        for s in stalled:
            head = s.recv(4096)  # a hang here (no body timeout) ends in socket.timeout
            assert head.startswith(b"HTTP/1.1 408"), head[:80]
            assert b"did not arrive within 1 s" in head or b"did not arrive within 1 s" in s.recv(4096)
    finally:
        for s in stalled:
            s.close()
    req = urllib.request.Request(f"http://127.0.0.1:{live_server}/api/board", headers=JSON,
                                 data=json.dumps({"kind": "hex-flat", "width": 5, "height": 5}).encode())
    with urllib.request.urlopen(req, timeout=30) as r:
        assert r.status == 200


# -- row 6: heavy requests -------------------------------------------------------------------------

def _state(pid: int) -> str:
    """A process's state letter ('Z' a zombie, 'R' running, ...), '' once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


@pytest.mark.slow
def test_a_partition_that_runs_too_long_is_stopped_with_503():
    # a scattered three-way split of 65,536 cells runs far longer than a tenth of a second on any machine (the
    # worker's warm-up is not counted), so the limit is crossed whatever the machine's speed
    app = create_app(work_timeout=0.1)
    c = client(app)
    b = c.post("/api/board", json=HEAVY_BOARD)
    assert b.status_code == 200
    app.state.worker.start()
    pid = app.state.worker.pid
    r = c.post("/api/partition", json={"session": b.json()["session"], **HEAVY_SPLIT})
    assert r.status_code == 503, r.text[:200]
    assert "ran longer than 0.1 s and was stopped" in r.json()["error"]
    assert _state(pid) in ("", "Z", "X")  # the worker was killed: no CPU left burning
    # the next heavy request gets a fresh worker
    small = new_board(c)
    r = c.post("/api/partition", json={"session": small, "players": 2})
    assert r.status_code == 200, r.text
    assert app.state.worker.pid != pid
    app.state.worker.stop()


def _cpu_ticks(pid: int) -> int:
    """A process's user + system CPU time in clock ticks (-1 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return -1
    return int(fields[11]) + int(fields[12])


def _worker_of(server_pid: int) -> int:
    """The process id of the server's worker: its child started by multiprocessing's spawn (not the tracker)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            cmd = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == server_pid and b"spawn_main" in cmd and b"resource_tracker" not in cmd:
            return int(stat.parent.name)
    raise AssertionError(f"the server (pid {server_pid}) has no worker process")


def _until(what: str, ok, limit: float = 300.0) -> None:
    """Poll ``ok()`` every 10 ms until it is true; fail naming ``what`` after ``limit`` seconds (a hung server)."""
    end = time.monotonic() + limit
    while not ok():
        assert time.monotonic() < end, f"{what} did not happen within {limit:g} s"
        time.sleep(0.01)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_first_signal_stops_the_server_during_a_heavy_request(sig):
    proc = subprocess.Popen([sys.executable, "-m", "wargrid", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    answers: list[object] = []
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+/", proc.stdout.readline()).group(0)

        def post(name: str, payload: dict) -> object:
            req = urllib.request.Request(url + "api/" + name, data=json.dumps(payload).encode(), headers=JSON)
            try:
                with urllib.request.urlopen(req, timeout=120) as r:
                    return r.status, json.loads(r.read())
            except urllib.error.HTTPError as e:
                return e.code, json.loads(e.read())
            except OSError as e:
                return None, repr(e)

        status, b = post("board", HEAVY_BOARD)
        assert status == 200
        status, small = post("board", {"kind": "square-4", "width": 6, "height": 4})
        assert status == 200
        status, _ = post("partition", {"session": small["session"], "players": 2})
        assert status == 200  # the worker is warm and idle: from now on its CPU clock moves only while a job runs
        worker = _worker_of(proc.pid)
        idle = _cpu_ticks(worker)
        t = threading.Thread(target=lambda: answers.append(post("partition", {"session": b["session"], **HEAVY_SPLIT})))
        t.start()
        _until("the heavy partition starting in the worker", lambda: _cpu_ticks(worker) > idle)
        proc.send_signal(sig)
        proc.wait(timeout=60)  # one signal is enough: no second Ctrl+C, no waiting for the partition
        t.join(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert answers and answers[0][0] == 503 and "stopping" in answers[0][1]["error"], answers


@pytest.mark.slow
def test_a_jobs_time_starts_once_the_worker_is_warm():
    """A cold worker's warm-up (compiling kernels) is not counted against the first job; a long job still is."""
    import functools

    from wargrid.serve.api import ApiError
    from wargrid.serve.worker import Worker

    w = Worker(timeout=0.5, warm=functools.partial(time.sleep, 2.0))
    try:
        assert w.call(pow, 2, 10) == 1024  # waited for a warm-up four times the limit, then ran within it
        assert w.call(pow, 3, 2) == 9
        with pytest.raises(ApiError, match="ran longer than 0.5 s"):
            w.call(time.sleep, 3600.0)  # a job that cannot end within the limit on any machine
    finally:
        w.stop()


@pytest.mark.parametrize("fault", [TypeError("'NoneType' object cannot be interpreted as an integer"),
                                   OSError("handle is closed"), EOFError()])
def test_a_pipe_closed_by_stop_during_a_read_is_a_503(fault):
    """``stop()`` runs in a signal handler and closes the pipe while the request's thread is inside ``recv``; a
    ``Connection`` closed under a reader raises ``TypeError`` (it reads from a handle now ``None``), not only
    ``OSError``: the waiting request is answered 503 "stopping", not 500."""
    from wargrid.serve.api import ApiError
    from wargrid.serve.worker import Worker

    w = Worker(timeout=60)

    class ClosedUnderTheReader:
        def send(self, obj: object) -> None:
            pass

        def poll(self, timeout: float) -> bool:
            w.stop()  # the signal arrives while the job runs
            return True

        def recv(self) -> object:
            raise fault

        def close(self) -> None:
            pass

    w._conn, w._ready = ClosedUnderTheReader(), True  # a warm child whose pipe the stop will close
    w._proc = type("Gone", (), {"pid": None, "is_alive": lambda self: True})()
    with pytest.raises(ApiError) as err:
        w.call(pow, 2, 2)
    assert err.value.status == 503 and "stopping" in err.value.message


def test_stopping_a_worker_during_its_warm_up_cancels_the_waiting_job():
    import functools

    from wargrid.serve.api import ApiError
    from wargrid.serve.worker import Worker

    w = Worker(timeout=1.0, warm=functools.partial(time.sleep, 30.0))
    errors: list[ApiError] = []

    def job() -> None:
        try:
            w.call(pow, 2, 2)
        except ApiError as e:
            errors.append(e)

    t = threading.Thread(target=job)
    t.start()
    _until("the job starting the worker", lambda: w.pid is not None, limit=60)  # the job waits for its warm-up now
    w.stop()
    t.join(20)
    assert not t.is_alive()
    assert errors and errors[0].status == 503 and "stopping" in errors[0].message
