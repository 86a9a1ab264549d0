"""A tank crosses a battlefield; the bridge on its route is destroyed; it replans through the ford.

    python examples/bridge_scenario.py [picture.svg] [--seed N] [--board square|hex|staggered]

Prints what happened (map events, zone splits, the units' decisions) and
draws both routes: red before the bridge fell, blue after, black the way
the tank actually drove.
"""

from __future__ import annotations

import argparse

from wargrid.rts import bridge_scenario


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("picture", nargs="?", default="bridge_scenario.svg", help="where to write the SVG")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--board", choices=("square", "hex", "staggered"), default="square")
    args = ap.parse_args()
    r = bridge_scenario(seed=args.seed, board=args.board)
    for tick, what, detail in r.events:
        print(f"tick {tick:4}  {what:24} {detail}")
    print(f"route before: {len(r.route_before) - 1} steps over the bridge at {r.bridge}")
    print(f"route after:  {len(r.route_after) - 1} steps from {r.route_after[0]} through the ford at {r.ford}")
    print(f"tank: {r.tank_state}; truck: {r.truck_state} ({r.truck_reason})")
    r.picture(args.picture)
    print(f"picture: {args.picture}")


if __name__ == "__main__":
    main()
