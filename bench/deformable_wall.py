#!/usr/bin/env python3
"""Deformable blocks at scale (docs/performance.md): a running-bond wall of 200 blocks on the
shaking table, or the arch of scenes/arch.json, rigid and with every block FFR, full mesh or
reduced to k elastic modes.

Writes the scene into --work: the wall with scenes/gen_wall.py (--courses 16 --bricks 12 --table:
8 courses of 12 bricks and 8 of 13, 200 blocks), its table shaken from t = 0 (the scene's 0.5 s
start moved to 0, so that a short run is shaken), or scenes/arch.json (--scene arch); with
"meshing": {"size": --mesh-size} and CSV output only. Runs
`nscd run SCENE --threads N --duration T --quiet [--solver S]` once per --runs entry (--solver:
every run's solver instead of the scene's, NLGS at 1e-5 or 1e-4):

  rigid      the scene as it is (rigid blocks)
  ffr        --model ffr --modes 0: every block an FFR body on its full tetrahedral mesh
  ffr:K      --model ffr --modes K: every block reduced to its K lowest elastic modes
  ffr:K:shape, ffr::shape   the same with --contact-surface shape: contact on the blocks' faces
                            (docs/method.md, "Contact on the shapes' faces")
  ffr:K:euler, ffr:K:shape:euler   with --unresolved-modes backward_euler: the modes with h ω > 2
                            integrated with θ = 1 (docs/method.md, "Modal reduction")

and prints one Markdown table row per run:

  nodes per block   of the FFR meshes: fewest, mean, most (needs the Python module nscd on the
                    path, PYTHONPATH=build/python; "-" without it)
  contact points    n_contacts of history.csv at the first and the last step (and the most)
  time per step     median of history.csv's wall_seconds over the steps (wall time: it depends on
                    the machine's load) and its ratio to the rigid run's
  CPU               user + system time of the nscd process for the whole run (start-up, meshing
                    and modal analyses included), and divided by the steps
  iterations        solver_iterations per step: median and most (NLGS sweeps; with FFR bodies,
                    summed over the solves of Algorithm 1's outer iterations)
  stages            the share of run.json's stage_seconds: free motion (FFR free solves included),
                    detection, assembly, solve (Algorithm 1's W updates included), update, output

  python3 bench/deformable_wall.py                                 # wall: rigid, ffr:12
  python3 bench/deformable_wall.py --runs rigid ffr:12 ffr --duration 0.02
  python3 bench/deformable_wall.py --scene arch --mesh-size 0.15 --runs rigid ffr:12 ffr --duration 0.01

Runs are long with many contact points: a few steps of the wall with 12 modes take minutes.
Exit code 2 on bad options, 1 if a run failed.
"""

import argparse
import csv
import json
import os
import resource
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
STAGES = ("free_motion", "detection", "assembly", "solve", "update", "output")


def child_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_spec(text):
    """rigid, ffr, ffr:K, then :shape and :euler in any order -> (label, extra nscd run arguments)."""
    if text == "rigid":
        return text, []
    model, modes, *flags = text.split(":") + [""]
    flags = [f for f in flags if f]
    if model != "ffr" or (modes and not modes.isdigit()) or any(f not in ("shape", "euler") for f in flags):
        raise argparse.ArgumentTypeError(f"{text}: expected rigid, ffr or ffr:K (K modes, K >= 0), then :shape "
                                         "and :euler if wanted (ffr:12:shape:euler, ffr::shape)")
    return text, (["--model", "ffr", "--modes", modes or "0"] + (["--contact-surface", "shape"] if "shape" in flags else [])
                  + (["--unresolved-modes", "backward_euler"] if "euler" in flags else []))


def write_scene(args, path):
    """The wall or the arch, meshed at --mesh-size, CSV output only; returns the scene dict."""
    if args.scene == "wall":
        subprocess.run([sys.executable, os.path.join(ROOT, "scenes", "gen_wall.py"), "--courses", str(args.courses),
                        "--bricks", str(args.bricks), "--table", "--out", path], check=True)
        with open(path, encoding="utf-8") as f:
            scene = json.load(f)
        scene["bodies"][0]["motion"]["velocity"]["start"] = 0.0
    else:
        with open(os.path.join(ROOT, "scenes", "arch.json"), encoding="utf-8") as f:
            scene = json.load(f)
    scene["meshing"] = {"size": args.mesh_size}
    scene["output"] = {"vtk": False, "csv": True}
    scene["time"]["output_interval"] = args.duration
    with open(path, "w", encoding="utf-8") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")
    return scene


def nodes_per_block(path):
    """(fewest, mean, most) nodes of the blocks' FFR meshes, or None without the Python module."""
    try:
        import nscd
    except ImportError:
        return None
    sim = nscd.Simulation(path, threads=1, model="ffr")
    counts = [len(sim.nodal_displacements(name)) for name, model in zip(sim.body_names, sim.body_models)
              if model == "ffr"]
    return min(counts), statistics.mean(counts), max(counts)


