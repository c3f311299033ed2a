#!/usr/bin/env python3
"""Draw a PNG picture of an nscd run at a given time.

    python3 tools/snapshot.py SCENE.json RUN_DIR --time T --out picture.png [--elev 20 --azim -60]

The scene file gives the shapes, models and names of the bodies; RUN_DIR/bodies.csv (written by
`nscd run`) gives the pose of every body at every output time. The output time nearest to T is
drawn. Bodies are coloured by model: fixed grey, driven dark grey, rigid a stone colour (rigid
spheres blue). Faces are shaded by their normal; back faces are culled and large faces are cut
into tiles so that matplotlib's depth sorting stays correct.

Needs only the standard library, numpy and matplotlib (Debian: python3-numpy, python3-matplotlib).
Exit codes: 0 success, 2 invalid input (missing or unreadable file, time outside the run).
"""

import argparse
import csv
import itertools
import json
import math
import os
import sys

EXIT_INVALID_INPUT = 2

# face colours (RGB, 0–1) by body model
COLOUR_FIXED = (0.62, 0.62, 0.62)
COLOUR_DRIVEN = (0.30, 0.30, 0.33)
COLOUR_RIGID = (0.80, 0.63, 0.46)
COLOUR_SPHERE = (0.38, 0.56, 0.80)
EDGE_COLOUR = (0.15, 0.12, 0.10)

SPHERE_RINGS, SPHERE_SECTORS = 6, 12  # low-poly display sphere
MAX_TILES_PER_SIDE = 60                # bound on the tiling of large faces


def fail(message):
    """Prints an input error and exits with code 2."""
    print(f"snapshot.py: error: {message}", file=sys.stderr)
    sys.exit(EXIT_INVALID_INPUT)


def import_plotting():
    """numpy and matplotlib (Agg backend), or a clear message."""
    try:
        import numpy
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot
        from mpl_toolkits.mplot3d.art3d import Poly3DCollection
    except ImportError as e:
        print(f"snapshot.py: error: {e}; install python3-numpy and python3-matplotlib "
              "(apt-get install -y python3-matplotlib)", file=sys.stderr)
        sys.exit(1)
    return numpy, matplotlib.pyplot, Poly3DCollection


np, plt, Poly3DCollection = import_plotting()


# ----------------------------------------------------------------------------------------------
# shapes in the body frame (origin at the centre of mass), as (vertices, faces)


def box_shape(size):
    hx, hy, hz = (0.5 * float(s) for s in size)
    vertices = np.array([[sx * hx, sy * hy, sz * hz]
                         for sz in (-1, 1) for sy in (-1, 1) for sx in (-1, 1)])
    # vertex index = ix + 2 iy + 4 iz; faces counter-clockwise seen from outside
    faces = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]]
    return vertices, faces


def sphere_shape(radius):
    r = float(radius)
    vertices = [[0.0, 0.0, r]]
    for i in range(1, SPHERE_RINGS):
        polar = math.pi * i / SPHERE_RINGS
        for j in range(SPHERE_SECTORS):
            azimuth = 2 * math.pi * j / SPHERE_SECTORS
            vertices.append([r * math.sin(polar) * math.cos(azimuth),
                             r * math.sin(polar) * math.sin(azimuth), r * math.cos(polar)])
    vertices.append([0.0, 0.0, -r])
    south = len(vertices) - 1

    def ring(i, j):
        return 1 + (i - 1) * SPHERE_SECTORS + j % SPHERE_SECTORS

    faces = []
    for j in range(SPHERE_SECTORS):
        faces.append([0, ring(1, j), ring(1, j + 1)])
        for i in range(1, SPHERE_RINGS - 1):
            faces.append([ring(i, j), ring(i + 1, j), ring(i + 1, j + 1), ring(i, j + 1)])
        faces.append([south, ring(SPHERE_RINGS - 1, j + 1), ring(SPHERE_RINGS - 1, j)])
    return np.array(vertices), faces


