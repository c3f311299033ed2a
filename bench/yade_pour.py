"""The pour of bench_pour.py in YADE (Debian's `yade`, 2023.02a), from the same scene file: the
same spheres at the same positions, the same fixed boxes, gravity, density, friction and
restitution; the grains are elastic with Young's modulus E (the scene's rigid grains have none).

  yade -j1 -n -x bench/yade_pour.py SCENE.json OUT.json [--young 35e9] [--duration 3]
       [--snapshots 1.5 3] [--dt-factor 0.5] [--sample-interval 1e-3]

Contact law: YADE's linear visco-elastic law (ViscElMat, Law2_ScGeom_ViscElPhys_Basic) with
normal stiffness from E (k_n = 2 E R per sphere, in series for a pair), tangential stiffness
0.25 k_n, friction angle atan(mu), and the normal damping YADE derives from the restitution e of
the scene (en = e); no tangential damping, no numerical damping (NewtonIntegrator damping 0).
At the time step used (0.5 x PWaveTimeStep, a contact lasts about 9 steps) a binary impact of
these spheres at 1 m/s rebounds with e = 0.06 to 0.08 for en = 0.1 (measured, head-on,
sphere-sphere and sphere-box).

Writes OUT.json: one row per snapshot time with the figures of bench_pour.py: CPU time [s]
(time.process_time() of the time stepping, without building the scene and without the
overlap sampling), steps, the deepest overlap during the run (the largest penetrationDepth over
the interactions, sampled every --sample-interval of simulated time), and, from the positions at
the snapshot: the deepest and mean overlap (pour_figures.py, as for nscd), the pile's top, the
mean centre height and the kinetic energy (translation and rotation).
"""

import argparse
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))  # yade -x: the script is argv[0]
import pour_figures  # noqa: E402  (after the path is set)


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scene")
    parser.add_argument("out")
    parser.add_argument("--young", type=float, default=35e9, help="Young's modulus of the grains and box [Pa]")
    parser.add_argument("--poisson", type=float, default=0.25, help="tangential / normal stiffness ratio")
    parser.add_argument("--duration", type=float, default=3.0, help="simulated time [s]")
    parser.add_argument("--snapshots", type=float, nargs="+", default=[1.5, 3.0], help="times of the rows [s]")
    parser.add_argument("--dt-factor", type=float, default=0.5, help="time step = factor x PWaveTimeStep()")
    parser.add_argument("--sample-interval", type=float, default=1e-3,
                        help="simulated time between two samples of the overlaps during the run [s]")
    return parser.parse_args(sys.argv[1:])


def build(args):
    scene, spheres, boxes = pour_figures.read_scene_spheres_and_boxes(args.scene)
    law = next(i for i in scene["interactions"] if i["materials"] in (["grain", "grain"], "default"))
    density = scene["materials"]["grain"]["density"]
    if law.get("restitution", 0.0) <= 0:
        raise ValueError(f"{args.scene}: YADE's visco-elastic law needs a restitution e > 0 between grains")
    mat = O.materials.append(ViscElMat(young=args.young, poisson=args.poisson, density=density,
                                       frictionAngle=math.atan(law["friction"]),
                                       en=law["restitution"], et=1.0))
    for centre, half in boxes:
        O.bodies.append(box(centre, half, fixed=True, material=mat))
    ids = [O.bodies.append(sphere(centre, radius, material=mat)) for _, centre, radius in spheres]
    O.engines = [
        ForceResetter(),
        InsertionSortCollider([Bo1_Sphere_Aabb(), Bo1_Box_Aabb()]),
        InteractionLoop([Ig2_Sphere_Sphere_ScGeom(), Ig2_Box_Sphere_ScGeom()],
                        [Ip2_ViscElMat_ViscElMat_ViscElPhys()],
                        [Law2_ScGeom_ViscElPhys_Basic()]),
        NewtonIntegrator(gravity=tuple(scene.get("gravity", [0, 0, -9.81])), damping=0.0),
    ]
    O.dt = args.dt_factor * PWaveTimeStep()
    return ids, boxes


def current_penetration():
    deepest = 0.0
    for i in O.interactions:
        if i.isReal:
            deepest = max(deepest, i.geom.penetrationDepth)
    return deepest


def snapshot_row(t, ids, boxes, cpu, steps, during):
    centres = [tuple(O.bodies[i].state.pos) for i in ids]
    radii = [O.bodies[i].shape.radius for i in ids]
    rest, mean = pour_figures.deepest_overlap(centres, radii, boxes)
    top, mean_height = pour_figures.pile_heights(centres, radii)
    kinetic = 0.0
    for i in ids:
        s = O.bodies[i].state
        kinetic += 0.5 * s.mass * s.vel.squaredNorm() + 0.5 * sum(
            s.inertia[k] * s.angVel[k] ** 2 for k in range(3))
    return {"time": t, "cpu_seconds": cpu, "steps": steps, "deepest_overlap_during": during,
            "deepest_overlap_at_rest": rest, "mean_overlap_at_rest": mean, "pile_top": top,
            "mean_centre_height": mean_height, "kinetic_energy": kinetic}


def main():
    args = arguments()
    ids, boxes = build(args)
    dt = O.dt
    per_sample = max(1, round(args.sample_interval / dt))
    total = round(args.duration / dt)
    snapshots = sorted(round(t / dt) for t in args.snapshots if t <= args.duration + 0.5 * dt)
    rows, during, cpu, sampling = [], 0.0, 0.0, 0.0
    while O.iter < total:
        target = min(O.iter + per_sample, total, *[s for s in snapshots if s > O.iter] or [total])
        start = time.process_time()
        O.run(target - O.iter, True)
        cpu += time.process_time() - start
        start = time.process_time()
        during = max(during, current_penetration())
        if O.iter in snapshots:
            rows.append(snapshot_row(O.iter * dt, ids, boxes, cpu, O.iter, during))
            print(f"yade_pour: t = {O.iter * dt:.4g} s: {json.dumps(rows[-1])}", flush=True)
        sampling += time.process_time() - start
    result = {"engine": "yade", "young": args.young, "time_step": dt, "dt_factor": args.dt_factor,
              "pwave_time_step": dt / args.dt_factor, "sample_interval": per_sample * dt,
              "sampling_cpu_seconds": sampling, "rows": rows}
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)


main()
