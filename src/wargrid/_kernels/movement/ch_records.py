"""The named records the prepared-query kernels take (``ch``, ``ch_core``, ``ch_labels``); numba-free.

numba reads a ``NamedTuple`` of arrays as a tuple whose fields have names,
so a kernel reads ``upg.first`` where it once read ``upg[0]``: the same
code, and a reader (or a test) never counts positions. The wrapper
(``wargrid.movement.prepared``) builds them; the kernels only read them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Upward", "QueryScratch", "CoreScratch", "Landmarks"]


class Upward(NamedTuple):
    """A prepared hierarchy's arrays (padded ids index the node arrays, arc positions the arc arrays).

    Below the core every node keeps its upward arcs ``first[v] ..
    first[v] + count[v]``; the core keeps a compact graph of its own in
    core numbering (``core_index`` of a padded id, ``core_ids`` back),
    landmark costs, and hub labels when it is small (empty arrays
    otherwise).
    """

    first: np.ndarray
    """Node: position of its first upward arc."""
    count: np.ndarray
    """Node: how many upward arcs it has."""
    head: np.ndarray
    """Arc: the higher node it leads to."""
    w_out: np.ndarray
    """Arc: weight from the node up to ``head``."""
    w_in: np.ndarray
    """Arc: weight from ``head`` down to the node."""
    mid_out: np.ndarray
    """Arc: the middle node of the shortcut walked out (-1: a board step)."""
    mid_in: np.ndarray
    """Arc: the middle node of the shortcut walked in (-1: a board step)."""
    in_core: np.ndarray
    """Node: 1 in the core (uncontracted)."""
    core_index: np.ndarray
    """Node: its core number (-1: below the core)."""
    landmarks: np.ndarray
    """``[r, l]``: cost from landmark ``l`` to core node ``r``, in units of ``landmark_scale[0]``."""
    core_ids: np.ndarray
    """Core number: its padded id."""
    core_first: np.ndarray
    """Core number: position of its first core arc (CSR, one more entry than nodes)."""
    core_head: np.ndarray
    """Core arc: its head (core number)."""
    core_w_out: np.ndarray
    """Core arc: weight out to the head."""
    core_w_in: np.ndarray
    """Core arc: weight in from the head."""
    landmark_scale: np.ndarray
    """``[unit, missing]``: the landmark costs' unit and the value standing for ``inf``."""
    out_first: np.ndarray
    """Core number: first entry of its out-label (CSR; empty: no labels)."""
    out_hub: np.ndarray
    """Out-label entry: the hub's rank."""
    out_dist: np.ndarray
    """Out-label entry: cost to the hub, in units of ``label_scale[0]``."""
    out_slot: np.ndarray
    """Out-label entry: the parent as a slot among the node's core arcs (``label_scale[1]``: the hub itself)."""
    in_first: np.ndarray
    """Core number: first entry of its in-label."""
    in_hub: np.ndarray
    """In-label entry: the hub's rank."""
    in_dist: np.ndarray
    """In-label entry: cost from the hub."""
    in_slot: np.ndarray
    """In-label entry: the parent slot."""
    label_scale: np.ndarray
    """``[unit, self_slot]`` of the labels."""
    half_out: np.ndarray
    """Arc ``(e, 2)``: positions of a shortcut's halves walked out, in its middle's list."""
    half_in: np.ndarray
    """Arc ``(e, 2)``: positions of a shortcut's halves walked in."""


class QueryScratch(NamedTuple):
    """One thread's per-node scratch of the bidirectional search (forward ``_f``, backward ``_b``; generation stamps)."""

    dist_f: np.ndarray
    dist_b: np.ndarray
    stamp_f: np.ndarray
    stamp_b: np.ndarray
    parent_f: np.ndarray
    parent_b: np.ndarray
    pos_f: np.ndarray
    pos_b: np.ndarray
    key_f: np.ndarray
    id_f: np.ndarray
    key_b: np.ndarray
    id_b: np.ndarray


class CoreScratch(NamedTuple):
    """Core-sized scratch of a query's core phase (``ch_core.core_astar``; ``ch_labels.label_query`` the first three)."""

    to_hub: np.ndarray
    """Labels: the forward side's cost to every hub."""
    stamp: np.ndarray
    """Labels: generation stamps of ``to_hub``."""
    parent: np.ndarray
    """A*: parent core number (labels: the seed that reached a hub)."""
    pos: np.ndarray
    """A*: heap slot (-1 out of the heap)."""
    key: np.ndarray
    """A*: heap keys."""
    id: np.ndarray
    """A*: heap ids."""
    potential: np.ndarray
    """A*: a reached node's lower bound to the goal."""
    to_goal: np.ndarray
    """A*: a backward seed's cost to the goal."""
    goal_stamp: np.ndarray
    """A*: generation stamps of ``to_goal``."""
    cost: np.ndarray
    """A*: cost from the start (``inf`` between queries)."""
    seen: np.ndarray
    """A*: the nodes reached (reset at the end)."""


class Landmarks(NamedTuple):
    """Landmark costs as the bounds read them: ``costs[r, l] * unit`` from landmark ``l`` to core node ``r``
    (``missing``: ``inf``)."""

    costs: np.ndarray
    unit: float
    missing: float
