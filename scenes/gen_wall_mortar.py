#!/usr/bin/env python3
"""Masonry wall with mortar joints on a shaking table driven by an accelerogram in the PEER NGA
.AT2 format.

The accelerogram is SYNTHETIC, not a recorded earthquake: a sum of three sines (1.5, 2.5 and
4 Hz) under a build-up, strong-motion and decay envelope, peak about 0.6 g, 5 s at DT = 0.01 s,
written as a PEER NGA record (header, NPTS/DT line, five values per line) so that nscd reads it
as it reads a downloaded one. No real record is copied.

The wall: 6 courses of 4 bricks 2 x 1 x 1 m in running bond (gen_wall.py), density 2000 kg/m^3.
Every brick-brick and brick-table contact present at t = 0 is a mortar joint: tensile strength
f_t = 20 kPa, cohesion c = 40 kPa (a weak lime mortar), friction 0.6, residual friction 0.5 once
broken (the bed joints carry 12 to 118 kPa of self-weight, so the shaking breaks the upper joints
first).

  python3 gen_wall_mortar.py     writes synthetic_shake.AT2 and wall_mortar_at2.json here
"""

import math
import os

from gen_wall import wall_bodies
from scene_json import vec, write_scene

DT = 0.01
DURATION = 5.0
COMPONENTS = ((0.35, 1.5, 0.0), (0.25, 2.5, 1.0), (0.15, 4.0, 2.0))  # amplitude [g], frequency [Hz], phase


def envelope(t):
    """0 → 1 over [0, 1] s, 1 until 3 s, then exponential decay."""
    if t < 1.0:
        return (t / 1.0) ** 2
    if t < 3.0:
        return 1.0
    return math.exp(-1.2 * (t - 3.0))


def accelerations():
    n = int(round(DURATION / DT))
    return [envelope(k * DT) * sum(a * math.sin(2 * math.pi * f * k * DT + p) for a, f, p in COMPONENTS)
            for k in range(n)]


def at2_text(values):
    lines = ["PEER NGA STRONG MOTION DATABASE RECORD",
             "SYNTHETIC accelerogram written by nscd's scenes/gen_wall_mortar.py (not a recorded earthquake)",
             "ACCELERATION TIME SERIES IN UNITS OF G",
             f"NPTS= {len(values):5d}, DT= {DT:.4f} SEC"]
    for i in range(0, len(values), 5):
        lines.append("".join(f"{v:15.7E}" for v in values[i:i + 5]))
    return "\n".join(lines) + "\n"


def mortar_scene(record):
    courses, bricks = 6, 4
    length = bricks * 2.0
    table = {"name": "table", "model": "driven", "material": "support", "shape": {"box": vec([length + 4.0, 4.0, 0.5])},
             "position": [0, 0, -0.25],
             "motion": {"velocity": {"type": "table", "file": record, "direction": [1, 0, 0], "scale": 1}}}
    bodies = wall_bodies(courses, bricks)
    top = [b for b in bodies if b["name"].startswith(f"brick_{courses - 1}_")]
    mortar = {"friction": 0.6, "restitution": 0, "tensile_strength": 20000, "cohesion": 40000, "residual_friction": 0.5}
    return {
        "name": "wall_mortar_at2",
        "description": (f"running-bond wall, {courses} courses of {bricks} bricks 2x1x1 m ({len(bodies)} blocks) with "
                        "mortar joints (f_t = 20 kPa, c = 40 kPa), on a table driven by the synthetic accelerogram "
                        f"{record}; written by gen_wall_mortar.py"),
        "time": {"step": 1e-3, "duration": DURATION, "output_interval": 0.02},
        "integrator": {"theta": 0.5},
        "gravity": [0, 0, -9.81],
        "solver": {"type": "nlgs", "tolerance": 1e-5, "max_iterations": 1000},
        "materials": {"brick": {"density": 2000}, "support": {"density": 2000}},
        "interactions": [
            dict({"materials": ["brick", "brick"]}, **mortar),
            dict({"materials": ["brick", "support"]}, **mortar),
        ],
        "bodies": [table] + bodies,
        "probes": [{"name": "top_left", "body": top[0]["name"], "point": vec([-length / 2, 0, courses])}],
        "output": {"vtk": True, "csv": True},
    }


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    record = "synthetic_shake.AT2"
    with open(os.path.join(here, record), "w", encoding="ascii") as f:
        f.write(at2_text(accelerations()))
    write_scene(os.path.join(here, "wall_mortar_at2.json"), mortar_scene(record))


if __name__ == "__main__":
    main()
