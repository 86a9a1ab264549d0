"""``Map`` query methods for rts: thin wrappers over ``wargrid.rts``."""

from __future__ import annotations


class RtsQueries:
    """Mixed into ``Map``; ``self`` is the map."""