def convex_hull(points):
    """Faces of the convex hull of a few points (brute force over vertex triples).

    Returns (vertex indices used, faces as index loops counter-clockwise seen from outside).
    Coplanar facets are merged into one polygon.
    """
    p = np.asarray(points, dtype=float)
    n = len(p)
    scale = float(np.max(np.ptp(p, axis=0)))
    tol = 1e-9 * max(scale, 1e-300)
    triples = np.array(list(itertools.combinations(range(n), 3)))
    normals = np.cross(p[triples[:, 1]] - p[triples[:, 0]], p[triples[:, 2]] - p[triples[:, 0]])
    lengths = np.linalg.norm(normals, axis=1)
    keep = lengths > 1e-12 * scale * scale
    triples, normals = triples[keep], normals[keep] / lengths[keep, None]
    # signed distances of every point to every candidate plane (n × triples)
    s = p @ normals.T - np.sum(normals * p[triples[:, 0]], axis=1)
    faces, seen = [], set()
    for k in range(len(triples)):
        column = s[:, k]
        if np.all(column <= tol):
            normal = normals[k]
        elif np.all(column >= -tol):
            normal = -normals[k]
        else:
            continue  # not a supporting plane
        on_plane = frozenset(np.nonzero(np.abs(column) <= tol)[0].tolist())
        if on_plane in seen:
            continue
        seen.add(on_plane)
        # order the face's vertices by angle about its centre, counter-clockwise about the normal
        idx = sorted(on_plane)
        centre = p[idx].mean(axis=0)
        u = p[idx[0]] - centre
        u /= np.linalg.norm(u)
        v = np.cross(normal, u)
        idx.sort(key=lambda i: math.atan2(np.dot(p[i] - centre, v), np.dot(p[i] - centre, u)))
        # drop vertices lying on an edge of the polygon (collinear with their neighbours)
        loop = [i for j, i in enumerate(idx)
                if np.linalg.norm(np.cross(p[i] - p[idx[j - 1]], p[idx[(j + 1) % len(idx)]] - p[i])) >
                1e-12 * scale * scale]
        faces.append(loop)
    return faces


def volume_centroid(points, faces):
    """Centroid of the solid bounded by the faces (tetrahedra fan from the vertices' mean)."""
    p = np.asarray(points, dtype=float)
    c0 = p.mean(axis=0)
    volume, moment = 0.0, np.zeros(3)
    for face in faces:
        for j in range(1, len(face) - 1):
            a, b, c = p[face[0]], p[face[j]], p[face[j + 1]]
            v = np.dot(a - c0, np.cross(b - c0, c - c0)) / 6.0
            volume += v
            moment += v * (c0 + a + b + c) / 4.0
    return moment / volume if volume > 0 else c0


def convex_shape(vertices):
    """The hull re-centred on its volume centroid, and that centroid (where the scene puts it)."""
    p = np.asarray(vertices, dtype=float)
    faces = convex_hull(p)
    centroid = volume_centroid(p, faces)
    return p - centroid, faces, centroid


# ----------------------------------------------------------------------------------------------
# poses


def quaternion_matrix(w, x, y, z):
    n = math.sqrt(w * w + x * x + y * y + z * z)
    if n == 0:
        return np.eye(3)
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def scene_orientation(body):
    """Rotation matrix of the scene's `orientation` (quaternion [w,x,y,z] or axis_angle)."""
    o = body.get("orientation")
    if not o:
        return np.eye(3)
    if "quaternion" in o:
        return quaternion_matrix(*(float(c) for c in o["quaternion"]))
    axis = np.asarray(o["axis_angle"]["axis"], dtype=float)
    axis /= np.linalg.norm(axis)
    half = 0.5 * float(o["axis_angle"]["angle"])
    return quaternion_matrix(math.cos(half), *(math.sin(half) * axis))


# ----------------------------------------------------------------------------------------------
# input files


def read_scene(path):
    if not os.path.isfile(path):
        fail(f"{path}: no such scene file")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, UnicodeDecodeError) as e:
        fail(f"{path}: cannot read the scene file: {e}")
    except json.JSONDecodeError as e:
        fail(f"{path}: line {e.lineno}, column {e.colno}: {e.msg}")


