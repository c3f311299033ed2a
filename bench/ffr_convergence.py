#!/usr/bin/env python3
"""Convergence of the FFR-TL difference on Lozovskiy & Dubois (2016) section 4.2 (docs/validation.md).

Builds variants of scenes/ffr_three_blocks.json, one factor at a time around the reference
(mesh 4x4x8 hexahedra per block, h = 1e-4 s, solver tolerance 1e-5): each other mesh, each other
time step, each other tolerance (`tolerance` and `inner_tolerance` of the solver). Runs
`nscd run --model ffr|tl --threads 1 --quiet` on each up to --duration (1.0 s, before the
chaotic rocking), at most --jobs runs at once, the dearest first, and prints Markdown tables:

- per variant, the FFR-TL difference of the probe `upper_top_face` (u_x, the mean x displacement
  of the upper block's top face) over the output times t <= --duration,
      ||u - u_tl|| / ||u_tl||   (and max_t |u - u_tl| / max_t |u_tl|),
  the difference of each model to its own reference-variant run, and the CPU time (user + system,
  of the nscd process) per simulated second;
- per factor, the change of each model's u_x from one level to the next (relative to the finer);
- the solver's work per run: solver iterations per step (median), steps short of the tolerance;
- with --envelope-duration T, the reference variant runs to T instead, and the envelope of u_x
  after --duration: the peak |u_x| in each window [t, t + --window) of FFR and TL.

  bench/ffr_convergence.py [--nscd build/bin/nscd] [--out out/ffr_convergence] [--models ffr,tl]
                           [--meshes 2x2x4,4x4x8,8x8x16] [--steps 5e-5,1e-4,2e-4]
                           [--tolerances 1e-5,1e-6,1e-7] [--duration 1.0] [--envelope-duration 1.5]
                           [--window 0.1] [--jobs 1] [--dry-run | --report]

A run whose directory already holds a completed run of the same scene, model and duration is not
run again (delete the directory to redo it); --report prints the tables from the runs already in
--out and runs nothing; --dry-run lists the runs and writes nothing. Exit code 2 on bad options,
1 if a run failed.
"""
import argparse
import concurrent.futures
import csv
import hashlib
import json
import math
import os
import pathlib
import subprocess
import sys
from typing import NamedTuple

from bench_convergence import ROOT, summary

SCENE = ROOT / "scenes/ffr_three_blocks.json"
PROBE = "upper_top_face"
REFERENCE_MESH = (4, 4, 8)
REFERENCE_STEP = 1e-4
REFERENCE_TOLERANCE = 1e-5
MODELS = ("ffr", "tl")
# Relative cost of a TL step against an FFR step of the same mesh (docs/performance.md, section 4.2).
TL_COST = 32.0


class Variant(NamedTuple):
    mesh: tuple
    step: float
    tolerance: float

    @property
    def name(self) -> str:
        return f"{'x'.join(map(str, self.mesh))}_h{self.step:g}_tol{self.tolerance:g}"

    @property
    def label(self) -> str:
        return f"{'×'.join(map(str, self.mesh))}, h = {self.step:g}, tol {self.tolerance:g}"


REFERENCE = Variant(REFERENCE_MESH, REFERENCE_STEP, REFERENCE_TOLERANCE)


class Run(NamedTuple):
    variant: Variant
    model: str
    duration: float

    @property
    def directory(self) -> str:
        return f"{self.model}_{self.variant.name}_T{self.duration:g}"

    @property
    def cost(self) -> float:
        nodes = math.prod(n + 1 for n in self.variant.mesh)
        return (TL_COST if self.model == "tl" else 1.0) * nodes * self.duration / self.variant.step


def scene_text(variant: Variant) -> str:
    """The section 4.2 scene with the variant's mesh, step and tolerances; CSV output only."""
    scene = json.loads(SCENE.read_text())
    scene["name"] = f"ffr_three_blocks_{variant.name}"
    scene["time"]["step"] = variant.step
    scene["solver"]["tolerance"] = variant.tolerance
    scene["solver"]["inner_tolerance"] = variant.tolerance
    scene["output"] = {"vtk": False, "csv": True}
    for body in scene["bodies"]:
        if "elements" in body:
            body["elements"] = list(variant.mesh)
    return json.dumps(scene, indent=1) + "\n"