def run_nscd(args, scene, label, extra):
    out = os.path.join(args.work, f"{args.scene}_{label.replace(':', '_')}")
    start = child_cpu_seconds()
    done = subprocess.run([args.nscd, "run", scene, "--out", out, "--overwrite", "--threads", str(args.threads),
                           "--duration", str(args.duration), "--quiet",
                           *(["--solver", args.solver] if args.solver else []), *extra])
    cpu = child_cpu_seconds() - start
    if done.returncode != 0:
        print(f"{label}: nscd run exited with code {done.returncode} (see {out})", file=sys.stderr)
        return None
    with open(os.path.join(out, "history.csv"), newline="") as f:
        history = list(csv.DictReader(f))
    with open(os.path.join(out, "run.json"), encoding="utf-8") as f:
        run = json.load(f)
    contacts = [int(r["n_contacts"]) for r in history]
    iterations = [int(r["solver_iterations"]) for r in history]
    stages = run["stage_seconds"]
    total = sum(stages.get(s, 0.0) for s in STAGES)
    return {"run": label, "steps": len(history), "cpu_seconds": cpu,
            "step_seconds": statistics.median(float(r["wall_seconds"]) for r in history),
            "contacts": (contacts[0], contacts[-1], max(contacts)),
            "iterations": (statistics.median(iterations), max(iterations)),
            "non_converged_steps": run["non_converged_steps"],
            "stage_shares": {s: stages.get(s, 0.0) / total for s in STAGES} if total > 0 else {}}


def table(rows, nodes):
    rigid = next((r["step_seconds"] for r in rows if r["run"] == "rigid"), None)
    mesh = "-" if nodes is None else f"{nodes[0]}, {nodes[1]:.0f}, {nodes[2]}"
    lines = ["| run | nodes per block (fewest, mean, most) | contact points (first, last, most) | steps | "
             "time per step (median) | / rigid | CPU [s] (per step) | iterations per step (median, most) | not converged | "
             "stages: free motion, detection, assembly, solve, update, output |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ratio = f"{r['step_seconds'] / rigid:.3g}" if rigid else "-"
        shares = ", ".join(f"{100 * r['stage_shares'].get(s, 0):.0f} %" for s in STAGES)
        lines.append(f"| {r['run']} | {'-' if r['run'] == 'rigid' else mesh} | "
                     f"{r['contacts'][0]}, {r['contacts'][1]}, {r['contacts'][2]} | {r['steps']} | "
                     f"{1e3 * r['step_seconds']:.3g} ms | {ratio} | {r['cpu_seconds']:.3g} ({r['cpu_seconds'] / r['steps']:.3g}) | "
                     f"{r['iterations'][0]:g}, {r['iterations'][1]} | {r['non_converged_steps']} | {shares} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nscd", default=os.path.join(ROOT, "build", "bin", "nscd"))
    parser.add_argument("--scene", choices=("wall", "arch"), default="wall")
    parser.add_argument("--courses", type=int, default=16, help="wall: courses (default 16)")
    parser.add_argument("--bricks", type=int, default=12, help="wall: full bricks per even course (default 12)")
    parser.add_argument("--mesh-size", type=float, default=1.0, help="meshing.size [m] (default 1)")
    parser.add_argument("--duration", type=float, default=0.01, help="simulated time [s] (default 0.01)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--solver", help="every run's solver (nscd run --solver), instead of the scene's nlgs")
    parser.add_argument("--runs", type=run_spec, nargs="+", default=[run_spec("rigid"), run_spec("ffr:12")],
                        help="rigid, ffr (full mesh), ffr:K (K modes), ffr:K:shape or ffr::shape (contact on the "
                             "faces); default: rigid ffr:12")
    parser.add_argument("--work", default="/tmp/deformable_wall", help="folder of the scene and the outputs")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    if args.mesh_size <= 0 or args.duration <= 0 or args.threads <= 0:
        parser.error("--mesh-size, --duration and --threads must be positive")
    os.makedirs(args.work, exist_ok=True)
    scene = os.path.join(args.work, f"{args.scene}.json")
    data = write_scene(args, scene)
    print(f"{scene}: {len(data['bodies'])} bodies, meshing.size {args.mesh_size:g} m", flush=True)
    nodes = nodes_per_block(scene) if any(extra for _, extra in args.runs) else None
    rows = []
    for label, extra in args.runs:
        row = run_nscd(args, scene, label, extra)
        if row is None:
            return 1
        rows.append(row)
        print(table(rows[-1:], nodes).splitlines()[-1], flush=True)
    print(table(rows, nodes))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"nodes_per_block": nodes, "rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
