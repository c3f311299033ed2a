#!/usr/bin/env python3
"""Semicircular arch of voussoirs on two fixed abutments.

The voussoirs are `convex` shapes with 8 vertices in world coordinates (radial joints): voussoir
i spans the angles [pi i / n, pi (i + 1) / n] between the inner radius R and R + t, and the depth
d along y. The springings rest on the tops of two abutment boxes (z = H); a ground slab lies
under everything. With t / R = 0.2, above Heyman's minimum of about 0.107 for a semicircular
arch, and mu = 0.6, the arch stands.

  python3 gen_arch.py                       writes arch.json (15 voussoirs, R = 5, t = d = 1)
  python3 gen_arch.py --voussoirs 21 --thickness 0.5 --out thin_arch.json
  python3 gen_arch.py --voussoirs 20 --thickness 0.75 --friction 0.8 --tolerance 1e-7 \
      --max-iterations 5000 --out arch_collapse.json  (the arch of `nscd collapse`: t/R = 0.15, no
      sliding, and a tolerance at which the arch at rest does not creep)
"""

import argparse
import math
import os

from scene_json import vec, write_scene


def voussoir_vertices(i, n, radius, thickness, depth, height):
    a0, a1 = math.pi * i / n, math.pi * (i + 1) / n
    return [vec([r * math.cos(a), y, height + r * math.sin(a)])
            for a in (a0, a1) for r in (radius, radius + thickness) for y in (-depth / 2, depth / 2)]


def arch_scene(name, n, radius, thickness, depth, friction=0.6, tolerance=1e-5, max_iterations=1000):
    height = 2.0           # abutment height: springing level [m]
    width = thickness + 1  # abutment length along x [m]
    outer = radius + thickness
    bodies = [
        {"name": "ground", "model": "fixed", "material": "ground",
         "shape": {"box": vec([2 * outer + 2 * width + 2, depth + 4, 0.5])}, "position": [0, 0, -0.25]},
    ]
    # abutments: their tops carry the springings, from r = R to R + t on each side
    for side, sign in (("left", -1), ("right", 1)):
        bodies.append({"name": f"abutment_{side}", "model": "fixed", "material": "stone",
                       "shape": {"box": vec([width, depth + 1, height])},
                       "position": vec([sign * (radius + thickness / 2), 0, height / 2])})
    for i in range(n):
        bodies.append({"name": f"voussoir_{i}", "model": "rigid", "material": "stone",
                       "shape": {"convex": {"vertices": voussoir_vertices(i, n, radius, thickness, depth, height)}}})
    # probes: the middle of the crown voussoir's extrados and intrados (on their flat faces)
    crown = n // 2
    a0, a1 = math.pi * crown / n, math.pi * (crown + 1) / n
    mid = (a0 + a1) / 2
    chord = math.cos((a1 - a0) / 2)  # distance of a flat face's midpoint, per unit radius
    probes = [
        {"name": "crown_top", "body": f"voussoir_{crown}",
         "point": vec([outer * chord * math.cos(mid), 0, height + outer * chord * math.sin(mid)])},
        {"name": "crown_bottom", "body": f"voussoir_{crown}",
         "point": vec([radius * chord * math.cos(mid), 0, height + radius * chord * math.sin(mid)])},
    ]
    return {
        "name": name,
        "description": f"semicircular arch of {n} voussoirs, R = {radius} m, t = {thickness} m, "
                       f"depth {depth} m, on two fixed abutments; written by gen_arch.py",
        "time": {"step": 1e-3, "duration": 2, "output_interval": 0.02},
        "integrator": {"theta": 0.5},
        "gravity": [0, 0, -9.81],
        "solver": {"type": "nlgs", "tolerance": tolerance, "max_iterations": max_iterations},
        "materials": {"stone": {"density": 2000, "young": 3.5e10, "poisson": 0.2}, "ground": {"density": 2000}},
        "interactions": [
            {"materials": ["stone", "stone"], "friction": friction, "restitution": 0},
            {"materials": ["stone", "ground"], "friction": friction, "restitution": 0},
        ],
        "bodies": bodies,
        "probes": probes,
        "output": {"vtk": True, "csv": True},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voussoirs", type=int, default=15)
    parser.add_argument("--radius", type=float, default=5.0, help="inner radius R [m]")
    parser.add_argument("--thickness", type=float, default=1.0, help="radial thickness t [m]")
    parser.add_argument("--depth", type=float, default=1.0, help="depth along y [m]")
    parser.add_argument("--friction", type=float, default=0.6, help="μ of every joint")
    parser.add_argument("--tolerance", type=float, default=1e-5, help="the solver's tolerance")
    parser.add_argument("--max-iterations", type=int, default=1000, help="the solver's iteration cap")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "arch.json"))
    args = parser.parse_args()
    name = os.path.splitext(os.path.basename(args.out))[0]
    write_scene(args.out, arch_scene(name, args.voussoirs, args.radius, args.thickness, args.depth, args.friction,
                                     args.tolerance, args.max_iterations))


if __name__ == "__main__":
    main()
