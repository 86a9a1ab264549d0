"""``wargrid serve``: the local web playground (a page to click a board and see every capability).

>>> import argparse
>>> sub = argparse.ArgumentParser(prog="wargrid").add_subparsers()
>>> add_parser(sub).parse_args(["--port", "0"]).host
'127.0.0.1'
"""

from __future__ import annotations

import argparse

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


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Add the ``serve`` sub-command."""
    p = verb_parser(
        subparsers,
        "serve",
        examples=["wargrid serve", "wargrid serve --port 0"],
        help="start the local web playground",
        description="Start a local web page to make boards and click to see paths, ranges, sight, fog and territories. "
        "Listens on 127.0.0.1 unless --host says otherwise.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000; 0 picks a free port)")
    return p


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    try:
        from ..serve import serve
    except ImportError as exc:  # pragma: no cover - starlette/uvicorn are dependencies
        raise CliError(f"the playground needs starlette and uvicorn: {exc}") from None
    try:
        serve(host=args.host, port=args.port)
    except OSError as exc:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    return 0