def read_poses(run_dir, t_wanted):
    """Poses at the output time of bodies.csv nearest to t_wanted: (time, {name: (x, R)})."""
    if not os.path.isdir(run_dir):
        fail(f"{run_dir}: no such run directory")
    path = os.path.join(run_dir, "bodies.csv")
    if not os.path.isfile(path):
        fail(f"{path}: no such file (was the run written with \"output\": {{\"csv\": false}}?)")
    rows = {}
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            needed = {"time", "body", "x", "y", "z", "qw", "qx", "qy", "qz"}
            if reader.fieldnames is None or not needed <= set(reader.fieldnames):
                fail(f"{path}: expected the columns {','.join(sorted(needed))}")
            for line, row in enumerate(reader, start=2):
                try:
                    t = float(row["time"])
                    pose = (np.array([float(row["x"]), float(row["y"]), float(row["z"])]),
                            quaternion_matrix(float(row["qw"]), float(row["qx"]), float(row["qy"]),
                                              float(row["qz"])))
                except (TypeError, ValueError):
                    fail(f"{path}:{line}: expected numbers in the columns time, x, y, z, qw, qx, qy, qz")
                rows.setdefault(t, {})[row["body"]] = pose
    except OSError as e:
        fail(f"{path}: cannot read: {e}")
    if not rows:
        fail(f"{path}: no output time in the file")
    times = sorted(rows)
    slack = 1e-9 * max(1.0, abs(times[-1]))
    if t_wanted < times[0] - slack or t_wanted > times[-1] + slack:
        fail(f"time {t_wanted:g} s is outside the run: {path} holds t = {times[0]:g} to {times[-1]:g} s")
    t = min(times, key=lambda x: abs(x - t_wanted))
    return t, rows[t]


# ----------------------------------------------------------------------------------------------
# drawing


def body_geometry(body, where):
    """(vertices in the body frame, faces, scene centre of mass, is a sphere), or None for a mesh."""
    shape = body.get("shape", {})
    if "box" in shape:
        v, f = box_shape(shape["box"])
        return v, f, np.zeros(3), False
    if "sphere" in shape:
        v, f = sphere_shape(shape["sphere"])
        return v, f, np.zeros(3), True
    if "convex" in shape:
        v, f, centroid = convex_shape(shape["convex"]["vertices"])
        return v, f, centroid, False
    print(f"snapshot.py: warning: {where}: shape {list(shape)} is not drawn", file=sys.stderr)
    return None


def body_colour(model, is_sphere):
    if model == "fixed":
        return COLOUR_FIXED
    if model == "driven":
        return COLOUR_DRIVEN
    return COLOUR_SPHERE if is_sphere else COLOUR_RIGID


def subdivide(polygon, max_edge):
    """Cuts a convex polygon (k × 3 array) into triangles whose edges are at most max_edge."""
    polygon = np.asarray(polygon)
    if len(polygon) == 4:
        # a quad (box face): a regular grid of quads
        a, b, d = polygon[0], polygon[1], polygon[3]
        nu = max(1, math.ceil(np.linalg.norm(b - a) / max_edge))
        nv = max(1, math.ceil(np.linalg.norm(d - a) / max_edge))
        if nu == 1 and nv == 1:
            return [polygon]
        c = polygon[2]
        out = []
        for i in range(nu):
            for j in range(nv):
                def point(s, t):  # bilinear
                    return (1 - s) * (1 - t) * a + s * (1 - t) * b + s * t * c + (1 - s) * t * d
                s0, s1, t0, t1 = i / nu, (i + 1) / nu, j / nv, (j + 1) / nv
                out.append(np.array([point(s0, t0), point(s1, t0), point(s1, t1), point(s0, t1)]))
        return out
    extent = max(np.linalg.norm(p - q) for p, q in itertools.combinations(polygon, 2))
    if extent <= max_edge:
        return [polygon]
    out, stack = [], []
    centre = polygon.mean(axis=0)
    for j in range(len(polygon)):
        stack.append(np.array([centre, polygon[j], polygon[(j + 1) % len(polygon)]]))
    while stack:
        tri = stack.pop()
        if max(np.linalg.norm(tri[i] - tri[(i + 1) % 3]) for i in range(3)) <= max_edge:
            out.append(tri)
            continue
        m01, m12, m20 = (tri[0] + tri[1]) / 2, (tri[1] + tri[2]) / 2, (tri[2] + tri[0]) / 2
        stack += [np.array([tri[0], m01, m20]), np.array([m01, tri[1], m12]),
                  np.array([m20, m12, tri[2]]), np.array([m01, m12, m20])]
    return out