def variants(meshes: list, steps: list, tolerances: list) -> list:
    """The reference, then one factor changed at a time."""
    out = [REFERENCE]
    out += [REFERENCE._replace(mesh=m) for m in meshes if m != REFERENCE.mesh]
    out += [REFERENCE._replace(step=h) for h in steps if h != REFERENCE.step]
    out += [REFERENCE._replace(tolerance=t) for t in tolerances if t != REFERENCE.tolerance]
    return out


def run_duration(variant: Variant, args) -> float:
    return args.envelope_duration if variant == REFERENCE and args.envelope_duration else args.duration


def completed(run: Run, out: pathlib.Path) -> bool:
    """Whether out/<run> holds a completed run of this scene, model and duration."""
    path = out / run.directory / "run.json"
    if not path.exists() or not (out / run.directory / "cpu.json").exists():
        return False
    info = json.loads(path.read_text())
    sha = hashlib.sha256(scene_text(run.variant).encode()).hexdigest()
    return (info.get("status") == "completed" and info.get("scene_sha256") == sha
            and info.get("model_override") == run.model
            and abs(info.get("simulated_time", 0.0) - run.duration) < 0.5 * run.variant.step)


def command(run: Run, out: pathlib.Path, nscd: str) -> list:
    return [nscd, "run", str(out / "scenes" / f"{run.variant.name}.json"), "--model", run.model,
            "--duration", f"{run.duration:g}", "--threads", "1", "--out", str(out / run.directory),
            "--overwrite", "--quiet"]


def execute(run: Run, out: pathlib.Path, nscd: str) -> int:
    """Runs nscd and writes its CPU time (user + system, from wait4) to cpu.json beside run.json."""
    process = subprocess.Popen(command(run, out, nscd))
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode == 0:
        (out / run.directory / "cpu.json").write_text(
            json.dumps({"user": usage.ru_utime, "system": usage.ru_stime}) + "\n")
    return process.returncode


def run_all(runs: list, out: pathlib.Path, nscd: str, jobs: int) -> int:
    """Runs what is not already done, the dearest first; returns the number of failed runs."""
    pending = sorted((r for r in runs if not completed(r, out)), key=lambda r: -r.cost)
    (out / "scenes").mkdir(parents=True, exist_ok=True)
    for variant in {r.variant for r in pending}:
        (out / "scenes" / f"{variant.name}.json").write_text(scene_text(variant))
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(execute, r, out, nscd): r for r in pending}
        for future in concurrent.futures.as_completed(futures):
            code = future.result()
            run = futures[future]
            print(f"ffr_convergence.py: {run.directory} finished, exit code {code}", file=sys.stderr, flush=True)
            failed += code != 0
    return failed


def probe(directory: pathlib.Path) -> dict:
    """u_x of the probe per output time, keyed by the time in microseconds."""
    with (directory / "probes.csv").open(newline="") as f:
        return {round(float(r["time"]) * 1e6): float(r["ux"]) for r in csv.DictReader(f) if r["probe"] == PROBE}


def difference(u: dict, reference: dict, until: float) -> tuple:
    """(||u - u_ref|| / ||u_ref||, max |u - u_ref| / max |u_ref|) over the common times <= until."""
    times = sorted(t for t in u.keys() & reference.keys() if t <= round(until * 1e6))
    norm = math.sqrt(sum(reference[t] ** 2 for t in times))
    diff = math.sqrt(sum((u[t] - reference[t]) ** 2 for t in times))
    peak = max(abs(reference[t]) for t in times)
    return diff / norm, max(abs(u[t] - reference[t]) for t in times) / peak


def percent(pair) -> str:
    return "–" if pair is None else f"{100 * pair[0]:.2g} % (max {100 * pair[1]:.2g} %)"


class Result(NamedTuple):
    u: dict
    cpu_per_second: float
    solver: dict


def load(run: Run, out: pathlib.Path):
    """The probe, the CPU time per simulated second and the solver summary of a completed run."""
    if not completed(run, out):
        return None
    directory = out / run.directory
    cpu = json.loads((directory / "cpu.json").read_text())
    return Result(probe(directory), (cpu["user"] + cpu["system"]) / run.duration,
                  summary(directory / "history.csv", 0.0, run.variant.tolerance))


