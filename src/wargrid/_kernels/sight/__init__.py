"""Sight kernels: ``fov`` (fields of view), ``los`` (lines of sight), ``hex_lines`` (the hex
line rule both use), ``fog`` (fog of war), ``polygon`` (visibility polygon rays).

Every kernel but ``polygon`` reads the board as one flat padded array ``bh``
(see ``Topology``): ``bh[p]`` is the height at which padded cell ``p`` blocks
sight. With elevation (float64): ``-inf`` for a cell that never blocks, the
cell's elevation for a sight-blocking cell, ``off = inf`` for padding and
masked-out cells (which block and are never reported). Without (int8, a
quarter of the memory traffic): 0 open, 1 blocking, ``off = 2`` off the
board, viewer height 1. A cell blocks a viewer standing at height ``h`` when
``bh[p] >= h``. The entry kernels take the board as one tuple ``sb = (bh, off,
pw, width, height, wrap, hex_kind)``, built once a board
(``sight.board.SightBoard.args``) and unpacked at the top of the kernel.

Square boards use the published symmetric shadowcasting (four quadrants,
rows scanned outwards, slopes kept as exact integer fractions ``num / den``
and compared by cross-multiplication, so symmetry holds exactly). Hex boards
use a line rule: ``b`` is seen from ``a`` when either of the two tie-broken
hex lines between them (nudged to one side, then to the other) crosses no
blocking cell; each line is computed from the endpoint with the smaller id,
so the rule is symmetric by construction.

On a board wrapped in x, a cell is seen through whichever copy of it lies
within ``width // 2`` columns of the viewer (both copies when exactly half).

Metric codes: 0 euclidean, 1 chebyshev, 2 octile, 3 manhattan, 4 hex steps,
5 unlimited, 6 octagonal (``max + min / 2``, the classic RTS distance).
"""
