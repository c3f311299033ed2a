"""Shared by the scene generators in this folder: writes a scene dictionary as JSON that stays
readable (one body, interaction or probe per line) and small (numbers rounded to 9 significant
digits). Standard library only."""

import json
import math


def num(x):
    """x rounded to 9 significant digits and to 1e-12 (round-off zeros are written 0), as an
    int when integral (1.0 is written 1)."""
    r = float(f"{round(x, 12):.9g}")
    return int(r) if r == int(r) and abs(r) < 1e15 else r


def vec(v):
    return [num(x) for x in v]


def quaternion_about_y(angle):
    """[w, x, y, z] of the rotation by `angle` [rad] about +y."""
    return vec([math.cos(angle / 2), 0.0, math.sin(angle / 2), 0.0])


def _one_line(value):
    return json.dumps(value, separators=(", ", ": "))


def write_scene(path, scene):
    """Writes `scene` (a dict in the order of docs/scene_format.md) to `path`."""
    lines = ["{"]
    keys = list(scene)
    for k, key in enumerate(keys):
        value = scene[key]
        comma = "," if k + 1 < len(keys) else ""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            # lists of objects: one entry per line
            lines.append(f'  "{key}": [')
            for i, item in enumerate(value):
                lines.append("    " + _one_line(item) + ("," if i + 1 < len(value) else ""))
            lines.append("  ]" + comma)
        elif isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            # maps of objects (materials): one entry per line
            lines.append(f'  "{key}": {{')
            names = list(value)
            for i, name in enumerate(names):
                sep = "," if i + 1 < len(names) else ""
                lines.append(f"    {json.dumps(name)}: {_one_line(value[name])}{sep}")
            lines.append("  }" + comma)
        else:
            lines.append(f'  "{key}": {_one_line(value)}{comma}')
    lines.append("}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
