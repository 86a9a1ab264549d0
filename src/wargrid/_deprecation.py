"""Deprecated names: each keeps working for one release with a ``DeprecationWarning`` naming its replacement.

Every rename is listed in CHANGELOG.md; the aliases here are removed in the
release after the one that deprecates them.

>>> import warnings
>>> def new(x: int) -> int:
...     return x + 1
>>> old = deprecated_function(new, "old", "new")
>>> with warnings.catch_warnings(record=True) as w:
...     warnings.simplefilter("always")
...     old(1), str(w[0].message)
(2, 'old is deprecated and will be removed in the next release: use new')
"""

from __future__ import annotations

import functools
import warnings
from typing import Any, Callable, TypeVar

__all__ = ["deprecated_function", "warn_renamed", "module_aliases"]

F = TypeVar("F", bound=Callable[..., Any])


def warn_renamed(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn that ``old`` is deprecated in favour of ``new``."""
    warnings.warn(f"{old} is deprecated and will be removed in the next release: use {new}", DeprecationWarning,
                  stacklevel=stacklevel)


def deprecated_function(fn: F, old: str, new: str) -> F:
    """``fn`` under its old name ``old``: the same call, with a ``DeprecationWarning`` that names ``new``."""

    @functools.wraps(fn)
    def alias(*args: Any, **kwargs: Any) -> Any:
        warn_renamed(old, new)
        return fn(*args, **kwargs)

    alias.__doc__ = f"Deprecated: use ``{new}``."
    alias.__name__ = old.rpartition(".")[2]
    return alias  # type: ignore[return-value]


def module_aliases(module: str, aliases: dict[str, tuple[str, Any]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that answers each old name of ``aliases`` (``old -> (new name, object)``)
    with the object and a ``DeprecationWarning``."""

    def __getattr__(name: str) -> Any:
        if name in aliases:
            new, obj = aliases[name]
            warn_renamed(f"{module}.{name}", new)
            return obj
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
