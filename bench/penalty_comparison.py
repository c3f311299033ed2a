#!/usr/bin/env python3
"""What the exact contact law buys over penalty contact (docs/performance.md, "Penalty contact").

Runs two scenes with the non-smooth law (nscd) and with penalty contact of several stiffnesses,
one thread each, and prints a Markdown table from each run's history.csv and bodies.csv:

- scenes/stack10.json, ten 1 000 kg cubes stacked at rest (2 s): the steps, the deepest overlap
  and the CPU time;
- scenes/incline_stick.json, a block resting on a 20° slope below its friction angle (10 s):
  how far it creeps down the slope.

The penalty runs take the damping ratio --zeta of the lightest body on one joint and the largest
step the program accepts, scaled by --step-fraction (below 1: the stack's highest mode is
stiffer than one joint's, docs/method.md).

  bench/penalty_comparison.py [--nscd build/bin/nscd] [--out out/penalty_comparison]
                              [--stiffness 1e8,1e9,1e10] [--zeta 0.2] [--step-fraction 0.4]
"""
import argparse
import csv
import json
import math
import pathlib
import resource
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MASS = 1000.0  # both scenes' blocks: 1 m³ of density 1000


def positive_list(text):
    try:
        values = [float(x) for x in text.split(",")]
    except ValueError:
        values = []
    if not values or any(not math.isfinite(v) or v <= 0 for v in values):
        raise argparse.ArgumentTypeError(f"expected positive numbers separated by commas, got {text!r}")
    return values


def variant(scene_file, out, stiffness, zeta, step_fraction, duration):
    """The scene with penalty contact of `stiffness` (None: unchanged), written into `out`."""
    scene = json.loads((ROOT / "scenes" / scene_file).read_text())
    scene["time"]["duration"] = duration
    scene["time"]["output_interval"] = duration / 10
    if stiffness is not None:
        omega = math.sqrt(stiffness / MASS)
        scene["contact"] = {"model": "penalty", "stiffness": stiffness,
                            "damping": 2 * zeta * math.sqrt(stiffness * MASS)}
        critical = 2 / omega * (math.sqrt(1 + zeta * zeta) - zeta)
        scene["time"]["step"] = min(scene["time"]["step"], step_fraction * critical)
        scene["time"]["output_interval"] = max(scene["time"]["output_interval"], scene["time"]["step"])
    path = out / f"{pathlib.Path(scene_file).stem}_{'nscd' if stiffness is None else f'k{stiffness:g}'}.json"
    path.write_text(json.dumps(scene, indent=1))
    return path, scene["time"]["step"]


def run(nscd, scene, out):
    """Runs nscd on `scene` into `out`; returns the CPU seconds of the child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([nscd, "run", str(scene), "--out", str(out), "--overwrite", "--threads", "1", "--quiet"],
                   check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def history(out):
    with open(out / "history.csv", newline="") as f:
        return list(csv.DictReader(f))


def creep(out):
    """The block's travel from its initial position to the last output [m] (bodies.csv)."""
    with open(out / "bodies.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["body"] == "block"]
    first, last = rows[0], rows[-1]
    return math.dist([float(first[c]) for c in "xyz"], [float(last[c]) for c in "xyz"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nscd", default=str(ROOT / "build/bin/nscd"))
    parser.add_argument("--out", default="out/penalty_comparison")
    parser.add_argument("--stiffness", type=positive_list, default=[1e8, 1e9, 1e10])
    parser.add_argument("--zeta", type=float, default=0.2)
    parser.add_argument("--step-fraction", type=float, default=0.4)
    args = parser.parse_args()
    if not 0 <= args.zeta < 1 or not 0 < args.step_fraction <= 1:
        parser.error("expected 0 ≤ --zeta < 1 and 0 < --step-fraction ≤ 1")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    print("| contact | k_n [N/m] | h [s] | stack: steps | stack: deepest overlap [m] | stack: CPU [s] "
          "| incline: creep in 10 s [m] |")
    print("|---|---|---|---|---|---|---|")
    for stiffness in [None] + args.stiffness:
        stack, h = variant("stack10.json", out, stiffness, args.zeta, args.step_fraction, 2.0)
        cpu = run(args.nscd, stack, out / stack.stem)
        rows = history(out / stack.stem)
        overlap = max(float(r["max_penetration"]) for r in rows)
        incline, _ = variant("incline_stick.json", out, stiffness, args.zeta, args.step_fraction, 10.0)
        run(args.nscd, incline, out / incline.stem)
        name, k = ("nscd", "–") if stiffness is None else ("penalty", f"{stiffness:g}")
        print(f"| {name} | {k} | {h:.3g} | {rows[-1]['step']} | {overlap:.3g} | {cpu:.1f} "
              f"| {creep(out / incline.stem):.3g} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