def view_direction(elev, azim):
    """Unit vector from the scene towards the camera (matplotlib's elev/azim convention)."""
    e, a = math.radians(elev), math.radians(azim)
    return np.array([math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)])


def light_direction(to_camera):
    """Unit vector towards the light: from above, over the viewer's left shoulder."""
    up = np.array([0.0, 0.0, 1.0])
    right = np.cross(up, to_camera)  # the screen's right, for a camera looking at −to_camera
    right = right / np.linalg.norm(right) if np.linalg.norm(right) > 0 else np.array([1.0, 0.0, 0.0])
    light = 0.6 * to_camera + up - 0.5 * right
    return light / np.linalg.norm(light)


def is_kinematic(body):
    return body.get("model") in ("fixed", "driven")


def tile_edge(bodies, geometry):
    """Largest tile edge for the faces of fixed and driven bodies (grounds, tables): half the
    thickness of the thinnest moving body, so that painter's sorting puts them behind what rests
    on them; moving bodies are drawn whole (infinite when there is none)."""
    sizes = [float(np.min(np.ptp(g[0], axis=0)))
             for body, g in zip(bodies, geometry) if g is not None and not is_kinematic(body)]
    return 0.5 * min(sizes) if sizes else math.inf


def body_pose(body, centroid, poses, missing):
    """(x, R) of the body in bodies.csv, or else its initial pose in the scene (its name is then
    appended to `missing`)."""
    name = body.get("name")
    if name in poses:
        return poses[name]
    missing.append(name)
    return np.asarray(body.get("position", centroid), dtype=float), scene_orientation(body)


def face_tiles(body, world, faces, is_sphere, max_edge, view):
    """(tile, face colour, edge colour) of the body's front faces; view = (to_camera, light)."""
    to_camera, light = view
    base = np.array(body_colour(body.get("model"), is_sphere))
    out = []
    for face in faces:
        p = world[face]
        normal = np.cross(p[1] - p[0], p[2] - p[0])
        if np.linalg.norm(normal) == 0:
            continue
        normal /= np.linalg.norm(normal)
        if np.dot(normal, to_camera) <= 0:
            continue  # back face
        shade = 0.35 + 0.65 * max(0.0, float(np.dot(normal, light)))
        colour = tuple(np.clip(base * shade, 0, 1))
        if is_kinematic(body) and not is_sphere:
            extent = float(np.max(np.ptp(p, axis=0)))
            tiles = subdivide(p, max(max_edge, extent / MAX_TILES_PER_SIDE))
        else:
            tiles = [p]
        # outline whole faces only; tiles and sphere facets get their own colour as edge
        edge = EDGE_COLOUR if len(tiles) == 1 and not is_sphere else colour
        out += [(tile, colour, edge) for tile in tiles]
    return out


def scene_polygons(scene, time, poses, view):
    """The shaded polygons of every drawable body at its pose, as (tiles, (low, high) corners of
    their bounding box); view = (to_camera, light)."""
    bodies = scene.get("bodies", [])
    geometry = [body_geometry(body, f"bodies[{i}] \"{body.get('name', '?')}\"") for i, body in enumerate(bodies)]
    max_edge = tile_edge(bodies, geometry)
    tiles, lows, highs, missing = [], [], [], []
    for body, g in zip(bodies, geometry):
        if g is None:
            continue
        vertices_B, faces, centroid, is_sphere = g
        x, R = body_pose(body, centroid, poses, missing)
        world = x + vertices_B @ R.T
        lows.append(world.min(axis=0))
        highs.append(world.max(axis=0))
        tiles += face_tiles(body, world, faces, is_sphere, max_edge, view)
    if missing:
        print(f"snapshot.py: warning: {len(missing)} bodies not in bodies.csv at t = {time:g} s "
              f"(drawn at their initial pose), e.g. \"{missing[0]}\"", file=sys.stderr)
    if not tiles:
        fail("the scene has no body that can be drawn")
    return tiles, (np.min(lows, axis=0), np.max(highs, axis=0))


