"""The playground's web application (Starlette): the page, its static files and the JSON API.

Safety: request bodies are capped (``MAX_BODY`` bytes) before they are read in
full; only the files shipped in the package's ``static`` folder are served,
looked up by exact name in a table built at start-up (no path is ever joined
from a request); requests must name a loopback host unless the server was
told to listen elsewhere (a guard against DNS rebinding).

>>> from starlette.testclient import TestClient
>>> c = TestClient(create_app(), base_url="http://127.0.0.1")
>>> c.get("/").status_code, c.get("/static/../api.py").status_code
(200, 404)
>>> c.post("/api/board", json={"kind": "hex-flat", "width": 100000, "height": 100000}).json()["error"]
'width must be in 1..256, got 100000'
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Sequence

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import WargridError
from .api import HANDLERS, ApiError, BoardStore

__all__ = ["create_app", "MAX_BODY", "LOOPBACK_HOSTS"]

MAX_BODY = 2 * 1024 * 1024
"""Largest request body, in bytes."""

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


async def _read_json(request: Request) -> Any:
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
    body = b"".join(chunks)
    if not body:
        raise ApiError(400, "the request body must be a JSON object, got an empty body")
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ApiError(400, f"the request body is not valid JSON: {exc}") from None


def create_app(*, allowed_hosts: Sequence[str] | None = LOOPBACK_HOSTS, capacity: int = 16) -> Starlette:
    """The playground application; ``allowed_hosts=None`` answers any Host header (for a non-loopback listen).

    >>> create_app().state.store.capacity
    16
    """
    store = BoardStore(capacity)
    static = _static_table()
    if "index.html" not in static:  # pragma: no cover - a broken install
        raise WargridError("the playground's static/index.html is missing from the installed package: reinstall wargrid")

    async def index(request: Request) -> Response:
        body, media = static["index.html"]
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
                payload = await _read_json(request)
            result = await run_in_threadpool(handler, store, payload)
        except ApiError as exc:
            return _error(exc.status, exc.message)
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
            Route("/api/{name:path}", api, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        ],
        middleware=middleware,
        exception_handlers={404: not_found, 500: server_error},
    )
    app.state.store = store
    return app
