"""``Map`` query methods for connectivity zones: thin wrappers over ``wargrid.movement.zones``."""

from __future__ import annotations


class ZoneQueries:
    """Mixed into ``Map``; ``self`` is the map."""
