#!/usr/bin/env python3
"""Running-bond masonry wall: 10 courses of 8 bricks 2 x 1 x 1 m (long axis along x), odd courses
with a half brick (1 x 1 x 1 m) at both ends: 5 x 8 + 5 x 9 = 85 blocks, the wall 16 m long and
10 m high, standing on z = 0. Density 2000 kg/m^3 (Young 28 GPa), mu = 0.5, e = 0, theta = 0.5, h = 1e-3.

  python3 gen_wall.py            writes wall_shaking_table.json (driven table, sine velocity
                                 along x: 0.3 m/s, 1 Hz, from t = 0.5 s; 3 s) and
                                 wall_static.json (fixed ground, 1 s, tolerance 1e-4: the
                                 project's benchmark scene)
  python3 gen_wall.py --courses 4 --bricks 5 --out small_wall.json --table
                                 any other size, with the table (--table) or the fixed ground
"""

import argparse
import math
import os

from scene_json import vec, write_scene

BRICK = (2.0, 1.0, 1.0)  # full brick [m]; a half brick is 1 x 1 x 1


def wall_bodies(courses, bricks):
    """Bricks of a running-bond wall centred on x = 0, bottom on z = 0."""
    length = bricks * BRICK[0]
    bodies = []
    for c in range(courses):
        z = (c + 0.5) * BRICK[2]
        # even courses: full bricks; odd ones: half, full bricks, half
        if c % 2 == 0:
            spans = [(i * BRICK[0], (i + 1) * BRICK[0]) for i in range(bricks)]
        else:
            half = BRICK[0] / 2
            spans = [(0.0, half)]
            spans += [(half + i * BRICK[0], half + (i + 1) * BRICK[0]) for i in range(bricks - 1)]
            spans += [(length - half, length)]
        for i, (x0, x1) in enumerate(spans):
            bodies.append({
                "name": f"brick_{c}_{i}", "model": "rigid", "material": "brick",
                "shape": {"box": vec([x1 - x0, BRICK[1], BRICK[2]])},
                "position": vec([(x0 + x1) / 2 - length / 2, 0.0, z]),
            })
    return bodies


def wall_scene(name, courses, bricks, shaking):
    length = bricks * BRICK[0]
    height = courses * BRICK[2]
    support = {"name": "table" if shaking else "ground", "model": "driven" if shaking else "fixed",
               "material": "support", "shape": {"box": vec([length + 4.0, 4.0, 0.5])},
               "position": [0, 0, -0.25]}
    if shaking:
        support["motion"] = {"velocity": {
            "type": "sine", "direction": [1, 0, 0], "amplitude": 0.3,
            "angular_frequency": 2 * math.pi * 1.0, "start": 0.5}}
    bodies = wall_bodies(courses, bricks)
    # probes on the top course: its left end and its middle
    top = [b for b in bodies if b["name"].startswith(f"brick_{courses - 1}_")]
    middle = min(top, key=lambda b: abs(b["position"][0]))
    probes = [
        {"name": "top_left", "body": top[0]["name"], "point": vec([-length / 2, 0, height])},
        {"name": "top_middle", "body": middle["name"], "point": vec([middle["position"][0], 0, height])},
    ]
    description = (f"running-bond wall, {courses} courses of {bricks} bricks 2x1x1 m ({len(bodies)} blocks) "
                   + ("on a table shaken along x (sine velocity 0.3 m/s, 1 Hz, from 0.5 s)"
                      if shaking else "on a fixed ground (benchmark scene)")
                   + "; written by gen_wall.py")
    return {
        "name": name,
        "description": description,
        "time": {"step": 1e-3, "duration": 3 if shaking else 1, "output_interval": 0.02},
        "integrator": {"theta": 0.5},
        "gravity": [0, 0, -9.81],
        "solver": {"type": "nlgs", "tolerance": 1e-5 if shaking else 1e-4, "max_iterations": 1000},
        "materials": {"brick": {"density": 2000, "young": 2.8e10, "poisson": 0.2}, "support": {"density": 2000}},
        "interactions": [
            {"materials": ["brick", "brick"], "friction": 0.5, "restitution": 0},
            {"materials": ["brick", "support"], "friction": 0.5, "restitution": 0},
        ],
        "bodies": [support] + bodies,
        "probes": probes,
        "output": {"vtk": True, "csv": True},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--courses", type=int, default=10)
    parser.add_argument("--bricks", type=int, default=8, help="full bricks per even course")
    parser.add_argument("--out", help="write one scene to this file (default: the two standard scenes)")
    parser.add_argument("--table", action="store_true", help="with --out: on a shaking table")
    args = parser.parse_args()

    here = os.path.dirname(os.path.abspath(__file__))
    if args.out:
        name = os.path.splitext(os.path.basename(args.out))[0]
        write_scene(args.out, wall_scene(name, args.courses, args.bricks, args.table))
        return
    for name, shaking in (("wall_shaking_table", True), ("wall_static", False)):
        write_scene(os.path.join(here, name + ".json"), wall_scene(name, args.courses, args.bricks, shaking))


if __name__ == "__main__":
    main()
