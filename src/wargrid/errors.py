"""The errors wargrid raises on purpose, under one root: ``WargridError``.

Each is also the built-in exception it always was, so ``except ValueError``
keeps working; ``except wargrid.WargridError`` catches everything the library
refuses on purpose (and nothing else, such as a bug's ``AttributeError``).

==========================  ============================  =====================================
error                       also a                        raised when
==========================  ============================  =====================================
``ArgumentError``           ``ValueError``                an argument has a refused value
``ArgumentTypeError``       ``TypeError``                 an argument has the wrong type
``CellError``               ``IndexError``                a cell or cell id is off the board
``UnknownError``            ``KeyError``                  a name or id the object does not know
``MapFileError``            ``ValueError``                a map file is malformed or hostile
``InfeasibleError``         ``ValueError``                a partition is proven impossible
``PartitionError``          ``RuntimeError``              a partition method gave up
``CallbackError``           ``RuntimeError``              event callbacks raised after an edit
``ResourceError``           ``MemoryError``               a request would need more memory than there is
``PrepareMemoryError``      ``ResourceError``             ``Map.prepare`` would need more memory than there is
``MissingExtraError``       ``ImportError``               an optional part's extra is not installed
``ConsistencyError``        ``AssertionError``            a consistency check found broken state (a bug)
==========================  ============================  =====================================

Two more live with the programs built on the library: ``wargrid.cli.CliError``
(the command line's refusals, exit status 2) and ``wargrid.serve.ApiError``
(the playground's refusals, answered as an HTTP status); both derive from
``WargridError`` too.

>>> import wargrid
>>> try:
...     wargrid.SquareGrid(3, 3).check_cell((5, 0))
... except wargrid.WargridError as e:
...     print(type(e).__name__, isinstance(e, IndexError))
CellError True
"""

from __future__ import annotations

import os

__all__ = [
    "WargridError", "ArgumentError", "ArgumentTypeError", "CellError", "UnknownError", "ResourceError",
    "PrepareMemoryError", "MapFileError", "MapFileWarning", "InfeasibleError", "PartitionError", "CallbackError",
    "MissingExtraError", "ConsistencyError",
]


class WargridError(Exception):
    """The root of every error wargrid raises on purpose."""


class ArgumentError(WargridError, ValueError):
    """An argument has a value wargrid refuses; the message names the argument, the value and what is allowed."""


class ArgumentTypeError(WargridError, TypeError):
    """An argument has the wrong type; the message names the argument and the type expected."""


class CellError(WargridError, IndexError):
    """A cell or cell id is off the board (or masked out of a shaped board)."""


class ResourceError(WargridError, MemoryError):
    """A request that would need more memory than the machine has, refused before the work
    starts; the message names the argument, the value and the limit."""


class UnknownError(WargridError, KeyError):
    """A name or id that the object asked does not know (a unit, a team)."""

    def __str__(self) -> str:  # KeyError quotes its message; this one reads as a sentence
        return str(self.args[0]) if self.args else ""


class PrepareMemoryError(ResourceError):
    """``Map.prepare`` would need more memory than the process may take (or than its cap allows); raised before the
    build allocates anything."""


class MapFileError(WargridError, ValueError):
    """A map file is truncated, malformed, hostile or inconsistent.

    ``path`` is the file, ``line`` the line of the problem where known (else ``None``).

    >>> str(MapFileError("width must be >= 1, got 0", "maps/a.tmx", line=3))
    'maps/a.tmx:3: width must be >= 1, got 0'
    """

    def __init__(self, message: str, path: str | os.PathLike[str] | None, line: int | None = None) -> None:
        self.path = None if path is None else os.fspath(path)
        self.line = line
        self.reason = message
        where = self.path if self.path is not None else "<map file>"
        if line is not None:
            where = f"{where}:{line}"
        super().__init__(f"{where}: {message}")


class MapFileWarning(UserWarning):
    """A map file was read, but something in it was guessed or added (say, terrains the table lacked)."""


class InfeasibleError(WargridError, ValueError):
    """A partition request that provably has no solution; the message says why."""


class PartitionError(WargridError, RuntimeError):
    """The search found no partition within its budget (the request may still be feasible)."""


class CallbackError(WargridError, RuntimeError):
    """Raised after an edit when one or more event callbacks raised.

    The edit itself is complete and the map is consistent; ``errors`` holds
    the exceptions the callbacks raised.
    """

    def __init__(self, event: str, errors: list[BaseException]) -> None:
        super().__init__(f"{len(errors)} callback(s) for {event!r} raised; first: {errors[0]!r}")
        self.errors = errors


class MissingExtraError(WargridError, ImportError):
    """An optional part of wargrid was asked for, but its extra is not installed; the message names it."""


class ConsistencyError(WargridError, AssertionError):
    """A consistency check (such as ``Simulation.check()``) found state that breaks an invariant.

    It is a bug in wargrid, or state changed behind its back: please report it with the message.
    """
