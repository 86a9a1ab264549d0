"""``wargrid serve``: the local web playground (a page to click a board and see every capability).

>>> import argparse
>>> sub = argparse.ArgumentParser(prog="wargrid").add_subparsers()
>>> add_parser(sub).parse_args(["--port", "0"]).host
'127.0.0.1'
"""

from __future__ import annotations

import argparse

from ..errors import ArgumentError
from . import CliError
from ._common import Subparsers, verb_parser


def _port(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is an integer in 0..65535, got {text!r}") from None
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"a port is an integer in 0..65535, got {v}")
    return v


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a time is a number of seconds, got {text!r}") from None
    if not 0 < v < 1e6:
        raise argparse.ArgumentTypeError(f"a time is a number of seconds in (0, 1e6), got {text}")
    return v


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Add the ``serve`` sub-command."""
    p = verb_parser(
        subparsers,
        "serve",
        examples=["wargrid serve", "wargrid serve --port 0",
                  "wargrid serve --host 0.0.0.0 --allow-remote --allowed-host board.lan"],
        help="start the local web playground",
        description="Start a local web page to make boards and click to see paths, ranges, sight, fog and territories. "
        "Listens on 127.0.0.1 unless --host says otherwise.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000; 0 picks a free port)")
    p.add_argument("--allow-remote", action="store_true",
                   help="allow a --host that other machines can reach (the playground has no login; see the docs' "
                   "'Security and limits')")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="also answer requests whose Host header names NAME (repeatable; loopback names and --host "
                   "are always answered)")
    p.add_argument("--header-timeout", type=_seconds, default=None, metavar="SECONDS",
                   help="close a connection that has not sent a whole request head in SECONDS (default 10)")
    return p


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    try:
        from ..serve import HEADER_TIMEOUT, serve
    except ImportError as exc:  # pragma: no cover - starlette/uvicorn are dependencies
        raise CliError(f"the playground needs starlette and uvicorn: {exc}") from None
    try:
        serve(host=args.host, port=args.port, allow_remote=args.allow_remote, allowed_hosts=args.allowed_host,
              header_timeout=HEADER_TIMEOUT if args.header_timeout is None else args.header_timeout)
    except ArgumentError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    return 0
