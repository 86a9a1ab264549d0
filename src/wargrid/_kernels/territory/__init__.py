"""Territory kernels, one module a territory module: ``graph`` (the land graph and the
searches every module uses), ``growth`` (compact partitions), ``balance``
(rebalancing and refinement), ``scattered``, ``feasibility``, ``starts``.

Every kernel works on the *land graph* built by ``graph.build_graph`` from the
board's padded layout: node ``i`` is the ``i``-th passable cell in id order,
``nbr[i, d]`` the node one step in topology direction ``d`` (``-1`` for none).
So one kernel serves square-4/8, hex, staggered and wrapped boards.

``owner[i]`` is a player index ``0..P-1`` (``-1`` while unowned), ``w[i]`` the
cell's weight, ``W[k]`` a player's summed weight. Balance means
``max(W) - min(W) <= tol``.
"""
