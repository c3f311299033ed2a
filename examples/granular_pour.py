#!/usr/bin/env python3
"""Spheres poured into a box, read back as NumPy arrays and plotted with matplotlib.

The pour of scenes/gen_pile.py (spheres of radius 0.05 m +/- 10 % released from a grid above an
open box), built in Python with fewer grains. The simulation is stepped in Python: every
`--every` steps the callback records the spheres' heights (a view, copied) and the kinetic energy.
The plot (pour.png, when matplotlib is installed) shows the kinetic energy and the mean height over
time, and the final pile seen from the side, coloured by height.

  PYTHONPATH=build/python python3 examples/granular_pour.py [--count 300] [--duration 1] [--out pour.png]
"""

import argparse
import os
import sys

import numpy as np

import nscd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scenes"))
from gen_pile import pile_scene  # noqa: E402  (the pour of scenes/pile.json)


def pour(count, duration, every, threads):
    """Times, kinetic energies, spheres' heights per record; the final positions and names."""
    data = pile_scene("pour", count, rocks=False, seed=1, duration=duration)
    sim = nscd.Simulation(nscd.Scene.from_dict(data), threads=threads)
    spheres = np.array([model == "rigid" for model in sim.body_models])
    times, energies, heights = [], [], []

    def record(s):
        if s.step_index % every == 0:
            times.append(s.time)
            energies.append(s.kinetic_energy)
            heights.append(s.positions[spheres, 2].copy())  # a view: copied to keep it

    sim.run(callback=record)
    return np.array(times), np.array(energies), np.array(heights), sim.positions[spheres].copy()


def plot(times, energies, heights, final, out):
    try:
        import matplotlib
    except ImportError:
        print("matplotlib is not installed (Debian's python3-matplotlib): no plot")
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (energy_axis, height_axis, side) = plt.subplots(1, 3, figsize=(13, 4))
    energy_axis.semilogy(times, np.maximum(energies, 1e-12))
    energy_axis.set(xlabel="time [s]", ylabel="kinetic energy [J]", title="kinetic energy")
    height_axis.plot(times, heights.mean(axis=1))
    height_axis.set(xlabel="time [s]", ylabel="mean height [m]", title="mean height of the spheres")
    points = side.scatter(final[:, 0], final[:, 2], c=final[:, 2], s=12, cmap="viridis")
    side.set(xlabel="x [m]", ylabel="z [m]", title="final pile (side view)")
    fig.colorbar(points, ax=side, label="z [m]")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"plot in {out}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=300, help="spheres")
    parser.add_argument("--duration", type=float, default=1.0, help="simulated time [s]")
    parser.add_argument("--every", type=int, default=10, help="steps between records")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--out", default="pour.png")
    args = parser.parse_args()
    times, energies, heights, final = pour(args.count, args.duration, args.every, args.threads)
    print(f"{len(final)} spheres, t = {times[-1]:.3g} s: kinetic energy {energies[-1]:.3g} J, "
          f"mean height {heights[-1].mean():.3f} m, top {final[:, 2].max():.3f} m")
    plot(times, energies, heights, final, args.out)


if __name__ == "__main__":
    main()
