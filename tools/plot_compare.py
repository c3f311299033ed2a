#!/usr/bin/env python3
"""Draw the probe displacement histories of two nscd runs on the same axes (for `nscd compare`).

    python3 tools/plot_compare.py RUN_DIR_A RUN_DIR_B OUT.png

RUN_DIR_A and RUN_DIR_B are output directories of `nscd run` (of one scene, or of two scene
files with the same probes); their probes.csv (time,probe,x,y,z,ux,uy,uz) give the histories,
their run.json the --model of each run for the legend. One panel per probe (the first 24, in B's
order): the displacement components ux, uy, uz [m] against time [s], run A in wide pale lines,
the reference run B dashed on top, one colour per component; the legend above the panels.
`nscd compare` calls this script with the Python interpreter chosen when nscd was configured,
once that interpreter has imported matplotlib.

Needs only the standard library and matplotlib (Debian: python3-matplotlib).
Exit codes: 0 success, 1 matplotlib missing, 2 invalid input (missing or malformed file).
"""

import csv
import json
import math
import os
import sys

EXIT_INVALID_INPUT = 2
MAX_PANELS = 24
COMPONENTS = ("ux", "uy", "uz")
COLOURS = ("tab:blue", "tab:orange", "tab:green")
STYLE_A = {"linestyle": "-", "linewidth": 2.4, "alpha": 0.5}
STYLE_B = {"linestyle": "--", "linewidth": 1.2}
LEGEND_LINE = 0.25  # height of one line of a legend in font size "small" [in]


def fail(message):
    """Prints an input error and exits with code 2."""
    print(f"plot_compare.py: error: {message}", file=sys.stderr)
    sys.exit(EXIT_INVALID_INPUT)


def read_probes(run_dir):
    """{probe name: (times, [ux list, uy list, uz list])} from RUN_DIR/probes.csv, in file order."""
    path = os.path.join(run_dir, "probes.csv")
    probes = {}
    try:
        with open(path, newline="") as f:
            for line, row in enumerate(csv.DictReader(f), start=2):
                try:
                    times, values = probes.setdefault(row["probe"], ([], ([], [], [])))
                    times.append(float(row["time"]))
                    for column, component in zip(values, COMPONENTS):
                        column.append(float(row[component]))
                except (KeyError, TypeError, ValueError):
                    fail(f"{path}:{line}: expected the columns time,probe,x,y,z,ux,uy,uz with numbers")
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    return probes


def run_label(name, run_dir):
    """'A: out/ffr (--model ffr)' from RUN_DIR/run.json, or without the model if it cannot be read."""
    try:
        with open(os.path.join(run_dir, "run.json")) as f:
            model = json.load(f).get("model_override")
    except (OSError, ValueError):
        model = None
    return f"{name}: {run_dir}" + (f" (--model {model})" if model else "")


def main(argv):
    if len(argv) != 4:
        print("usage: " + __doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return EXIT_INVALID_INPUT
    dir_a, dir_b, out = argv[1:]
    try:
        import matplotlib
    except ImportError:
        print("plot_compare.py: needs matplotlib (Debian package python3-matplotlib)", file=sys.stderr)
        return 1
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    probes_a, probes_b = read_probes(dir_a), read_probes(dir_b)
    names = [n for n in probes_b if n in probes_a][:MAX_PANELS]
    if not names:
        fail(f"{dir_a} and {dir_b}: no probe in common")

    columns = 1 if len(names) == 1 else 2
    rows = math.ceil(len(names) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(6.5 * columns, 3.2 * rows + 0.8), squeeze=False)
    for ax, name in zip(axes.flat, names):
        # A wide and pale, B thin and dashed on top: both stay visible where they coincide
        for (times, values), style in ((probes_a[name], STYLE_A), (probes_b[name], STYLE_B)):
            for column, colour in zip(values, COLOURS):
                ax.plot(times, column, color=colour, **style)
        ax.set_title(f"probe {name}")
        ax.set_xlabel("time [s]")
        ax.set_ylabel("displacement [m]")
        ax.grid(True, alpha=0.3)
    for ax in list(axes.flat)[len(names):]:
        ax.set_visible(False)

    # above the panels: the components on one line, then one line per run (run directories can be
    # long); bbox_inches="tight" widens the picture rather than clip a label wider than the panels
    height = fig.get_figheight()
    components = [Line2D([], [], color=c, label=n) for n, c in zip(COMPONENTS, COLOURS)]
    runs = [Line2D([], [], color="black", label=run_label("A", dir_a), **STYLE_A),
            Line2D([], [], color="black", label=run_label("B", dir_b) + ", reference", **STYLE_B)]
    fig.legend(handles=components, loc="upper center", bbox_to_anchor=(0.5, 1), ncol=len(components),
               fontsize="small", frameon=False)
    fig.legend(handles=runs, loc="upper center", bbox_to_anchor=(0.5, 1 - LEGEND_LINE / height), ncol=1,
               fontsize="small", frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - 2.6 * LEGEND_LINE / height))
    fig.savefig(out, dpi=110, bbox_inches="tight")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
