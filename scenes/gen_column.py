#!/usr/bin/env python3
"""A granular column collapsing on a plane: spheres (radius 0.05 m +/- 10 %, fixed seed) stacked
in vertical files on a square grid, n x n files of `layers` spheres each, 0.15 m apart
horizontally and 0.115 m vertically (no two spheres touch) with a horizontal jitter of
+/- 0.012 m, released from rest above a fixed plane (top at z = 0): the files land, topple and
the column spreads. mu = 0.5, e = 0, and rolling resistance mu_r (interaction key
"rolling_resistance", docs/method.md): with it the runout stops growing (1.04 m after about
1.5 s for the default column), without it the grains that leave the heap roll on. The run takes
about a minute on one core.

  python3 gen_column.py                     writes granular_column.json (4 x 4 x 10 = 160 spheres)
  python3 gen_column.py --rolling 0 --out /tmp/column_free.json
  python3 gen_column.py --side 3 --layers 8 --duration 2 --out /tmp/small_column.json
"""

import argparse
import os
import random

from scene_json import vec, write_scene

RADIUS = 0.05     # mean sphere radius [m]
SPACING = 0.15    # horizontal grid spacing [m]: > 2 x 1.1 x RADIUS + 2 sqrt(2) x JITTER
LAYER = 0.115     # vertical spacing [m]: > 2 x 1.1 x RADIUS
JITTER = 0.012    # horizontal jitter of each sphere [m]
PLANE = 4.0       # side of the fixed plane [m]


def spheres(side, layers, rng):
    """`side` x `side` files of `layers` spheres, the lowest at least 1e-3 m above z = 0."""
    first = -(side - 1) * SPACING / 2
    grains = []
    for layer in range(layers):
        for i in range(side):
            for j in range(side):
                radius = RADIUS * rng.uniform(0.9, 1.1)
                centre = [first + i * SPACING + rng.uniform(-JITTER, JITTER),
                          first + j * SPACING + rng.uniform(-JITTER, JITTER),
                          1.1 * RADIUS + 1e-3 + layer * LAYER]
                grains.append({"name": f"grain_{len(grains)}", "model": "rigid", "material": "grain",
                               "shape": {"sphere": vec([radius])[0]}, "position": vec(centre)})
    return grains


def column_scene(name, side, layers, rolling, seed, duration):
    rng = random.Random(seed)
    plane = {"name": "plane", "model": "fixed", "material": "ground",
             "shape": {"box": vec([PLANE, PLANE, 0.1])}, "position": vec([0, 0, -0.05])}
    grains = spheres(side, layers, rng)
    return {
        "name": name,
        "description": f"{len(grains)} spheres (mean radius {RADIUS} m, seed {seed}) in a column of "
                       f"{side} x {side} files collapsing on a plane, rolling resistance {rolling}; "
                       f"written by gen_column.py",
        "time": {"step": 1e-3, "duration": duration, "output_interval": 0.05},
        "integrator": {"theta": 0.5},
        "gravity": [0, 0, -9.81],
        # granular flows: Gauss-Seidel to 1e-4 within 300 sweeps keeps the run to a minute
        "solver": {"type": "nlgs", "tolerance": 1e-4, "max_iterations": 300},
        "materials": {"grain": {"density": 2500}, "ground": {"density": 2500}},
        "interactions": [
            {"materials": ["grain", "grain"], "friction": 0.5, "rolling_resistance": rolling},
            {"materials": ["grain", "ground"], "friction": 0.5, "rolling_resistance": rolling},
        ],
        "bodies": [plane] + grains,
        "probes": [{"name": "top_grain", "body": grains[-1]["name"], "point": grains[-1]["position"]}],
        "output": {"vtk": True, "csv": True},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--side", type=int, default=4, help="files along x and along y (default 4)")
    parser.add_argument("--layers", type=int, default=10, help="spheres per file (default 10)")
    parser.add_argument("--rolling", type=float, default=0.2, help="rolling resistance mu_r (default 0.2)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--duration", type=float, default=3.0, help="[s] (default 3)")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      "granular_column.json"))
    args = parser.parse_args()
    name = os.path.splitext(os.path.basename(args.out))[0]
    write_scene(args.out, column_scene(name, args.side, args.layers, args.rolling, args.seed, args.duration))


if __name__ == "__main__":
    main()
