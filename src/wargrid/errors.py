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
==========================  ============================  =====================================

>>> import wargrid
>>> try:
...     wargrid.SquareGrid(3, 3).check_cell((5, 0))
... except wargrid.WargridError as e:
...     print(type(e).__name__, isinstance(e, IndexError))
CellError True
"""

from __future__ import annotations

__all__ = ["WargridError", "ArgumentError", "ArgumentTypeError", "CellError", "UnknownError", "ResourceError"]


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
