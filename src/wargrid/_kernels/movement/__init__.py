"""Movement kernels: A*, Dijkstra, multi-turn routes, Jump Point Search, zones.

Every search kernel takes the board as flat padded arrays (see ``Topology``):

- ``cell[p]``: cost of entering padded cell ``p`` (``inf``: impassable, padding);
- ``edge[p * ndir + d]``: extra cost of the step from ``p`` in direction ``d``
  (an empty array when the board has none);
- ``topo``: the topology as one tuple ``(off, dxa, dya, stepl, corner, ti)``:
  ``off`` the ``(2 * ndir,)`` padded offsets, parity-major, ``dxa``/``dya``
  their x and y parts, ``stepl`` the step lengths, ``corner`` the ``(2 * ndir,)``
  two orthogonal directions of a diagonal (or -1), ``ti`` the topology's
  integers ``[ndir, parity_mode, corner_rule, wrap, width, pw, heuristic,
  hex_kind]`` (built once a topology by ``movement.search.topo_bundle``);
- ``state``: the reusable search state as one tuple ``(g, parent, stamp, pos,
  hf, hg, hid)`` (``movement.search.SearchState.arrays``).

A step from ``p`` in direction ``d`` to ``q`` costs ``stepl[d] * cell[q] +
edge[p * ndir + d]``. The open list is a binary heap with decrease-key kept in
preallocated arrays (``hf``, ``hg``, ``hid``, with ``pos`` per cell). A*'s order
is: smaller ``f`` first, then larger ``g`` (the node deeper along its path),
then the smaller padded id. Dijkstra keys on the distance alone (``hg`` is not
used), so equal distances leave in heap order: still the same for the same
input, and less to move per level. Per-cell search state is reused between
queries through generation stamps: ``stamp[p] == 2 * gen`` means open in this
query, ``2 * gen + 1`` closed, anything else unseen.

Modules: ``steps`` (neighbour and corner rules, the step bits of the plain
kernels), ``heuristics``, ``heap`` (the shared open list), ``astar``,
``dijkstra``, ``turns`` (multi-turn routes), ``jps`` and ``jps_table`` (Jump
Point Search, online and with a jump table), ``zones``.

The plain case: no wrap, no edge costs, no stop cells. Most queries run on
such boards. For them the neighbour rule and the corner rule are folded once
per cost array into ``moves[p]`` (bit ``d`` set: the step from ``p`` in
direction ``d`` is allowed; ``steps.move_mask``), so the loops read one byte
per cell instead of three costs, and on uniform boards never read a cost at
all. Indices there are ``np.uintp``: signed indexing makes numba test every
index for a negative value. (Mixing ``uintp`` with ``int64`` gives ``float64``
in numba, hence the typed constants.)

Whole costs. On plain boards of unit steps (hex, square-4, staggered: no
diagonal, so no corner rule, and ``cell`` alone says which steps exist)
whose costs are whole in units of ``1 / L`` for a power of two ``L``, every
distance is an exact multiple of ``1 / L``: ``astar.astar_keyed`` packs A*'s
order into one int64 key a heap slot (same pops as ``astar``), and
``dijkstra.dijkstra_buckets`` keeps the open cells in a ring of buckets
(Dial), faster than the float heaps (``docs/design/kernels.md``). On
plain square-8 boards (steps of 1 and ``sqrt(2)``) with such costs every
distance is ``(a + b sqrt(2)) / L`` for whole ``a`` and ``b``, and
``astar.astar_octile`` keeps ``a`` and ``b`` (exact sums) and orders its
open list by one int64 key, the floor of ``f`` and of the heuristic scaled
so that different such numbers never share a floor: the order of the reals
(smaller ``f``, then larger ``g``; equal keys leave in heap order), not the
float kernels' order of rounded sums, so on exact ties it may take another
path of the same cost.

Shared helpers and hot loops, all ``_jit.helper``s (no reference counting,
inlined by LLVM). ``heap`` is every search's open list (``heap_up``/``heap_pop``
for A*'s order, ``key_up``/``key_pop`` for one key); ``steps.step_to``/``steps.corner_ok``
and ``steps.step_xy``/``steps.corner_pass`` are the neighbour step and the
corner rule. Measured at the speed of the written-out loops
(``docs/design/kernels.md``), except the pop of the Dijkstra kernels and of
``astar_octile``, which LLVM does not inline there and stays written out. The search kernels take
their arguments as the bundles above (at most 10 arguments a call); the
tuples are unpacked once at the top of a kernel, outside the loops.
"""
