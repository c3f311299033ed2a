#!/usr/bin/env python3
"""Draw the energy balance of an nscd run from its history.csv.

    python3 tools/plot_energy.py RUN_DIR OUT.png

RUN_DIR is an output directory of `nscd run`; its history.csv gives, per step, the energies of the
state and the cumulative dissipations and works (docs/output.md, docs/method.md "Energy balance").
Upper panel, against time [s]: the change of mechanical energy E - E0 (kinetic + gravitational +
elastic, E0 at t = 0), the change of its kinetic, gravitational and elastic parts since the first
step, the energy
dissipated by friction, impacts and damping, and the work of driven bodies and of the position
projection [J]. Lower panel: the balance error energy_error [J].

Needs only the standard library and matplotlib (Debian: python3-matplotlib).
Exit codes: 0 success, 1 matplotlib missing, 2 invalid input (missing or malformed file).
"""

import csv
import os
import sys

EXIT_INVALID_INPUT = 2
ENERGIES = ("kinetic_energy", "gravitational_energy", "elastic_energy")
FLOWS = (("friction_dissipated", "dissipated by friction"), ("impact_dissipated", "dissipated by impacts"),
         ("damping_dissipated", "dissipated by damping"), ("driven_work", "work of driven bodies"),
         ("load_work", "work of applied loads"), ("projection_work", "work of the projection"))
COLUMNS = ("time",) + ENERGIES + tuple(c for c, _ in FLOWS) + ("energy_error",)


def fail(message):
    """Prints an input error and exits with code 2."""
    print(f"plot_energy.py: error: {message}", file=sys.stderr)
    sys.exit(EXIT_INVALID_INPUT)


def read_history(run_dir):
    """{column: list of floats} of RUN_DIR/history.csv for COLUMNS."""
    path = os.path.join(run_dir, "history.csv")
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                fail(f"{path}: no column {', '.join(missing)} (a history.csv of an nscd without the energy balance?)")
            columns = {c: [] for c in COLUMNS}
            for line, row in enumerate(reader, start=2):
                for c in COLUMNS:
                    try:
                        columns[c].append(float(row[c]))
                    except (TypeError, ValueError):
                        fail(f"{path}, line {line}: column {c}: expected a number, got {row[c]!r}")
    except OSError as e:
        fail(f"{path}: cannot read: {e.strerror}")
    if not columns["time"]:
        fail(f"{path}: no steps")
    return columns


def initial_energy(h):
    """E0 from the first row: E - E0 - W_driven - W_loads - W_projection + D = error (docs/method.md eq. (6))."""
    energy = sum(h[c][0] for c in ENERGIES)
    return (energy - h["driven_work"][0] - h["load_work"][0] - h["projection_work"][0] + h["friction_dissipated"][0]
            + h["impact_dissipated"][0] + h["damping_dissipated"][0] - h["energy_error"][0])


def main(argv):
    if len(argv) != 3:
        print("usage: " + __doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return EXIT_INVALID_INPUT
    run_dir, out = argv[1:]
    h = read_history(run_dir)
    try:
        import matplotlib
    except ImportError:
        print("plot_energy.py: needs matplotlib (Debian package python3-matplotlib)", file=sys.stderr)
        return 1
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t = h["time"]
    e0 = initial_energy(h)
    mechanical = [sum(h[c][k] for c in ENERGIES) - e0 for k in range(len(t))]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True, gridspec_kw={"height_ratios": (3, 1)})
    top.plot(t, mechanical, color="black", linewidth=2, label="E - E0")
    for c in ENERGIES:
        top.plot(t, [x - h[c][0] for x in h[c]], linestyle=":", label=c.replace("_", " ") + " (change)")
    for c, label in FLOWS:
        top.plot(t, h[c], label=label)
    top.set_ylabel("energy [J]")
    top.set_title(f"energy balance: {run_dir}")
    top.legend(fontsize="small")
    top.grid(True, alpha=0.3)
    bottom.plot(t, h["energy_error"], color="tab:red")
    bottom.set_xlabel("time [s]")
    bottom.set_ylabel("balance error [J]")
    bottom.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
