"""The ``wargrid`` command line: one verb a capability.

The verbs are the modules named in ``VERBS``, in the order ``--help`` lists
them. Each defines

- ``add_parser(subparsers)`` -- adds its sub-command (with ``help=`` and
  its options) to the ``argparse`` sub-parsers and returns the parser, and
- ``run(args) -> int`` -- does the work and returns the exit code.

A new capability plugs in by adding ``cli/<verb>.py`` and its name here.

Exit codes: 0 ok, 1 failure (bad input file, unreachable goal), 2 usage
(bad options). User mistakes print one line on stderr,
never a traceback. ``WARGRID_TRACEBACK=1`` shows the traceback anyway.

>>> main(["--version"])  # doctest: +ELLIPSIS
wargrid ...
0
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from types import ModuleType
from typing import Any, NoReturn, Sequence

from ..errors import MissingExtraError, ResourceError, WargridError

__all__ = ["main", "CliError", "verbs", "VERBS"]

VERBS = ("demo", "generate", "render", "path", "range", "route", "table", "zones", "area", "fov", "partition", "starts",
         "survey", "convert", "bench", "warm_up", "serve")
"""The verb modules of this package, in the order ``--help`` lists them (the verb is the name with ``-`` for ``_``)."""


class CliError(WargridError):
    """A user-facing failure: its message is printed as one line, exit code ``code``."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


_NEGATIVE = re.compile(r"^-\d+$|^-\d*\.\d+$|^-\d+,-?\d+$")
"""What argparse takes for a value, not an option, though it starts with '-': numbers and cells like ``-1,0``."""


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = _NEGATIVE  # a cell like -1,0 is a value, not an option

    def error(self, message: str) -> NoReturn:  # one line, exit 2
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def verbs() -> list[str]:
    """Names of the verbs, in the order ``--help`` lists them.

    >>> verbs()[:3], verbs()[-2]
    (['demo', 'generate', 'render'], 'warm-up')
    """
    return [name.replace("_", "-") for name in VERBS]


def _parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    from .. import __version__

    p = _Parser(prog="wargrid", description="wargrid: hex, square and staggered boards for strategy games.")
    p.add_argument("--version", action="version", version=f"wargrid {__version__}")
    sub = p.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    modules: dict[str, ModuleType] = {}
    for name in VERBS:
        mod = importlib.import_module(f"{__name__}.{name}")
        mod.add_parser(sub)
        modules[name.replace("_", "-")] = mod
    return p, modules


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    parser, modules = _parser()
    try:
        args = parser.parse_args(None if argv is None else list(argv))
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    if not args.verb:
        parser.print_help()
        return 2
    verb = args.verb
    code = 1
    try:
        code = int(modules[verb].run(args) or 0)
        return code
    except KeyboardInterrupt:
        print(f"wargrid {verb}: interrupted", file=sys.stderr)
        return 130
    except CliError as exc:
        _fail(verb, exc)
        return exc.code
    except MissingExtraError as exc:  # an optional part is not installed: say what to install, exit 2
        _fail(verb, exc)
        return 2
    except (ValueError, TypeError, IndexError, KeyError, OSError, NotImplementedError) as exc:
        _fail(verb, exc)
        return 1
    except ResourceError as exc:  # refused before the work: its message names the argument and the limit
        _fail(verb, exc)
        return 1
    except MemoryError:
        _fail(verb, MemoryError("out of memory: ask for a smaller board, picture or batch"))
        return 1
    finally:
        from ._folders import MADE_FOLDERS, remove_made_folders

        if code:  # a failed verb leaves no folder it made for its outputs (those it wrote nothing into)
            remove_made_folders()
        MADE_FOLDERS.clear()


def _fail(verb: str, exc: BaseException) -> None:
    if os.environ.get("WARGRID_TRACEBACK"):
        import traceback

        traceback.print_exception(exc)
    msg = str(exc) if not isinstance(exc, KeyError) else str(exc.args[0] if exc.args else exc)
    if isinstance(exc, OSError) and exc.filename is not None:
        msg = f"{exc.strerror or exc}: {exc.filename}"
    print(f"wargrid {verb}: error: {' '.join(msg.split())}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
