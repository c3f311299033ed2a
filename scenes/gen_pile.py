#!/usr/bin/env python3
"""Grains poured into a box: a grid of spheres (radius 0.05 m +/- 10 %, fixed seed) or of random
convex rocks (8 to 12 vertices on a jittered ellipsoid), released above an open box made of 5
fixed boxes (floor and 4 walls, interior 1.5 x 1.5 x 1.5 m, floor top at z = 0).
mu = 0.4, e = 0.1, h = 1e-3, 2 s.

With --packed (for the scaling benchmark, docs/performance.md), the grains start at rest in
contact instead: n x n columns, n = ceil(count^(1/3)), filled layer by layer, in a box whose
floor and walls are sized to the count (walls as high as the pile). Spheres are then all of
radius 0.05 m (no spread) on a simple cubic lattice with gaps of 4e-8 m to their 6 neighbours,
the floor and the walls: about 3 x count contacts, all active from the first step (the gaps
are below the activation tolerance, 1e-6 x the smallest diameter). Rocks keep their random
shapes; their sampling centres are 0.11 m apart horizontally (so neighbouring columns never
overlap) and each rock is lowered onto the rocks below it in its column (or the floor) until the
vertical gap between the two hulls is 4e-8 m: about one contact per rock at the first step, more
as the columns settle.

  python3 gen_pile.py                       writes pile.json (2592 spheres)
  python3 gen_pile.py --rocks               writes pile_rocks.json (1008 rocks)
  python3 gen_pile.py --count 500 --seed 7 --out small_pile.json
  python3 gen_pile.py --packed --count 10000 --out /tmp/packed_1e4.json

--interior, --wall-height, --duration and --output-interval change the loose grid's box and the
run; the pour of the side-by-side benchmark with YADE (bench/bench_pour.py, docs/performance.md)
is 1000 spheres in a 1 x 1 m box with walls 2 m high (above the grid's top layer), 1.5 s:

  python3 gen_pile.py --count 1000 --interior 1 --wall-height 2 --duration 1.5 --output-interval 0.1 \
      --out /tmp/pour.json
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
PACKED_GAP = 4e-8  # --packed: gap between touching grains [m], below the activation tolerance
                   # (1e-6 x the smallest diameter) and above the rounding of the written numbers


def box_bodies(interior=INTERIOR, height=INTERIOR):
    """Floor (top at z = 0) and 4 walls around a square interior of side `interior`."""
    half = interior / 2
    outer = interior + 2 * WALL
    walls = [
        ("floor", [outer, outer, WALL], [0, 0, -WALL / 2]),
        ("wall_x_minus", [WALL, outer, height], [-half - WALL / 2, 0, height / 2]),
        ("wall_x_plus", [WALL, outer, height], [half + WALL / 2, 0, height / 2]),
        ("wall_y_minus", [interior, WALL, height], [0, -half - WALL / 2, height / 2]),
        ("wall_y_plus", [interior, WALL, height], [0, half + WALL / 2, height / 2]),
    ]
    return [{"name": name, "model": "fixed", "material": "box", "shape": {"box": vec(size)},
             "position": vec(centre)} for name, size, centre in walls]


def grid_centres(count, rng, interior=INTERIOR):
    """`count` grid points inside the box's footprint (`interior` wide), layer by layer from
    z = 2 RADIUS up, with a small horizontal jitter."""
    per_row = int(interior / SPACING)
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


def scene(name, description, bodies, probe_point, duration=2, output_interval=0.05):
    """The scene around the bodies (the box's, then the grains'), probing the first grain."""
    grain = bodies[5]["name"]
    return {
        "name": name,
        "description": description,
        "time": {"step": 1e-3, "duration": duration, "output_interval": output_interval},
        "integrator": {"theta": 0.5},
        "gravity": [0, 0, -9.81],
        # dense granular packings converge slowly under Gauss–Seidel: a tolerance of 1e-3 with at
        # most 300 sweeps, as is usual for granular flows, keeps the run to minutes
        "solver": {"type": "nlgs", "tolerance": 1e-3, "max_iterations": 300},
        "materials": {"grain": {"density": 2500, "young": 3.5e10, "poisson": 0.2}, "box": {"density": 2500}},
        "interactions": [
            {"materials": ["grain", "grain"], "friction": 0.4, "restitution": 0.1},
            {"materials": ["grain", "box"], "friction": 0.4, "restitution": 0.1},
        ],
        "bodies": bodies,
        "probes": [{"name": "first_grain", "body": grain, "point": probe_point}],
        "output": {"vtk": True, "csv": True},
    }


def pile_scene(name, count, rocks, seed, interior=INTERIOR, wall_height=INTERIOR, duration=2,
               output_interval=0.05):
    rng = random.Random(seed)
    centres = grid_centres(count, rng, interior)
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
    return scene(name, f"{count} {kind} (mean radius {RADIUS} m, seed {seed}) poured into an open "
                       f"box of 5 fixed boxes; written by gen_pile.py",
                 box_bodies(interior, wall_height) + grains, vec(centres[0]), duration, output_interval)


def _sub(a, b):
    return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _hull(points):
    """Facet planes (unit outward normal n, offset d: n.x <= d inside) and edges (index pairs)
    of the convex hull of a few points, by testing every triple."""
    planes, edges = [], set()
    count = len(points)
    for i in range(count):
        for j in range(i + 1, count):
            for k in range(j + 1, count):
                u, v = _sub(points[j], points[i]), _sub(points[k], points[i])
                n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
                length = math.sqrt(_dot(n, n))
                if length < 1e-14:
                    continue
                n = [c / length for c in n]
                d = _dot(n, points[i])
                side = [_dot(n, p) - d for p in points]
                if max(side) > 1e-12:
                    if min(side) < -1e-12:
                        continue
                    n, d = [-c for c in n], -d
                planes.append((n, d))
                edges.update([(i, j), (j, k), (i, k)])
    return planes, [(points[a], points[b]) for a, b in edges]


def _ray_entry(planes, start, up):
    """Distance s >= -inf at which start + s e_z (up) or start - s e_z enters the hull, or None."""
    lo, hi = -math.inf, math.inf
    for n, d in planes:
        a = _dot(n, start) - d
        nz = n[2] if up else -n[2]          # along the ray: a + s nz <= 0
        if nz < -1e-15:
            lo = max(lo, -a / nz)
        elif nz > 1e-15:
            hi = min(hi, -a / nz)
        elif a > 0:
            return None
    return lo if lo <= hi else None


def vertical_drop(upper, lower):
    """How far the convex hull `upper` (points, planes, edges) can move down before it touches
    `lower`: the least vertical distance between a point of each at the same (x, y), over vertex
    above face, face above vertex and edge above edge. None if their shadows do not meet."""
    best = math.inf
    for p in upper[0]:
        s = _ray_entry(lower[1], p, up=False)
        if s is not None:
            best = min(best, s)
    for p in lower[0]:
        s = _ray_entry(upper[1], p, up=True)
        if s is not None:
            best = min(best, s)
    for p0, p1 in upper[2]:
        dp = (p1[0] - p0[0], p1[1] - p0[1])
        for q0, q1 in lower[2]:
            dq = (q1[0] - q0[0], q1[1] - q0[1])
            det = dp[0] * dq[1] - dp[1] * dq[0]
            if abs(det) < 1e-15:
                continue  # parallel shadows: their end points are vertices, tested above
            w = (q0[0] - p0[0], q0[1] - p0[1])
            alpha = (w[0] * dq[1] - w[1] * dq[0]) / det
            beta = (w[0] * dp[1] - w[1] * dp[0]) / det
            if 0 <= alpha <= 1 and 0 <= beta <= 1:
                best = min(best, p0[2] + alpha * (p1[2] - p0[2]) - q0[2] - beta * (q1[2] - q0[2]))
    return None if best == math.inf else best


def _column_drop(rock, column):
    """How far `rock` can move down before it touches the floor (z = 0) or a rock of `column`
    (the rocks under it, bottom first): a rock that only grazes the one below may slide past it
    onto a lower one."""
    best = min(p[2] for p in rock[0])
    for lower in reversed(column):
        if max(p[2] for p in lower[0]) <= min(p[2] for p in rock[0]) - best:
            continue  # out of reach
        drop = vertical_drop(rock, lower)
        if drop is not None:
            best = min(best, drop)
    return best


def _rounded_rock(vertices, dz):
    points = [vec([v[0], v[1], v[2] + dz]) for v in vertices]
    planes, edges = _hull(points)
    return points, planes, edges


def packed_pile_scene(name, count, rocks, seed):
    """Grains at rest in contact (see --packed in the module's help)."""
    rng = random.Random(seed)
    per_row = max(1, math.ceil(count ** (1 / 3) - 1e-9))
    layers = math.ceil(count / (per_row * per_row))
    # spheres: all of radius RADIUS, centres 2 RADIUS + gap apart; rocks: sampling centres
    # 2 x 1.1 x RADIUS + gap apart horizontally (their bounding spheres never overlap)
    reach = 1.1 * RADIUS if rocks else RADIUS
    spacing = 2 * reach + PACKED_GAP
    first = -(per_row - 1) * spacing / 2
    interior = (per_row - 1) * spacing + 2 * (reach + PACKED_GAP)
    grains, columns, top = [], {}, 0.0
    for k in range(count):
        layer, rest = divmod(k, per_row * per_row)
        i, j = divmod(rest, per_row)
        x, y = first + i * spacing, first + j * spacing
        if not rocks:
            z = RADIUS + PACKED_GAP + layer * spacing
            top = max(top, z + RADIUS)
            grains.append({"name": f"sphere_{k}", "model": "rigid", "material": "grain",
                           "shape": {"sphere": RADIUS}, "position": vec([x, y, z])})
            continue
        radius = RADIUS * rng.uniform(0.9, 1.1)
        vertices = rock_vertices([x, y, 0.0], radius, rng)
        column = columns.setdefault((i, j), [])
        # start clear of the column (its highest point + 2 mm), lower the rock onto it or the floor
        start = max((max(p[2] for p in r[0]) for r in column), default=0.0) + 2e-3
        rock = _rounded_rock(vertices, start - min(v[2] for v in vertices))
        for _ in range(3):  # again after rounding, until the written gap is the target
            drop = _column_drop(rock, column)
            if abs(drop - PACKED_GAP) < 0.25 * PACKED_GAP:
                break
            rock = _rounded_rock(rock[0], PACKED_GAP - drop)
        column.append(rock)
        top = max(top, max(p[2] for p in rock[0]))
        grains.append({"name": f"rock_{k}", "model": "rigid", "material": "grain",
                       "shape": {"convex": {"vertices": rock[0]}}})
    kind = "random convex rocks" if rocks else f"spheres of radius {RADIUS} m"
    first_point = grains[0]["position"] if not rocks else grains[0]["shape"]["convex"]["vertices"][0]
    return scene(name, f"{count} {kind} (seed {seed}) packed at rest in {per_row} x {per_row} columns of "
                       f"up to {layers} in an open box of 5 fixed boxes sized to them; written by "
                       f"gen_pile.py --packed",
                 box_bodies(interior, top) + grains, vec(first_point))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rocks", action="store_true", help="random convex rocks instead of spheres")
    parser.add_argument("--count", type=int, help="number of grains (default 2592 spheres, 1008 rocks)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="output file (default pile.json or pile_rocks.json here)")
    parser.add_argument("--packed", action="store_true",
                        help="grains at rest in contact in a box sized to the count (see above)")
    parser.add_argument("--interior", type=float, default=INTERIOR,
                        help=f"side of the box's square interior [m] (default {INTERIOR}; not with --packed)")
    parser.add_argument("--wall-height", type=float,
                        help="height of the walls [m] (default: --interior; not with --packed)")
    parser.add_argument("--duration", type=float, default=2, help="simulated time [s] (default 2)")
    parser.add_argument("--output-interval", type=float, default=0.05, help="output interval [s] (default 0.05)")
    args = parser.parse_args()
    if args.packed and (args.interior != INTERIOR or args.wall_height is not None):
        parser.error("--packed sizes the box to the count: --interior and --wall-height are not allowed with it")
    if args.interior < SPACING:
        parser.error(f"--interior {args.interior}: expected at least the grid spacing, {SPACING} m")
    count = args.count or (1008 if args.rocks else 2592)
    here = os.path.dirname(os.path.abspath(__file__))
    out = args.out or os.path.join(here, "pile_rocks.json" if args.rocks else "pile.json")
    name = os.path.splitext(os.path.basename(out))[0]
    if args.packed:
        made = packed_pile_scene(name, count, args.rocks, args.seed)
        made["time"].update({"duration": args.duration, "output_interval": args.output_interval})
    else:
        made = pile_scene(name, count, args.rocks, args.seed, args.interior,
                          args.wall_height if args.wall_height is not None else args.interior, args.duration,
                          args.output_interval)
    write_scene(out, made)


if __name__ == "__main__":
    main()
