"""Figures of a sphere pour, computed the same way for nscd (bench_pour.py) and YADE
(yade_pour.py) from the spheres' centres and radii: the deepest overlap between two spheres or
a sphere and a fixed box, the pile's top and its mean centre height. Standard library only
(YADE's Python runs it too).

A sphere (c, r) and an axis-aligned box (b, half sizes a) overlap by r - |c - p| where p is the
point of the box nearest c (c outside the box); two spheres by r1 + r2 - |c1 - c2|. Sphere pairs
are found with a grid of cells of side 2 r_max, each sphere tested against the 27 cells around
its own, so the cost is linear in the number of spheres.
"""

import json
import math


def read_scene_spheres_and_boxes(path):
    """The rigid spheres (name, centre, radius) and the fixed boxes (centre, half sizes) of an
    nscd scene file as gen_pile.py writes it (boxes without orientation)."""
    with open(path, encoding="utf-8") as f:
        scene = json.load(f)
    spheres, boxes = [], []
    for body in scene["bodies"]:
        shape = body["shape"]
        if body["model"] == "rigid" and "sphere" in shape:
            spheres.append((body["name"], tuple(body["position"]), float(shape["sphere"])))
        elif body["model"] == "fixed" and "box" in shape and "orientation" not in body:
            boxes.append((tuple(body["position"]), tuple(0.5 * s for s in shape["box"])))
        else:
            raise ValueError(f"{path}: body {body['name']}: expected rigid spheres and fixed boxes without "
                             f"orientation (a scene of scenes/gen_pile.py)")
    return scene, spheres, boxes


def _box_overlap(centre, radius, box):
    (b, a) = box
    d2 = 0.0
    for k in range(3):
        lo, hi = b[k] - a[k], b[k] + a[k]
        nearest = min(max(centre[k], lo), hi)
        d2 += (centre[k] - nearest) ** 2
    return radius - math.sqrt(d2)


def deepest_overlap(centres, radii, boxes):
    """The deepest overlap [m] (0 if none) over sphere pairs and sphere-box pairs, and the
    mean overlap [m] of the overlapping pairs (0 if none)."""
    deepest, total, count = 0.0, 0.0, 0
    for c, r in zip(centres, radii):
        for box in boxes:
            o = _box_overlap(c, r, box)
            if o > 0:
                deepest, total, count = max(deepest, o), total + o, count + 1
    side = 2 * max(radii)
    cells = {}
    for i, c in enumerate(centres):
        cells.setdefault(tuple(math.floor(x / side) for x in c), []).append(i)
    for (cx, cy, cz), members in cells.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    for j in cells.get((cx + dx, cy + dy, cz + dz), ()):
                        for i in members:
                            if i >= j:
                                continue
                            o = radii[i] + radii[j] - math.dist(centres[i], centres[j])
                            if o > 0:
                                deepest, total, count = max(deepest, o), total + o, count + 1
    return deepest, (total / count if count else 0.0)


def pile_heights(centres, radii):
    """The pile's top max(z + r) [m] and the mean centre height [m]."""
    top = max(c[2] + r for c, r in zip(centres, radii))
    return top, sum(c[2] for c in centres) / len(centres)
