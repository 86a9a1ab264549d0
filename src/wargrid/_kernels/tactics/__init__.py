"""Tactics kernels, one module a tactics module: ``smoothing`` (straight-line clearance,
string pulling), ``turning`` (facing search), ``groups`` (assignment).

Straight lines. A cell is named by *virtual* coordinates ``(vx, vy)``: on a
wrapped board ``vx`` may leave ``0..width-1`` so that a line across the seam
stays straight; its real padded id is ``(vy + 1) * pw + vx mod width + 1`` and
its centre ``(cxa[p] + k * wshift, cya[p])`` with ``k = vx // width``
(``cxa``/``cya``: padded centres in drawing units, ``wshift``: how far one
board width moves a centre). Every tile of a board is the same convex
polygon around its centre (``cor``: ``(k, 2)`` corner offsets). The cells a
segment touches form a connected set in the 3 x 3 box of offset neighbours
(on every board kind touching tiles lie in that box), so a flood fill from
the first cell that only expands through touched cells finds them all; the
segment is clear when none of them is blocked. Touching a blocked tile's edge
or corner counts as blocked: a line never squeezes between two blocked
corners.
"""
