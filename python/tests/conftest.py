"""Fixtures of the nscd Python tests: the scenes built in Python and the nscd program.

Run from the project root with the build tree's package on the path (ctest does both):
    PYTHONPATH=build/python python3 -m pytest python/tests
NSCD_BIN names the program (default build/bin/nscd).
"""

import math
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def stack_scene(n=10, duration=0.3):
    """n unit cubes stacked exactly touching on a fixed ground (scenes/stack10.json)."""
    bodies = [{"name": "ground", "model": "fixed", "material": "ground", "shape": {"box": [4, 4, 1]},
               "position": [0, 0, -0.5]}]
    bodies += [{"name": f"cube_{i}", "model": "rigid", "material": "block", "shape": {"box": [1, 1, 1]},
                "position": [0, 0, i + 0.5]} for i in range(n)]
    return {
        "name": "stack",
        "time": {"step": 0.001, "duration": duration, "output_interval": 0.02},
        "solver": {"type": "nlgs", "tolerance": 1e-8, "max_iterations": 1000, "min_iterations": 10},
        "materials": {"block": {"density": 1000}, "ground": {"density": 1000}},
        "interactions": [{"materials": ["block", "block"], "friction": 0.5},
                         {"materials": ["block", "ground"], "friction": 0.5}],
        "bodies": bodies,
        "probes": [{"name": "top", "body": f"cube_{n - 1}", "point": [0, 0, n]}],
    }


def incline_scene(mu=0.3, duration=0.3):
    """A unit block on a plane tilted by 30° (scenes/incline.json)."""
    angle = math.pi / 6
    tilt = {"axis_angle": {"axis": [0, 1, 0], "angle": angle}}
    centre = [0.3, 0, 0.5196152422706632]
    return {
        "name": "incline",
        "time": {"step": 0.001, "duration": duration, "output_interval": 0.01},
        "solver": {"type": "nlgs", "tolerance": 1e-8, "max_iterations": 1000},
        "materials": {"block": {"density": 1000}, "plane": {"density": 1000}},
        "interactions": [{"materials": ["block", "plane"], "friction": mu}],
        "bodies": [
            {"name": "plane", "model": "fixed", "material": "plane", "shape": {"box": [6, 2, 0.2]},
             "position": [0, 0, 0], "orientation": tilt},
            {"name": "block", "model": "rigid", "material": "block", "shape": {"box": [1, 1, 1]},
             "position": centre, "orientation": tilt},
        ],
        "probes": [{"name": "block_centre", "body": "block", "point": centre}],
    }


@pytest.fixture(scope="session")
def nscd_bin():
    path = os.environ.get("NSCD_BIN", os.path.join(ROOT, "build", "bin", "nscd"))
    if not os.path.exists(path):
        pytest.fail(f"{path}: the nscd program is not built (set NSCD_BIN)")
    return path


def run_cli(nscd_bin, *args):
    """Runs the nscd program; returns (exit code, stderr)."""
    done = subprocess.run([nscd_bin, *map(str, args)], capture_output=True, text=True, cwd=ROOT)
    return done.returncode, done.stderr
