"""The playground's web application (Starlette): the page, its static files and the JSON API.

Safety: request bodies are capped (``MAX_BODY`` bytes) before they are read in
full, must arrive within ``body_timeout`` seconds (408 otherwise) and may nest
JSON at most ``MAX_DEPTH`` deep; only the files shipped in the package's
``static`` folder are served, looked up by exact name in a table built at
start-up (no path is ever joined from a request); requests must name a
loopback host unless the server was told to listen elsewhere (a guard
against DNS rebinding).

Requests that change state (every ``POST``) must say ``Content-Type:
application/json`` (415 otherwise) -- a type no other site can send without
this server's consent -- and, when they carry an ``Origin``, come from the
page's own origin (403 otherwise). The page gets a client id in a
``SameSite=Strict`` cookie; boards are kept per client (see ``BoardStore``),
so requests from elsewhere cannot evict a page's boards. Heavy requests (a
partition) run in a worker process that is stopped after ``work_timeout``
seconds (503) or when the server stops (see ``wargrid.serve.worker``).

>>> from starlette.testclient import TestClient
>>> c = TestClient(create_app(), base_url="http://127.0.0.1")
>>> c.get("/").status_code, c.get("/static/../api.py").status_code
(200, 404)
>>> c.post("/api/board", json={"kind": "hex-flat", "width": 100000, "height": 100000}).json()["error"]
'width must be in 1..256, got 100000'
>>> c.post("/api/board", content=b"{}", headers={"Content-Type": "text/plain"}).status_code
415
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from importlib import resources
from typing import Any, Sequence

import numpy as np

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import ArgumentError, WargridError
from .api import HANDLERS, ApiError, BoardStore, warm_partition
from .worker import WORK_TIMEOUT, Worker

__all__ = ["create_app", "MAX_BODY", "MAX_DEPTH", "BODY_TIMEOUT", "CLIENT_COOKIE", "LOOPBACK_HOSTS", "json_depth"]

MAX_BODY = 2 * 1024 * 1024
"""Largest request body, in bytes."""

MAX_DEPTH = 32
"""Deepest nesting of JSON arrays and objects in a request body."""

BODY_TIMEOUT = 15.0
"""Seconds a client has to send a whole request body."""

TAB_HEADER = "x-wargrid-tab"
"""The header holding the page's tab id: each tab of one browser keeps its own boards."""

CLIENT_COOKIE = "wargrid_client"
"""The cookie holding the page's client id (which boards are its own)."""

_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
"""Host names a loopback-only server answers to."""

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}
_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
}


def _static_table() -> dict[str, tuple[bytes, str]]:
    """Every shipped static file by exact name, read once (names with a known type only)."""
    table: dict[str, tuple[bytes, str]] = {}
    folder = resources.files("wargrid.serve") / "static"
    for entry in folder.iterdir():
        name = entry.name
        ext = name[name.rfind("."):] if "." in name else ""
        if entry.is_file() and ext in _TYPES and not name.startswith("."):
            table[name] = (entry.read_bytes(), _TYPES[ext])
    return table


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status, headers=_HEADERS)


def json_depth(body: bytes) -> int:
    r"""How deep arrays and objects nest in the JSON text ``body`` (brackets inside strings do not count).

    One linear pass (numpy), whatever the body holds: a quote ends a string
    unless an odd run of backslashes stands before it.

    >>> json_depth(b'{"a": [1, [2]], "b": "[[["}'), json_depth(b"[" * 5 + b"]" * 5), json_depth(b"7")
    (3, 5, 0)
    >>> json_depth(rb'["\\", ["\"]"]]')
    2
    """
    text = np.frombuffer(body, dtype=np.uint8)
    if text.size == 0:
        return 0
    slash = text == ord("\\")
    index = np.arange(text.size, dtype=np.int64)
    last_plain = np.maximum.accumulate(np.where(slash, -1, index))  # last index <= i that is not a backslash
    run_before = np.empty(text.size, dtype=np.int64)  # backslashes just before i
    run_before[0] = 0
    run_before[1:] = index[:-1] - last_plain[:-1]
    quote = (text == ord('"')) & (run_before % 2 == 0)
    outside = np.cumsum(quote) % 2 == 0  # an opening quote itself counts as inside, its closing one as outside
    step = ((text == ord("[")) | (text == ord("{"))).astype(np.int64) - ((text == ord("]")) | (text == ord("}")))
    return int(np.cumsum(np.where(outside, step, 0)).max(initial=0))


def _parse_json(body: bytes) -> Any:
    """``body`` checked for depth and parsed (CPU-bound: run in a worker thread, off the event loop)."""
    depth = json_depth(body)
    if depth > MAX_DEPTH:
        raise ApiError(400, f"the request body nests arrays and objects {depth} deep; at most {MAX_DEPTH} are allowed")
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ApiError(400, f"the request body is not valid JSON: {exc}") from None


