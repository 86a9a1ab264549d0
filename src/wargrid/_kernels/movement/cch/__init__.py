"""Customizable contraction hierarchy (CCH) kernels: ``order`` (the shape-only structure), ``customize`` (a
class's metric), ``update`` (its edits) and ``query`` (searches, unpacking, tables)."""

from .customize import customize, input_weights, middles, perfect  # noqa: F401
from .order import board_graph, chordal, down_lists, find_arc, nested_dissection, step_arcs  # noqa: F401
from .query import depths, every_weight, path, query, query_arcs, table, unpack  # noqa: F401
from .update import count_legs, down_copy, step_changes, update  # noqa: F401
from ..steps import walk_cost  # noqa: F401
