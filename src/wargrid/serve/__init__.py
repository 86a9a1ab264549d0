"""``wargrid serve``: a local web playground to click a board and see every capability.

``create_app()`` builds the Starlette application; ``serve()`` runs it with
uvicorn on a loopback address unless told otherwise (``allow_remote=True``).
See the "Security and limits" page of the docs for what it accepts from whom. Neither Starlette nor
uvicorn is imported until one of them is used.

>>> bind_socket("127.0.0.1", 0).close()
"""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
from typing import Any, Sequence, TextIO

from .._extras import require
from ..errors import ArgumentError, ArgumentTypeError

__all__ = [
    "create_app", "serve", "server_for", "bind_socket", "is_loopback",
    "HEADER_TIMEOUT", "MAX_CLIENT_CONNECTIONS", "MAX_CONNECTIONS",
]


def create_app(**kwargs: Any) -> Any:
    """The playground's Starlette application (see ``wargrid.serve.app.create_app``).

    >>> type(create_app()).__name__
    'Starlette'
    """
    require("starlette", extra="serve", feature="The playground (wargrid serve)")
    from .app import create_app as _create

    return _create(**kwargs)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only: every address it resolves to is a loopback address.

    Any spelling counts as the address it stands for (``127.1``, ``LOCALHOST``,
    ``0x7f.1``); a name that does not resolve is not loopback.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("127.1"), is_loopback("0.0.0.0")
    (True, True, True, False)
    """
    if not isinstance(host, str):
        raise ArgumentTypeError(f"host must be a string, got {type(host).__name__} {host!r}")
    name = host.strip().strip("[]")
    if not name:
        return False
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(name, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return False
    return bool(infos) and all(_address_is_loopback(str(sockaddr[0])) for _, _, _, _, sockaddr in infos)


def _address_is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:  # pragma: no cover - getaddrinfo gives numeric addresses
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


HEADER_TIMEOUT = 10.0
"""Seconds a connection has to send a complete request head (request line and headers)."""

MAX_CLIENT_CONNECTIONS = 16
"""Open connections one client address may hold at once; more are closed as they open."""

MAX_CONNECTIONS = 64
"""Connections and requests the server holds at once; past that it answers 503."""

_WILDCARDS = ("", "0.0.0.0", "::")


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    out: TextIO | None = None,
    allow_remote: bool = False,
    allowed_hosts: Sequence[str] = (),
    header_timeout: float = HEADER_TIMEOUT,
    max_client_connections: int = MAX_CLIENT_CONNECTIONS,
) -> None:
    """Run the playground until interrupted; prints its address first.

    Listens on ``host`` (loopback by default). ``host`` is resolved before it
    is judged: any spelling of a loopback address (``127.1``, ``LOCALHOST``)
    is loopback. A host reachable from other machines is refused unless
    ``allow_remote=True``; even then requests must name the server by one of
    the loopback names, ``host`` itself or a name in ``allowed_hosts`` in
    their ``Host`` header (a guard against DNS rebinding). ``header_timeout``
    and ``max_client_connections`` bound what a slow or greedy client holds
    (see ``server_for``). The first Ctrl+C or SIGTERM stops the worker
    process (a heavy request still running is answered 503) and then the
    server; requests still open after a few seconds are cut.

    Raises
    ------
    ArgumentError
        A non-loopback ``host`` without ``allow_remote=True``, or a bad option.
    """
    out = sys.stdout if out is None else out
    for module in ("starlette", "uvicorn"):  # before an address is printed: a missing extra is the only message
        require(module, extra="serve", feature="The playground (wargrid serve)")
    if not isinstance(allow_remote, bool):
        raise ArgumentTypeError(f"allow_remote must be True or False, got {allow_remote!r}")
    if isinstance(allowed_hosts, str) or not all(isinstance(h, str) and h for h in allowed_hosts):
        raise ArgumentTypeError(f"allowed_hosts must be a list of host names, got {allowed_hosts!r}")
    _check_limits(header_timeout, max_client_connections)
    if not is_loopback(host) and not allow_remote:
        raise ArgumentError(f"host {host!r} is reachable from other machines; the playground runs user requests "
                            "unauthenticated: pass allow_remote=True (wargrid serve --allow-remote) to listen there")
    sock = bind_socket(host, port)
    bound, bound_port = sock.getsockname()[:2]
    loop_only = _address_is_loopback(bound)
    if not loop_only and not allow_remote:  # pragma: no cover - a name that resolved differently on the second look
        sock.close()
        raise ArgumentError(f"host {host!r} bound {bound}, which is reachable from other machines: pass allow_remote=True")
    name = host.strip().strip("[]")
    shown = f"[{name}]" if ":" in name else name
    url = f"http://{shown}:{bound_port}/"
    hosts = _hosts() + tuple(h.lower() for h in allowed_hosts)
    if name.lower() not in _WILDCARDS:
        hosts += (name.lower(),)
    if not loop_only:
        print(f"warning: listening on {host}, reachable from other machines; answering requests for "
              f"{', '.join(dict.fromkeys(hosts))} only (add names with --allowed-host)", file=out)
    print(f"wargrid playground on {url}  (Ctrl+C to stop)", file=out, flush=True)
    app = create_app(allowed_hosts=tuple(dict.fromkeys(hosts)))
    print("warming the kernels (wargrid.warm_up: movement, sight) in the background; "
          "a query that needs one meanwhile waits for it", file=out, flush=True)
    threading.Thread(target=_warm, args=(out,), name="wargrid-warm-up", daemon=True).start()
    app.state.worker.start()
    server = server_for(app, header_timeout=header_timeout, max_client_connections=max_client_connections)
    try:
        server.run(sockets=[sock])
    finally:
        app.state.worker.stop()
        sock.close()


def _check_limits(header_timeout: float, max_client_connections: int) -> None:
    if isinstance(header_timeout, bool) or not isinstance(header_timeout, (int, float)) or not 0 < header_timeout < 1e6:
        raise ArgumentError(f"header_timeout must be a number of seconds in (0, 1e6), got {header_timeout!r}")
    if (isinstance(max_client_connections, bool) or not isinstance(max_client_connections, int)
            or not 1 <= max_client_connections <= MAX_CONNECTIONS):
        raise ArgumentError(f"max_client_connections must be an integer in 1..{MAX_CONNECTIONS}, "
                            f"got {max_client_connections!r}")


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


def server_for(
    app: Any,
    *,
    header_timeout: float = HEADER_TIMEOUT,
    max_client_connections: int = MAX_CLIENT_CONNECTIONS,
) -> Any:
    """The uvicorn server ``serve`` runs ``app`` (a ``create_app`` application) with.

    At most ``MAX_CONNECTIONS`` connections and requests at once (503 past
    that), at most ``max_client_connections`` of them from one address (more
    are closed as they open); a connection that has not sent a whole request
    head within ``header_timeout`` seconds is closed, and an idle kept-alive
    one after 5 s. Its first Ctrl+C or SIGTERM stops the app's worker
    process, then the server.
    """
    require("uvicorn", extra="serve", feature="The playground (wargrid serve)")
    import uvicorn

    from ._protocol import protocol_class

    _check_limits(header_timeout, max_client_connections)
    worker = app.state.worker

    class _Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            worker.stop()  # a heavy job ends now, so the request waiting for it ends too
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, log_level="warning", lifespan="off", limit_concurrency=MAX_CONNECTIONS,
                            timeout_keep_alive=5, timeout_graceful_shutdown=3,
                            http=protocol_class(header_timeout=header_timeout, max_per_client=max_client_connections))
    return _Server(config)


def _hosts() -> tuple[str, ...]:
    from .app import LOOPBACK_HOSTS

    return LOOPBACK_HOSTS
