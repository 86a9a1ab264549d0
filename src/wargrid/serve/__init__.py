"""``wargrid serve``: a local web playground to click a board and see every capability.

``create_app()`` builds the Starlette application; ``serve()`` runs it with
uvicorn on a loopback address unless told otherwise. Neither Starlette nor
uvicorn is imported until one of them is used.

>>> bind_socket("127.0.0.1", 0).close()
"""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
from typing import Any, TextIO

from .._extras import require
from ..errors import ArgumentError, ArgumentTypeError

__all__ = ["create_app", "serve", "server_for", "bind_socket", "is_loopback"]


def create_app(**kwargs: Any) -> Any:
    """The playground's Starlette application (see ``wargrid.serve.app.create_app``).

    >>> type(create_app()).__name__
    'Starlette'
    """
    require("starlette", extra="serve", feature="The playground (wargrid serve)")
    from .app import create_app as _create

    return _create(**kwargs)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if not isinstance(host, str):
        raise ArgumentTypeError(f"host must be a string, got {type(host).__name__} {host!r}")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (``port`` 0: a free port), so the address is known before serving.

    >>> s = bind_socket("127.0.0.1", 0); s.getsockname()[1] > 0
    True
    >>> s.close()
    """
    if not isinstance(host, str) or not host:
        raise ArgumentTypeError(f"host must be a non-empty string, got {host!r}")
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ArgumentError(f"port must be an integer in 0..65535, got {port!r}")
    infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    family, _, _, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    out: TextIO | None = None,
) -> None:
    """Run the playground until interrupted; prints its address first.

    Listens on ``host`` (loopback by default); any other host answers every
    Host header and prints a warning. The first Ctrl+C or SIGTERM stops the
    worker process (a heavy request still running is answered 503) and then
    the server; requests still open after a few seconds are cut.
    """
    out = sys.stdout if out is None else out
    for module in ("starlette", "uvicorn"):  # before an address is printed: a missing extra is the only message
        require(module, extra="serve", feature="The playground (wargrid serve)")
    sock = bind_socket(host, port)
    bound_port = sock.getsockname()[1]
    loop_only = is_loopback(host)
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    url = f"http://{shown}:{bound_port}/"
    if not loop_only:
        print(f"warning: listening on {host}, reachable from other machines", file=out)
    print(f"wargrid playground on {url}  (Ctrl+C to stop)", file=out, flush=True)
    app = create_app(allowed_hosts=_hosts() + (host.strip("[]"),) if loop_only else None)
    print("warming the kernels (wargrid.warm_up: movement, sight) in the background; "
          "a query that needs one meanwhile waits for it", file=out, flush=True)
    threading.Thread(target=_warm, args=(out,), name="wargrid-warm-up", daemon=True).start()
    app.state.worker.start()
    server = server_for(app)
    try:
        server.run(sockets=[sock])
    finally:
        app.state.worker.stop()
        sock.close()


def _warm(out: TextIO) -> None:
    """Warm the kernels the server's own process runs (the worker warms the partition's), then say so."""
    import time

    from ..warmup import warm_up

    t0 = time.perf_counter()
    try:
        warm_up("movement", "sight")
    except Exception as exc:  # noqa: BLE001 - the failure shows again, clearly, on the real request
        print(f"warm-up failed ({type(exc).__name__}: {exc}); queries compile on first use", file=out, flush=True)
        return
    print(f"kernels warm in {time.perf_counter() - t0:.1f} s", file=out, flush=True)


def server_for(app: Any) -> Any:
    """The uvicorn server ``serve`` runs ``app`` (a ``create_app`` application) with.

    At most 64 requests at once, idle connections closed after 5 s; its first
    Ctrl+C or SIGTERM stops the app's worker process, then the server.
    """
    require("uvicorn", extra="serve", feature="The playground (wargrid serve)")
    import uvicorn

    worker = app.state.worker

    class _Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            worker.stop()  # a heavy job ends now, so the request waiting for it ends too
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, log_level="warning", lifespan="off", limit_concurrency=64, timeout_keep_alive=5,
                            timeout_graceful_shutdown=3)
    return _Server(config)


def _hosts() -> tuple[str, ...]:
    from .app import LOOPBACK_HOSTS

    return LOOPBACK_HOSTS
