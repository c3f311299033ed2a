#!/usr/bin/env python3
"""The 1000-sphere pour of docs/performance.md: nscd, and YADE side by side when `yade` is
installed (Debian's `yade`; bench/yade_pour.py runs the same spheres).

Writes the scene with scenes/gen_pile.py (spheres of radius 0.05 m +/- 10 %, density 2500,
mu = 0.4, e = 0.1, poured from a loose grid into a 1 x 1 m box, h = 1e-3), runs `nscd run` on it
once per duration with one thread, and prints one table row per engine and time:

  CPU time [s]   user + system time of the child process (nscd: the whole run, output included;
                 YADE: the time stepping only, see yade_pour.py)
  steps          time steps taken
  overlap during the deepest overlap [m] over the run: nscd, the largest max_penetration of
                 history.csv (every step's active contacts at its start); YADE, the largest
                 penetrationDepth sampled every 1e-3 s
  overlap at rest the deepest (and mean) overlap [m] of the spheres at the end, from their
                 positions (nscd: bodies.csv; YADE: its bodies) and radii, the same computation
                 for both (pour_figures.py)
  pile top, mean height  max(z + r) and the mean centre height [m]
  kinetic energy  [J] at the end

  python3 bench/bench_pour.py                                  # nscd, 1.5 s and 3 s
  python3 bench/bench_pour.py --yade                           # and YADE, E = 35 GPa and 35 MPa
  python3 bench/bench_pour.py --yade --durations 1.5 --json /tmp/pour.json

Run it on a quiet machine (`nice -n 10` when sharing it); the YADE run at 35 GPa takes a few
minutes of CPU.
"""

import argparse
import csv
import json
import os
import resource
import subprocess
import sys

import pour_figures

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def child_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def write_scene(path, count, duration, seed):
    subprocess.run([sys.executable, os.path.join(ROOT, "scenes", "gen_pile.py"), "--count", str(count),
                    "--seed", str(seed), "--interior", "1", "--wall-height", "2", "--duration", str(duration),
                    "--output-interval", "0.1", "--out", path], check=True)


def final_positions(bodies_csv, names):
    """Centres of the spheres `names` at the last time of bodies.csv."""
    rows = {}
    with open(bodies_csv, newline="") as f:
        for r in csv.DictReader(f):
            rows.setdefault(r["time"], {})[r["body"]] = (float(r["x"]), float(r["y"]), float(r["z"]))
    last = rows[max(rows, key=float)]
    return [last[n] for n in names]


def run_nscd(nscd, scene, out):
    _, spheres, boxes = pour_figures.read_scene_spheres_and_boxes(scene)
    start = child_cpu_seconds()
    subprocess.run([nscd, "run", scene, "--out", out, "--threads", "1", "--overwrite", "--quiet"], check=True)
    cpu = child_cpu_seconds() - start
    with open(os.path.join(out, "history.csv"), newline="") as f:
        history = list(csv.DictReader(f))
    with open(os.path.join(out, "run.json"), encoding="utf-8") as f:
        run = json.load(f)
    centres = final_positions(os.path.join(out, "bodies.csv"), [name for name, _, _ in spheres])
    radii = [r for _, _, r in spheres]
    rest, mean = pour_figures.deepest_overlap(centres, radii, boxes)
    top, mean_height = pour_figures.pile_heights(centres, radii)
    return {"engine": "nscd", "time": float(history[-1]["time"]), "cpu_seconds": cpu, "steps": len(history),
            "deepest_overlap_during": max(float(r["max_penetration"]) for r in history),
            "deepest_overlap_at_rest": rest, "mean_overlap_at_rest": mean, "pile_top": top,
            "mean_centre_height": mean_height, "kinetic_energy": float(history[-1]["kinetic_energy"]),
            "non_converged_steps": run["non_converged_steps"]}


def run_yade(yade, scene, out, young, durations):
    start = child_cpu_seconds()
    subprocess.run([yade, "-j1", "-n", "-x", os.path.join(HERE, "yade_pour.py"), scene, out, "--young", str(young),
                    "--duration", str(max(durations)), "--snapshots", *map(str, durations)], check=True,
                   stdout=subprocess.DEVNULL)
    process_cpu = child_cpu_seconds() - start
    with open(out, encoding="utf-8") as f:
        result = json.load(f)
    rows = []
    for row in result["rows"]:
        row.update({"engine": f"yade E = {young:.3g} Pa, dt = {result['time_step']:.3g} s",
                    "process_cpu_seconds": process_cpu})
        rows.append(row)
    return rows


def table(rows):
    lines = ["| engine | t [s] | CPU [s] | steps | deepest overlap during [mm] | deepest overlap at rest [mm] | "
             "mean overlap at rest [mm] | pile top [m] | mean centre height [m] | kinetic energy [J] |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['engine']} | {r['time']:.3g} | {r['cpu_seconds']:.3g} | {r['steps']} | "
                     f"{1e3 * r['deepest_overlap_during']:.3g} | {1e3 * r['deepest_overlap_at_rest']:.3g} | "
                     f"{1e3 * r['mean_overlap_at_rest']:.3g} | {r['pile_top']:.3f} | "
                     f"{r['mean_centre_height']:.3f} | {r['kinetic_energy']:.3g} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nscd", default=os.path.join(ROOT, "build", "bin", "nscd"))
    parser.add_argument("--count", type=int, default=1000, help="spheres (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--durations", type=float, nargs="+", default=[1.5, 3.0], help="simulated times [s]")
    parser.add_argument("--yade", action="store_true", help="also run YADE (yade_pour.py)")
    parser.add_argument("--yade-young", type=float, nargs="+", default=[35e9, 35e6],
                        help="YADE's Young's moduli [Pa] (default 35 GPa and the softened 35 MPa)")
    parser.add_argument("--work", default="/tmp/bench_pour", help="folder of the scenes and outputs")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rows = []
    for duration in args.durations:
        scene = os.path.join(args.work, f"pour_{duration:g}s.json")
        write_scene(scene, args.count, duration, args.seed)
        rows.append(run_nscd(args.nscd, scene, os.path.join(args.work, f"nscd_{duration:g}s")))
        print(table(rows[-1:]).splitlines()[-1], flush=True)
    if args.yade:
        # the same spheres: the scene of the longest run (the position list does not depend on the duration)
        scene = os.path.join(args.work, f"pour_{max(args.durations):g}s.json")
        for young in args.yade_young:
            rows += run_yade("yade", scene, os.path.join(args.work, f"yade_{young:g}.json"), young, args.durations)
            print(table(rows[-len(args.durations):]).split("\n", 2)[2], flush=True)
    print(table(rows))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
