#!/usr/bin/env python3
"""Convergence benchmark of the solver policies on the masonry scenes (docs/performance.md).

Runs `nscd run` on one thread for each case and solver, and prints a Markdown table from each
run's history.csv: wall time per step (median and largest, over the steps after `--from` s),
solver iterations and factorisations per step (median), the steps that stopped short of the
tolerance, and which stage finished the steps.

  bench/bench_convergence.py [--nscd build/bin/nscd] [--out out/bench_convergence] [--cases a,b]
                             [--solvers nlgs,auto] [--hard-duration 1.5]

The harder shake is the wall of scenes/wall_shaking_table.json on a table shaken at 1.5 m/s,
2 Hz, along (1, 0.3, 0), from t = 0.5 s to --hard-duration; it is written next to the outputs.
"""
import argparse
import csv
import json
import pathlib
import statistics
import subprocess
import sys
from collections import Counter

ROOT = pathlib.Path(__file__).resolve().parent.parent


def hard_shake(out: pathlib.Path, tolerance: float, duration: float) -> pathlib.Path:
    scene = json.loads((ROOT / "scenes/wall_shaking_table.json").read_text())
    scene["name"] = "wall_hard_shake"
    scene["time"]["duration"] = duration
    scene["solver"]["tolerance"] = tolerance
    scene["solver"]["max_iterations"] = 10000
    motion = scene["bodies"][0]["motion"]["velocity"]
    motion.update({"amplitude": 1.5, "angular_frequency": 4 * 3.141592653589793, "direction": [1, 0.3, 0]})
    path = out / f"wall_hard_shake_{tolerance:g}.json"
    path.write_text(json.dumps(scene, indent=1))
    return path


def with_tolerance(out: pathlib.Path, name: str, tolerance: float) -> pathlib.Path:
    scene = json.loads((ROOT / f"scenes/{name}.json").read_text())
    scene["solver"]["tolerance"] = tolerance
    path = out / f"{name}_{tolerance:g}.json"
    path.write_text(json.dumps(scene, indent=1))
    return path


def summary(history: pathlib.Path, start: float, tolerance: float) -> dict:
    rows = [r for r in csv.DictReader(history.open()) if float(r["time"]) > start]
    wall = [1e3 * float(r["wall_seconds"]) for r in rows]
    return {
        "steps": len(rows),
        "median_ms": statistics.median(wall),
        "max_ms": max(wall),
        "iterations": statistics.median(int(r["solver_iterations"]) for r in rows),
        "factorizations": statistics.median(int(r["solver_factorizations"]) for r in rows),
        "short": sum(1 for r in rows if float(r["solver_error"]) > tolerance),
        "stages": dict(Counter(r["solver_stage"] for r in rows)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nscd", default=str(ROOT / "build/bin/nscd"))
    parser.add_argument("--out", default=str(ROOT / "out/bench_convergence"))
    parser.add_argument("--cases", default="static,shaking,hard")
    parser.add_argument("--solvers", default="nlgs,auto")
    parser.add_argument("--hard-duration", type=float, default=1.5)
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    # (name, scene, tolerance, statistics from this time on)
    cases = {
        "static": [("wall_static.json at 1e-4", ROOT / "scenes/wall_static.json", 1e-4, 0.0)],
        "shaking": [("wall_shaking_table.json at 1e-5", ROOT / "scenes/wall_shaking_table.json", 1e-5, 0.5),
                    ("wall_shaking_table.json at 1e-8", with_tolerance(out, "wall_shaking_table", 1e-8), 1e-8, 0.5)],
        "hard": [("harder shake at 1e-8", hard_shake(out, 1e-8, args.hard_duration), 1e-8, 0.5)],
    }
    print("| case | solver | steps | ms/step median | ms/step max | iterations | factorisations | steps short of tol | finished by |")
    print("|---|---|---|---|---|---|---|---|---|")
    for key in args.cases.split(","):
        for name, scene, tolerance, start in cases[key]:
            for solver in args.solvers.split(","):
                run_dir = out / f"{scene.stem}_{solver}"
                subprocess.run([args.nscd, "run", str(scene), "--solver", solver, "--threads", "1", "--out",
                                str(run_dir), "--overwrite", "--quiet"], check=False)
                s = summary(run_dir / "history.csv", start, tolerance)
                stages = ", ".join(f"{k} {v}" for k, v in sorted(s["stages"].items()))
                print(f"| {name} | {solver} | {s['steps']} | {s['median_ms']:.2f} | {s['max_ms']:.1f} | "
                      f"{s['iterations']:g} | {s['factorizations']:g} | {s['short']} | {stages} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
