"""The output directory of a run (docs/output.md) read back: the CSV histories as NumPy
structured arrays (pandas DataFrames when pandas is installed) and the list of VTK frames."""

import json
import os
import xml.etree.ElementTree as ElementTree

import numpy as np

try:
    import pandas as _pandas
except ImportError:  # pandas is optional: NumPy structured arrays
    _pandas = None


class RunOutput:
    """What read_output() finds in a directory: history, bodies, probes, joints (None when the
    file is absent), run (run.json as a dict, or None), frames (one dict per output time: time,
    and the paths of its bodies, contacts, joints and fixed files) and pvd (the collection's path,
    or None)."""

    def __init__(self, directory, history, bodies, probes, joints, run, frames, pvd):
        self.directory = directory
        self.history = history
        self.bodies = bodies
        self.probes = probes
        self.joints = joints
        self.run = run
        self.frames = frames
        self.pvd = pvd

    def __repr__(self):
        return f"RunOutput({self.directory!r}, {len(self.frames)} frames)"


def _read_csv(path, pandas):
    if not os.path.exists(path):
        return None
    if pandas and _pandas is not None:
        return _pandas.read_csv(path)
    with open(path, encoding="utf-8") as f:
        header = f.readline().strip().split(",")
        rows = [line.rstrip("\n").split(",") for line in f if line.strip()]
    columns = list(zip(*rows)) if rows else [[] for _ in header]
    arrays = []
    for name, values in zip(header, columns):
        try:
            arrays.append(np.array([int(v) for v in values], dtype=np.int64))
        except ValueError:
            try:
                arrays.append(np.array([float(v) for v in values], dtype=np.float64))
            except ValueError:
                arrays.append(np.array(values, dtype=str))
    return np.rec.fromarrays(arrays, names=header) if rows else np.zeros(0, dtype=[(n, "f8") for n in header])


def _read_frames(directory):
    """The pvd collection's entries grouped by time, as (pvd path, frames)."""
    pvds = sorted(name for name in os.listdir(directory) if name.endswith(".pvd"))
    if not pvds:
        return None, []
    pvd = os.path.join(directory, pvds[0])
    frames = {}
    for dataset in ElementTree.parse(pvd).getroot().iter("DataSet"):
        time = float(dataset.get("timestep"))
        frame = frames.setdefault(time, {"time": time})
        frame[dataset.get("name")] = os.path.join(directory, dataset.get("file"))
    return pvd, [frames[t] for t in sorted(frames)]


def read_output(directory, pandas=True):
    """Reads the output directory of `nscd run` or of a Simulation with output: history.csv,
    bodies.csv, probes.csv, joints.csv (pandas DataFrames if pandas is installed and `pandas` is
    true, NumPy record arrays otherwise, whose string columns are names and whose other columns
    are numbers), run.json and the frames of the pvd collection."""
    directory = os.fspath(directory)
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"{directory}: not a directory (expected the output directory of a run)")
    run_path = os.path.join(directory, "run.json")
    run = None
    if os.path.exists(run_path):
        with open(run_path, encoding="utf-8") as f:
            run = json.load(f)
    pvd, frames = _read_frames(directory)
    tables = {name: _read_csv(os.path.join(directory, name + ".csv"), pandas)
              for name in ("history", "bodies", "probes", "joints")}
    return RunOutput(directory, tables["history"], tables["bodies"], tables["probes"], tables["joints"], run,
                     frames, pvd)
