"""``Map`` query methods for tactics: thin wrappers over ``wargrid.tactics``."""

from __future__ import annotations


class TacticsQueries:
    """Mixed into ``Map``; ``self`` is the map."""
