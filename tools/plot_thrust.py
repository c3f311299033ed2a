#!/usr/bin/env python3
"""Draw the line of thrust of an nscd run in a vertical plane, from its joints.csv.

    python3 tools/plot_thrust.py SCENE.json RUN_DIR --out thrust.png [--time T] [--plane xz]

The bodies are drawn in elevation (their outlines projected on the plane, posed from
RUN_DIR/bodies.csv as tools/snapshot.py does), with, from RUN_DIR/joints.csv at the same output
time (docs/output.md): each loaded joint's centre of pressure (a dot, a cross when the resultant
leaves the section) and the line of thrust, the polyline through the
centres of pressure of the two joints of every body that has exactly two loaded joints (the
voussoirs of an arch, the blocks of a column); and each joint that is open, sliding or broken
(its cohesive bonds broke) marked at its centroid. T defaults to the last output time.

Needs numpy and matplotlib (Debian: python3-numpy, python3-matplotlib).
Exit codes: 0 success, 2 invalid input (missing or unreadable file, time outside the run).
"""

import argparse
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import snapshot  # noqa: E402  (the scene's shapes and the poses of bodies.csv)

EXIT_INVALID_INPUT = 2
THRUST_COLOUR = (0.85, 0.10, 0.55)
# joints.csv's states drawn at the joint's centroid: marker, colour, legend
STATE_MARKERS = {"open": ("D", (0.95, 0.55, 0.05), "open joint"),
                 "sliding": ("^", (0.10, 0.35, 0.85), "sliding joint"),
                 "broken": ("s", (0.80, 0.05, 0.05), "broken joint (its bonds broke)")}
AXES = {"xz": (0, 2), "yz": (1, 2), "xy": (0, 1)}


def fail(message):
    """Prints an input error and exits with code 2."""
    print(f"plot_thrust.py: error: {message}", file=sys.stderr)
    sys.exit(EXIT_INVALID_INPUT)


snapshot.fail = fail  # the readers borrowed from snapshot.py report as this script
np, plt = snapshot.np, snapshot.plt


