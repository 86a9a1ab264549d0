"""The playground's browser fixtures: one live server and one headless Chromium (Debian's) for the whole run.

The server runs in a subprocess on a free loopback port; the browser gets a
fresh profile in a temporary folder. Every page fails its test on a console
error or an uncaught exception, except the network line Chromium logs for a
refused request (``4xx``) in a test that sets ``page.refusals_expected``.

Every test that opens a browser is marked ``slow`` (the README's quick
command leaves them out). Without Chromium (or Playwright) such a test is
skipped with a one-line reason, except in CI (``CI=true``), where it fails:
CI installs Debian's ``chromium`` and must run them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

CHROMIUM = os.environ.get("WARGRID_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BROWSER_FIXTURES = {"browser", "phone", "page", "phone_page", "playwright_instance"}
SERVER = "import sys; from wargrid.serve import serve; serve(host='127.0.0.1', port=0)"
_REFUSED = re.compile(r"^Failed to load resource: the server responded with a status of 4\d\d ")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


def browser_missing() -> str | None:
    """Why the browser tests cannot run here (``None`` when they can)."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium; or set WARGRID_CHROMIUM)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    return None


def require_browser() -> None:
    """Skip (fail in CI, ``CI=true``) when Chromium or Playwright is missing."""
    why = browser_missing()
    if why is None:
        return
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"browser tests must run in CI: {why}")
    pytest.skip(why)


@pytest.fixture(scope="session")
def server_process():
    proc = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, f"the server did not print its address: {line!r} {proc.stderr.read() if proc.poll() is not None else ''}"
        proc.address = m.group(0)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def server(server_process):
    return server_process.address


@pytest.fixture(scope="session")
def playwright_instance():
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


def _context(pw, profile, **kw):
    return pw.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, headless=True, args=FLAGS,
        bypass_csp=True,  # lets the test evaluate its wait conditions; the page itself needs no eval
        accept_downloads=True, **kw,
    )


@pytest.fixture(scope="session")
def browser(playwright_instance, tmp_path_factory):
    ctx = _context(playwright_instance, tmp_path_factory.mktemp("chromium-profile"), viewport={"width": 1200, "height": 800})
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture(scope="session")
def phone(playwright_instance, tmp_path_factory):
    ctx = _context(playwright_instance, tmp_path_factory.mktemp("chromium-phone"), viewport={"width": 390, "height": 844},
                   device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        yield ctx
    finally:
        ctx.close()


def open_page(ctx, url):
    pg = ctx.new_page()
    # a kernel's first use compiles it (tens of seconds on a cold cache): wait for that, not a fixed time
    pg.set_default_timeout(240_000)
    errors: list[str] = []
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.errors = errors
    pg.refusals_expected = False
    pg.goto(url)
    pg.wait_for_selector("body[data-ready='1']", timeout=120_000)
    return pg


def check_console(pg):
    errors = [e for e in pg.errors if not (pg.refusals_expected and _REFUSED.match(e))]
    assert errors == [], f"console errors: {errors}"


def _checked_page(ctx, url):
    pg = open_page(ctx, url)
    yield pg
    check_console(pg)
    pg.close()


@pytest.fixture
def page(browser, server):
    yield from _checked_page(browser, server)


@pytest.fixture
def phone_page(phone, server):
    yield from _checked_page(phone, server)
