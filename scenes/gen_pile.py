#!/usr/bin/env python3
"""Grains poured into a box: a grid of spheres (radius 0.05 m +/- 10 %, fixed seed) or of random
convex rocks (8 to 12 vertices on a jittered ellipsoid), released above an open box made of 5
fixed boxes (floor and 4 walls, interior 1.5 x 1.5 x 1.5 m, floor top at z = 0).
mu = 0.4, e = 0.1, h = 1e-3, 2 s.

  python3 gen_pile.py                       writes pile.json (2592 spheres)
  python3 gen_pile.py --rocks               writes pile_rocks.json (1008 rocks)
  python3 gen_pile.py --count 500 --seed 7 --out small_pile.json
"""

import argparse
import math
import os
import random

from scene_json import vec, write_scene

INTERIOR = 1.5    # box interior, each side [m]
WALL = 0.1        # wall and floor thickness [m]
RADIUS = 0.05     # mean grain radius [m]
SPACING = 0.12    # grid spacing [m]: grains never overlap (2 x 1.1 x RADIUS < SPACING)


def box_bodies():
    half = INTERIOR / 2
    outer = INTERIOR + 2 * WALL
    walls = [
        ("floor", [outer, outer, WALL], [0, 0, -WALL / 2]),
        ("wall_x_minus", [WALL, outer, INTERIOR], [-half - WALL / 2, 0, INTERIOR / 2]),
        ("wall_x_plus", [WALL, outer, INTERIOR], [half + WALL / 2, 0, INTERIOR / 2]),
        ("wall_y_minus", [INTERIOR, WALL, INTERIOR], [0, -half - WALL / 2, INTERIOR / 2]),
        ("wall_y_plus", [INTERIOR, WALL, INTERIOR], [0, half + WALL / 2, INTERIOR / 2]),
    ]
    return [{"name": name, "model": "fixed", "material": "box", "shape": {"box": vec(size)},
             "position": vec(centre)} for name, size, centre in walls]


def grid_centres(count, rng):
    """`count` grid points inside the box's footprint, layer by layer from z = 2 RADIUS up,
    with a small horizontal jitter."""
    per_row = int(INTERIOR / SPACING)
    first = -(per_row - 1) * SPACING / 2
    centres = []
    for k in range(count):
        layer, rest = divmod(k, per_row * per_row)
        i, j = divmod(rest, per_row)
        jitter = [rng.uniform(-0.005, 0.005) for _ in range(2)]
        centres.append([first + i * SPACING + jitter[0], first + j * SPACING + jitter[1],
                        2 * RADIUS + layer * SPACING])
    return centres


def rock_vertices(centre, radius, rng):
    """8-12 points on an ellipsoid of semi-axes within [0.7, 1] x radius, randomly rotated."""
    axes = [radius * rng.uniform(0.7, 1.0) for _ in range(3)]
    yaw = rng.uniform(0, 2 * math.pi)
    points = []
    for _ in range(rng.randint(8, 12)):
        # uniform direction on the sphere, stretched to the ellipsoid, turned about z
        z = rng.uniform(-1, 1)
        phi = rng.uniform(0, 2 * math.pi)
        s = math.sqrt(1 - z * z)
        p = [axes[0] * s * math.cos(phi), axes[1] * s * math.sin(phi), axes[2] * z]
        x = p[0] * math.cos(yaw) - p[1] * math.sin(yaw)
        y = p[0] * math.sin(yaw) + p[1] * math.cos(yaw)
        points.append(vec([centre[0] + x, centre[1] + y, centre[2] + p[2]]))
    return points


def pile_scene(name, count, rocks, seed):
    rng = random.Random(seed)
    centres = grid_centres(count, rng)
    grains = []
    for k, centre in enumerate(centres):
        radius = RADIUS * rng.uniform(0.9, 1.1)
        if rocks:
            shape = {"convex": {"vertices": rock_vertices(centre, radius, rng)}}
            grains.append({"name": f"rock_{k}", "model": "rigid", "material": "grain", "shape": shape})
        else:
            grains.append({"name": f"sphere_{k}", "model": "rigid", "material": "grain",
                           "shape": {"sphere": vec([radius])[0]}, "position": vec(centre)})
    kind = "random convex rocks" if rocks else "spheres"
    return {
        "name": name,
        "description": f"{count} {kind} (mean radius {RADIUS} m, seed {seed}) poured into an open "
                       f"box of 5 fixed boxes; written by gen_pile.py",
        "time": {"step": 1e-3, "duration": 2, "output_interval": 0.05},
        "integrator": {"theta": 0.5},
        "gravity": [0, 0, -9.81],
        # dense granular packings converge slowly under Gauss–Seidel: a tolerance of 1e-3 with at
        # most 300 sweeps, as is usual for granular flows, keeps the run to minutes
        "solver": {"type": "nlgs", "tolerance": 1e-3, "max_iterations": 300},
        "materials": {"grain": {"density": 2500}, "box": {"density": 2500}},
        "interactions": [
            {"materials": ["grain", "grain"], "friction": 0.4, "restitution": 0.1},
            {"materials": ["grain", "box"], "friction": 0.4, "restitution": 0.1},
        ],
        "bodies": box_bodies() + grains,
        "probes": [{"name": "first_grain", "body": grains[0]["name"], "point": vec(centres[0])}],
        "output": {"vtk": True, "csv": True},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rocks", action="store_true", help="random convex rocks instead of spheres")
    parser.add_argument("--count", type=int, help="number of grains (default 2592 spheres, 1008 rocks)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="output file (default pile.json or pile_rocks.json here)")
    args = parser.parse_args()
    count = args.count or (1008 if args.rocks else 2592)
    here = os.path.dirname(os.path.abspath(__file__))
    out = args.out or os.path.join(here, "pile_rocks.json" if args.rocks else "pile.json")
    write_scene(out, pile_scene(os.path.splitext(os.path.basename(out))[0], count, args.rocks, args.seed))


if __name__ == "__main__":
    main()