def set_equal_aspect(ax, lo, hi):
    """The same scale on the three axes, framing the box [lo, hi]."""
    span = np.maximum(hi - lo, 1e-3 * float(np.max(hi - lo)))
    centre = 0.5 * (lo + hi)
    ax.set_xlim(centre[0] - span[0] / 2, centre[0] + span[0] / 2)
    ax.set_ylim(centre[1] - span[1] / 2, centre[1] + span[1] / 2)
    ax.set_zlim(centre[2] - span[2] / 2, centre[2] + span[2] / 2)
    try:
        ax.set_box_aspect(tuple(span), zoom=1.15)
    except TypeError:  # matplotlib < 3.6 has no zoom
        ax.set_box_aspect(tuple(span))


def draw(scene, time, poses, args):
    """Draws the bodies at their poses into the PNG file args.out."""
    to_camera = view_direction(args.elev, args.azim)
    tiles, (lo, hi) = scene_polygons(scene, time, poses, (to_camera, light_direction(to_camera)))
    width, height = args.size
    fig = plt.figure(figsize=(width / args.dpi, height / args.dpi), dpi=args.dpi)
    ax = fig.add_axes([0.0, 0.0, 1.0, 0.94], projection="3d")
    polygons, face_colours, edge_colours = (list(column) for column in zip(*tiles))
    ax.add_collection3d(Poly3DCollection(polygons, facecolors=face_colours, edgecolors=edge_colours,
                                         linewidths=0.4))
    set_equal_aspect(ax, lo, hi)
    ax.view_init(elev=args.elev, azim=args.azim)
    ax.set_axis_off()
    name = scene.get("name") or os.path.splitext(os.path.basename(args.scene))[0]
    fig.suptitle(f"{name}, t = {time:g} s", y=0.97)
    try:
        fig.savefig(args.out, dpi=args.dpi, facecolor="white")
    except OSError as e:
        fail(f"{args.out}: cannot write the picture: {e}")
    plt.close(fig)


def picture_size(text):
    try:
        w, h = (int(x) for x in text.lower().split("x"))
        if w <= 0 or h <= 0:
            raise ValueError
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT in pixels, found \"{text}\"")
    return w, h


def main():
    parser = argparse.ArgumentParser(
        prog="snapshot.py",
        description="Draw a PNG picture of an nscd run at the output time nearest to --time. "
                    "Shapes and models come from the scene file, poses from RUN_DIR/bodies.csv.",
        epilog="example: python3 tools/snapshot.py scenes/wall_shaking_table.json "
               "out/wall_shaking_table --time 3 --out wall.png")
    parser.add_argument("scene", help="the scene file (JSON) that was run")
    parser.add_argument("run_dir", metavar="RUN_DIR", help="the run's output directory (holds bodies.csv)")
    parser.add_argument("--time", type=float, required=True, metavar="T",
                        help="simulated time [s]; the nearest output time is drawn")
    parser.add_argument("--out", required=True, metavar="PICTURE.png", help="the PNG file to write")
    parser.add_argument("--elev", type=float, default=20.0, help="camera elevation [degrees] (default 20)")
    parser.add_argument("--azim", type=float, default=-60.0, help="camera azimuth [degrees] (default -60)")
    parser.add_argument("--size", type=picture_size, default=(900, 600), metavar="WxH",
                        help="picture size in pixels (default 900x600)")
    parser.add_argument("--dpi", type=int, default=100, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not math.isfinite(args.time):
        fail(f"--time {args.time}: expected a finite time in seconds")

    scene = read_scene(args.scene)
    if not isinstance(scene, dict) or not isinstance(scene.get("bodies"), list):
        fail(f"{args.scene}: expected a scene with a \"bodies\" list")
    time, poses = read_poses(args.run_dir, args.time)
    try:
        draw(scene, time, poses, args)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        fail(f"{args.scene}: unexpected scene content ({type(e).__name__}: {e}); "
             f"check it with `nscd validate {args.scene}`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
