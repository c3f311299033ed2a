#!/usr/bin/env python3
"""A semicircular arch of voussoirs built in Python, its thickness swept to find where it stands.

Heyman's limit analysis gives a minimum thickness of about 0.107 R for a semicircular arch under
its own weight (with enough friction to rule out sliding): thinner, it turns into a mechanism and
falls; thicker, it stands. Each thickness is simulated for `--duration` seconds; the arch stands
when its crown voussoir has dropped by less than 1 mm. A coarse sweep brackets the limit, then
bisection narrows it. The arch is the one of scenes/gen_arch.py (15 voussoirs, R = 5 m).

  PYTHONPATH=build/python python3 examples/arch_thickness.py [--radius 5] [--duration 1]
"""

import argparse
import os
import sys

import nscd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scenes"))
from gen_arch import arch_scene  # noqa: E402  (the arch of scenes/arch.json)

VOUSSOIRS = 15


def crown_drop(radius, thickness, duration):
    """How far the crown voussoir falls [m] in `duration` seconds."""
    data = arch_scene("arch_sweep", VOUSSOIRS, radius, thickness, 1.0)
    data["time"]["duration"] = duration
    sim = nscd.Simulation(nscd.Scene.from_dict(data))
    crown = sim.body_names.index(f"voussoir_{VOUSSOIRS // 2}")
    z0 = sim.positions[crown, 2]
    sim.run()
    return z0 - sim.positions[crown, 2]


def stands(radius, thickness, duration):
    drop = crown_drop(radius, thickness, duration)
    verdict = drop < 1e-3
    print(f"t / R = {thickness / radius:.4f}  crown drop {drop:9.2e} m  {'stands' if verdict else 'falls'}")
    return verdict


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--radius", type=float, default=5.0, help="inner radius R [m]")
    parser.add_argument("--duration", type=float, default=1.0, help="simulated time per thickness [s]")
    parser.add_argument("--bisections", type=int, default=3)
    args = parser.parse_args()
    R = args.radius
    ratios = [0.06, 0.09, 0.12, 0.15, 0.2]
    verdicts = [stands(R, ratio * R, args.duration) for ratio in ratios]
    if not any(verdicts) or all(verdicts):
        print("no change between the thinnest and the thickest arch: widen the sweep")
        return
    first = verdicts.index(True)
    low, high = (ratios[first - 1] if first > 0 else 0.0), ratios[first]
    for _ in range(args.bisections):
        middle = (low + high) / 2
        if stands(R, middle * R, args.duration):
            high = middle
        else:
            low = middle
    print(f"the arch stands from t / R between {low:.4f} and {high:.4f} (Heyman: about 0.107)")


if __name__ == "__main__":
    main()