def hull_2d(points):
    """The convex hull of 2-D points, counter-clockwise (Andrew's monotone chain)."""
    p = sorted(set(map(tuple, points)))
    if len(p) < 3:
        return p

    def chain(sequence):
        out = []
        for q in sequence:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (q[1] - out[-2][1]) -
                                     (out[-1][1] - out[-2][1]) * (q[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(q)
        return out[:-1]

    return chain(p) + chain(reversed(p))


def read_joints(run_dir, time):
    """The rows of RUN_DIR/joints.csv at `time` (an output time of bodies.csv)."""
    path = os.path.join(run_dir, "joints.csv")
    if not os.path.isfile(path):
        fail(f"{path}: no such file (written by nscd runs since joints are output, with \"csv\": true)")
    needed = {"time", "body_a", "body_b", "normal_force", "pressure_x", "pressure_y", "pressure_z", "inside",
              "cx", "cy", "cz", "state"}
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames is None or not needed <= set(reader.fieldnames):
                fail(f"{path}: expected the columns {','.join(sorted(needed))}")
            rows = []
            for line, row in enumerate(reader, start=2):
                try:
                    if abs(float(row["time"]) - time) <= 1e-9 * max(1.0, abs(time)):
                        row["pressure"] = np.array([float(row[f"pressure_{c}"]) for c in "xyz"])
                        row["centroid"] = np.array([float(row[f"c{c}"]) for c in "xyz"])
                        row["normal_force"] = float(row["normal_force"])
                        rows.append(row)
                except (TypeError, ValueError):
                    fail(f"{path}:{line}: expected numbers in the columns time, normal_force, pressure_x, "
                         "pressure_y, pressure_z, cx, cy, cz")
    except OSError as e:
        fail(f"{path}: cannot read: {e}")
    return rows


def thrust_segments(joints):
    """Pairs of centres of pressure of the two loaded joints of every body that has exactly two."""
    by_body = {}
    for joint in joints:
        if joint["normal_force"] > 0:
            for side in ("body_a", "body_b"):
                by_body.setdefault(joint[side], []).append(joint["pressure"])
    return [points for points in by_body.values() if len(points) == 2]


def draw_bodies(ax, scene, poses, axes):
    """The bodies' outlines in the plane, filled by model."""
    missing = []
    for k, body in enumerate(scene["bodies"]):
        geometry = snapshot.body_geometry(body, f"bodies[{k}]")
        if geometry is None:
            continue
        vertices, _, centroid, is_sphere = geometry
        x, rotation = snapshot.body_pose(body, centroid, poses, missing)
        world = vertices @ rotation.T + x
        outline = hull_2d(np.round(world[:, axes], 12))
        ax.fill(*zip(*outline), facecolor=snapshot.body_colour(body.get("model"), is_sphere),
                edgecolor=snapshot.EDGE_COLOUR, linewidth=0.5, alpha=0.6)


def draw_joints(ax, joints, axes):
    """The centres of pressure and the line of thrust."""
    for a, b in thrust_segments(joints):
        ax.plot([a[axes[0]], b[axes[0]]], [a[axes[1]], b[axes[1]]], color=THRUST_COLOUR, linewidth=2.0)
    for inside in ("1", "0"):
        points = [j["pressure"] for j in joints if j["inside"] == inside and j["normal_force"] > 0]
        if points:
            p = np.array(points)
            ax.plot(p[:, axes[0]], p[:, axes[1]], "o" if inside == "1" else "x", color=THRUST_COLOUR,
                    markersize=5 if inside == "1" else 9, label="centre of pressure" + (
                        "" if inside == "1" else ", outside the section"))
    for state, (marker, colour, label) in STATE_MARKERS.items():
        points = [j["centroid"] for j in joints if j["state"] == state]
        if points:
            p = np.array(points)
            ax.plot(p[:, axes[0]], p[:, axes[1]], marker, color=colour, markersize=7, linestyle="none",
                    markerfacecolor="none", markeredgewidth=1.5, label=label)


def main():
    parser = argparse.ArgumentParser(prog="plot_thrust.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("scene", help="the scene file (JSON) that was run")
    parser.add_argument("run_dir", metavar="RUN_DIR", help="the run's output directory (bodies.csv, joints.csv)")
    parser.add_argument("--out", required=True, metavar="PICTURE.png", help="the PNG file to write")
    parser.add_argument("--time", type=float, metavar="T",
                        help="simulated time [s]; the nearest output time is drawn (default: the last)")
    parser.add_argument("--plane", choices=sorted(AXES), default="xz", help="the drawing's plane (default xz)")
    parser.add_argument("--size", type=snapshot.picture_size, default=(1000, 560), metavar="WxH",
                        help="picture size in pixels (default 1000x560)")
    args = parser.parse_args()
    scene = snapshot.read_scene(args.scene)
    if not isinstance(scene, dict) or not isinstance(scene.get("bodies"), list):
        fail(f"{args.scene}: expected a scene with a \"bodies\" list")
    time, poses = snapshot.read_poses(args.run_dir, last_time(args.run_dir) if args.time is None else args.time)
    joints = read_joints(args.run_dir, time)
    axes = AXES[args.plane]

    fig = plt.figure(figsize=(args.size[0] / 100, args.size[1] / 100), dpi=100)
    ax = fig.add_axes([0.02, 0.02, 0.96, 0.9])
    draw_bodies(ax, scene, poses, axes)
    draw_joints(ax, joints, axes)
    ax.set_aspect("equal")
    ax.set_axis_off()
    if joints:
        ax.legend(loc="upper right", frameon=False)
    name = scene.get("name") or os.path.splitext(os.path.basename(args.scene))[0]
    fig.suptitle(f"{name}, t = {time:g} s: line of thrust through the joints' centres of pressure", y=0.97)
    try:
        fig.savefig(args.out, dpi=100, facecolor="white")
    except OSError as e:
        fail(f"{args.out}: cannot write the picture: {e}")
    print(f"plot_thrust.py: wrote {args.out} (t = {time:g} s, {len(joints)} joints)")


def last_time(run_dir):
    """The last output time of RUN_DIR/bodies.csv (read_poses checks the file), 0 if unreadable."""
    try:
        with open(os.path.join(run_dir, "bodies.csv"), newline="", encoding="utf-8") as f:
            return max((float(row["time"]) for row in csv.DictReader(f)), default=0.0)
    except (OSError, KeyError, TypeError, ValueError):
        return 0.0


if __name__ == "__main__":
    main()