def _check_origin(request: Request) -> None:
    """A state-changing request must be JSON and, when the browser names its origin, come from this page."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise ApiError(415, f"send the request body as Content-Type: application/json, got {media or 'no type'!r}")
    origin = request.headers.get("origin")
    if origin is not None:
        own = f"{request.url.scheme}://{request.headers.get('host', '')}".lower()
        if origin.lower() != own:
            raise ApiError(403, f"requests from other sites are refused: Origin {origin[:80]!r} is not this page ({own})")


async def _body(request: Request) -> bytes:
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise ApiError(400, f"Content-Length must be a number of bytes, got {length!r}")
        if int(length) > MAX_BODY:
            raise ApiError(413, f"the request body is {int(length)} bytes; at most {MAX_BODY} are allowed")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ApiError(413, f"the request body is over {MAX_BODY} bytes; at most {MAX_BODY} are allowed")
        chunks.append(chunk)
    return b"".join(chunks)


async def _read_json(request: Request, timeout: float) -> Any:
    try:
        body = await asyncio.wait_for(_body(request), timeout)
    except asyncio.TimeoutError:
        raise ApiError(408, f"the request body did not arrive within {timeout:g} s") from None
    if not body:
        raise ApiError(400, "the request body must be a JSON object, got an empty body")
    return await run_in_threadpool(_parse_json, body)


def _client_of(request: Any) -> str:
    """Whose boards a request uses: the cookie's client id, and the tab's id within it."""
    client = request.cookies.get(CLIENT_COOKIE, "")
    if not _ID.fullmatch(client):
        return ""
    tab = request.headers.get(TAB_HEADER, "")
    return f"{client}.{tab}" if _ID.fullmatch(tab) else client


def create_app(
    *,
    allowed_hosts: Sequence[str] | None = LOOPBACK_HOSTS,
    capacity: int = 16,
    per_client: int | None = None,
    body_timeout: float = BODY_TIMEOUT,
    work_timeout: float = WORK_TIMEOUT,
) -> Starlette:
    """The playground application; ``allowed_hosts=None`` answers any Host header (for a non-loopback listen).

    ``capacity`` boards are kept in all, ``per_client`` (default a quarter of
    them) for each page; ``body_timeout`` and ``work_timeout`` are the seconds
    allowed to send a request body and to run a heavy request. The worker
    process is ``app.state.worker``: call its ``stop()`` when the server stops.

    >>> app = create_app(); app.state.store.capacity, app.state.store.per_client
    (16, 4)
    """
    if isinstance(body_timeout, bool) or not isinstance(body_timeout, (int, float)) or not body_timeout > 0:
        raise ArgumentError(f"body_timeout must be a number of seconds > 0, got {body_timeout!r}")
    worker = Worker(timeout=work_timeout, warm=warm_partition)
    store = BoardStore(capacity, per_client=max(1, capacity // 4) if per_client is None else per_client,
                       run_heavy=worker.call)
    static = _static_table()
    if "index.html" not in static:  # pragma: no cover - a broken install
        raise WargridError("the playground's static/index.html is missing from the installed package: reinstall wargrid")

    async def index(request: Request) -> Response:
        body, media = static["index.html"]
        response = Response(body, media_type=media, headers=_HEADERS)
        if not _ID.fullmatch(request.cookies.get(CLIENT_COOKIE, "")):
            response.set_cookie(CLIENT_COOKIE, secrets.token_urlsafe(16), httponly=True, samesite="strict")
        return response

    async def guide(request: Request) -> Response:
        body, media = static["guide.html"]
        return Response(body, media_type=media, headers=_HEADERS)

    async def static_file(request: Request) -> Response:
        item = static.get(request.path_params["name"])
        if item is None:
            return _error(404, f"no static file {request.path_params['name']!r}")
        return Response(item[0], media_type=item[1], headers=_HEADERS)

    async def api(request: Request) -> Response:
        name = request.path_params["name"]
        handler = HANDLERS.get(name)
        if handler is None:
            return _error(404, f"no API endpoint {name!r}; endpoints: {', '.join(sorted(HANDLERS))}")
        try:
            if name == "meta":
                if request.method != "GET":
                    raise ApiError(405, "use GET for /api/meta")
                payload: Any = {}
            else:
                if request.method != "POST":
                    raise ApiError(405, f"use POST with a JSON body for /api/{name}")
                _check_origin(request)
                payload = await _read_json(request, body_timeout)
            boards = store.client(_client_of(request))
            result = await run_in_threadpool(handler, boards, payload)
        except ApiError as exc:
            response = _error(exc.status, exc.message)
            if exc.status == 408:  # the rest of the body may never come: end the connection
                response.headers["Connection"] = "close"
            return response
        return JSONResponse(result, headers=_HEADERS)

    async def not_found(request: Request, exc: Exception) -> Response:
        return _error(404, f"nothing at {request.url.path!r}")

    async def server_error(request: Request, exc: Exception) -> Response:
        return _error(500, f"internal error: {type(exc).__name__}: {exc}")

    middleware = []
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    app = Starlette(
        routes=[
            Route("/", index, methods=["GET", "HEAD"]),
            Route("/favicon.ico", lambda request: Response(status_code=204), methods=["GET", "HEAD"]),
            Route("/static/{name:str}", static_file, methods=["GET", "HEAD"]),
            Route("/guide", guide, methods=["GET", "HEAD"]),
            Route("/api/{name:path}", api, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        ],
        middleware=middleware,
        exception_handlers={404: not_found, 500: server_error},
    )
    app.state.store = store
    app.state.worker = worker
    return app