def difference_table(table: dict, names: list, until: float) -> None:
    """FFR-TL difference per variant (against the reference TL, marked †, where the variant has no TL run)."""
    print(f"| variant | nodes per block | FFR–TL, t ≤ {until:g} s | FFR against FFR reference | "
          "TL against TL reference | CPU per simulated second, FFR | TL | TL / FFR |")
    print("|---|---|---|---|---|---|---|---|")
    ffr_ref, tl_ref = table.get((REFERENCE, "ffr")), table.get((REFERENCE, "tl"))
    for variant in names:
        ffr, tl = table.get((variant, "ffr")), table.get((variant, "tl"))
        against = tl or tl_ref
        ffr_tl = percent(difference(ffr.u, against.u, until)) if ffr and against else "–"
        if ffr and not tl and tl_ref:
            ffr_tl += " †"
        own = [percent(difference(r.u, ref.u, until)) if r and ref and variant != REFERENCE else "–"
               for r, ref in ((ffr, ffr_ref), (tl, tl_ref))]
        cost = [f"{r.cpu_per_second:.3g} s" if r else "not run" for r in (ffr, tl)]
        ratio = f"{tl.cpu_per_second / ffr.cpu_per_second:.3g}" if ffr and tl else "–"
        nodes = math.prod(n + 1 for n in variant.mesh)
        print(f"| {variant.label} | {nodes} | {ffr_tl} | {own[0]} | {own[1]} | {cost[0]} | {cost[1]} | {ratio} |")


def refinements(meshes: list, steps: list, tolerances: list) -> list:
    """(factor, coarser variant, finer variant) for each factor's successive levels around the reference."""
    levels = [("mesh", [REFERENCE._replace(mesh=m) for m in sorted({*meshes, REFERENCE.mesh}, key=math.prod)]),
              ("h", [REFERENCE._replace(step=h) for h in sorted({*steps, REFERENCE.step}, reverse=True)]),
              ("tolerance", [REFERENCE._replace(tolerance=t)
                             for t in sorted({*tolerances, REFERENCE.tolerance}, reverse=True)])]
    return [(factor, a, b) for factor, vs in levels for a, b in zip(vs, vs[1:])]


def refinement_table(table: dict, pairs: list, until: float) -> None:
    """The change of each model's probe from one level of a factor to the next, relative to the finer level."""
    print(f"| factor | from | to | FFR change, t ≤ {until:g} s | TL change |")
    print("|---|---|---|---|---|")
    for factor, coarse, fine in pairs:
        cells = [percent(difference(table[(coarse, m)].u, table[(fine, m)].u, until))
                 if (coarse, m) in table and (fine, m) in table else "–" for m in MODELS]
        print(f"| {factor} | {coarse.label} | {fine.label} | {cells[0]} | {cells[1]} |")


def solver_table(table: dict, names: list) -> None:
    print("| variant | model | steps | solver iterations per step (median) | steps short of the tolerance |")
    print("|---|---|---|---|---|")
    for variant in names:
        for model in MODELS:
            r = table.get((variant, model))
            if r:
                print(f"| {variant.label} | {model} | {r.solver['steps']} | {r.solver['iterations']:g} | "
                      f"{r.solver['short']} |")


def envelope_table(table: dict, start: float, end: float, window: float) -> None:
    """Peak |u_x| of the reference FFR and TL runs per window [t, t + window) from start to end."""
    ffr, tl = table.get((REFERENCE, "ffr")), table.get((REFERENCE, "tl"))
    print("| window [s] | FFR peak \\|u_x\\| [m] | TL peak \\|u_x\\| [m] | FFR / TL − 1 |")
    print("|---|---|---|---|")
    count = round((end - start) / window)
    for k in range(count):
        lo, hi = round((start + k * window) * 1e6), round((start + (k + 1) * window) * 1e6)
        last = k == count - 1
        peaks = [max((abs(u) for t, u in r.u.items() if lo <= t < hi or (last and t == hi)), default=None)
                 if r else None for r in (ffr, tl)]
        text = [f"{p:.4f}" if p is not None else "–" for p in peaks]
        ratio = f"{100 * (peaks[0] / peaks[1] - 1):+.2g} %" if None not in peaks and peaks[1] > 0 else "–"
        print(f"| {lo / 1e6:g}–{hi / 1e6:g} | {text[0]} | {text[1]} | {ratio} |")


