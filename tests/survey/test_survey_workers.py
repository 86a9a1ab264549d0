"""A survey's worker processes end with it: ``kill -9`` of the survey leaves no orphan measuring on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest


CHILD = textwrap.dedent("""
    import multiprocessing, sys, threading, time
    import wargrid

    def report():
        for _ in range(6000):
            kids = multiprocessing.active_children()
            if len(kids) >= 2:
                print(" ".join(str(k.pid) for k in kids), flush=True)
                return
            time.sleep(0.01)

    threading.Thread(target=report, daemon=True).start()
    wargrid.survey(6, size=(160, 160), kind="hex", players=4, workers=2, progress=False)
""")


def _alive(pid: int) -> bool:
    """Running or sleeping (a zombie waiting to be reaped has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_a_survey_ends_its_workers():
    proc = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        pids = [int(p) for p in line.split()]
        assert len(pids) >= 2, (line, proc.poll(), proc.stderr.read() if proc.poll() is not None else "")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        for _ in range(300):  # 30 s at most; the workers' own maps take minutes
            if not any(_alive(p) for p in pids):
                break
            time.sleep(0.1)
        left = [p for p in pids if _alive(p)]
        for p in left:  # do not leave them running whatever the outcome
            os.kill(p, signal.SIGKILL)
        assert left == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_worker_whose_parent_is_already_gone_exits_at_once():
    # the watcher in a process whose recorded parent is not its parent: it must end with status 1
    code = "from wargrid.survey.run import watch_parent; watch_parent(1); import time; time.sleep(30); print('alive')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "alive" not in out.stdout


@pytest.mark.slow
def test_the_watcher_leaves_a_process_with_its_parent_alone():
    code = ("import os; from wargrid.survey.run import watch_parent; watch_parent(os.getppid(), every=0.05); "
            "import time; time.sleep(0.3); print('alive')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "alive" in out.stdout
