"""``Map`` query methods for sight: thin wrappers over ``wargrid.sight``."""

from __future__ import annotations


class SightQueries:
    """Mixed into ``Map``; ``self`` is the map."""