def numbers(text: str) -> list:
    """A comma-separated list of positive numbers, or a clear error (exit code 2)."""
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of numbers, got '{text}'")
    if any(not v > 0 or not math.isfinite(v) for v in values):
        raise argparse.ArgumentTypeError(f"expected positive numbers, got '{text}'")
    return values


def number(text: str) -> float:
    values = numbers(text)
    if len(values) != 1:
        raise argparse.ArgumentTypeError(f"expected one positive number, got '{text}'")
    return values[0]


def meshes(text: str) -> list:
    out = []
    for item in text.split(","):
        parts = item.split("x")
        if len(parts) != 3 or not all(p.isdigit() and int(p) >= 1 for p in parts):
            raise argparse.ArgumentTypeError(f"expected NXxNYxNZ with integers >= 1, e.g. 2x2x4, "
                                             f"got '{item}'")
        out.append(tuple(int(p) for p in parts))
    return out


def models(text: str) -> list:
    values = text.split(",")
    if not values or any(v not in MODELS for v in values):
        raise argparse.ArgumentTypeError(f"expected a comma-separated subset of ffr,tl, got '{text}'")
    return values


def parse(argv: list):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nscd", default=str(ROOT / "build/bin/nscd"))
    parser.add_argument("--out", default=str(ROOT / "out/ffr_convergence"))
    parser.add_argument("--models", type=models, default=list(MODELS))
    parser.add_argument("--meshes", type=meshes, default=meshes("2x2x4,4x4x8,8x8x16"))
    parser.add_argument("--steps", type=numbers, default=[5e-5, 1e-4, 2e-4])
    parser.add_argument("--tolerances", type=numbers, default=[1e-5, 1e-6, 1e-7])
    parser.add_argument("--duration", type=number, default=1.0)
    parser.add_argument("--envelope-duration", type=number)
    parser.add_argument("--window", type=number, default=0.1)
    parser.add_argument("--jobs", type=int, choices=(1, 2), default=1, help="runs at once (1 or 2)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="list the runs, run and write nothing")
    mode.add_argument("--report", action="store_true", help="print the tables from the runs in --out, run nothing")
    args = parser.parse_args(argv)
    if args.envelope_duration is not None and args.envelope_duration <= args.duration:
        parser.error(f"--envelope-duration: expected a time after --duration ({args.duration:g} s), "
                     f"got {args.envelope_duration:g}")
    output_interval = json.loads(SCENE.read_text())["time"]["output_interval"]
    for h in args.steps:
        if abs(output_interval / h - round(output_interval / h)) > 1e-9:
            parser.error(f"--steps: {h:g} s does not divide the output interval {output_interval:g} s of {SCENE}")
    if not args.dry_run and not args.report and not os.access(args.nscd, os.X_OK):
        parser.error(f"--nscd: {args.nscd} is not an executable file (build it: cmake --build build --target nscd)")
    return args


def main(argv: list) -> int:
    args = parse(argv)
    out = pathlib.Path(args.out)
    names = variants(args.meshes, args.steps, args.tolerances)
    runs = [Run(v, m, run_duration(v, args)) for v in names for m in args.models]
    if args.dry_run:
        for run in sorted(runs, key=lambda r: -r.cost):
            done = "done, kept" if completed(run, out) else "to run"
            print(f"{done}: {' '.join(command(run, out, args.nscd))}")
        return 0
    failed = 0 if args.report else run_all(runs, out, args.nscd, args.jobs)
    table = {(r.variant, r.model): load(r, out) for r in runs}
    table = {k: v for k, v in table.items() if v is not None}
    difference_table(table, names, args.duration)
    print(f"\n† no TL run of this variant: against the reference TL ({REFERENCE.label}).")
    if args.envelope_duration:
        print(f"The reference runs to {args.envelope_duration:g} s: its CPU time is per simulated second over "
              f"{args.envelope_duration:g} s.")
    print()
    refinement_table(table, refinements(args.meshes, args.steps, args.tolerances), args.duration)
    print()
    solver_table(table, names)
    if args.envelope_duration:
        print()
        envelope_table(table, args.duration, args.envelope_duration, args.window)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
