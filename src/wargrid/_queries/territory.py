"""``Map`` query methods for territory: thin wrappers over ``wargrid.territory``."""

from __future__ import annotations


class TerritoryQueries:
    """Mixed into ``Map``; ``self`` is the map."""
