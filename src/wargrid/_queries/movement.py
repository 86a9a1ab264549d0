"""``Map`` query methods for movement: thin wrappers over ``wargrid.movement``."""

from __future__ import annotations


class MovementQueries:
    """Mixed into ``Map``; ``self`` is the map."""
