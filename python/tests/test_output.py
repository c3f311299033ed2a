"""nscd.read_output: CSV histories as NumPy record arrays (or pandas), the VTK frames."""

import os

import numpy as np
import pytest

import nscd
from conftest import incline_scene


def test_read_output_of_a_simulation(tmp_path):
    with nscd.Simulation(incline_scene(duration=0.05), output=tmp_path) as sim:
        sim.run()
    out = nscd.read_output(tmp_path, pandas=False)
    assert len(out.history) == 50 and out.history["step"][-1] == 50
    assert out.history["solver_stage"][0] == "nlgs"
    assert set(out.bodies["body"]) == {"plane", "block"}
    assert out.bodies["x"].dtype == np.float64
    assert out.probes["probe"][0] == "block_centre"
    # the block on the plane: one joint per output time after t = 0, resting on the plane
    assert len(out.joints) == 5 and set(out.joints["body_b"]) == {"block"}
    assert all(state in ("stick", "sliding") for state in out.joints["state"])
    assert [f["time"] for f in out.frames] == pytest.approx(np.arange(6) * 0.01)
    assert all(os.path.exists(f[part]) for f in out.frames for part in ("bodies", "contacts", "joints"))
    assert out.frames[0]["fixed"].endswith("fixed.vtu")
    assert out.run["status"] == "completed"


def test_read_output_with_pandas(tmp_path):
    pandas = pytest.importorskip("pandas")
    with nscd.Simulation(incline_scene(duration=0.02), output=tmp_path) as sim:
        sim.run()
    assert isinstance(nscd.read_output(tmp_path).history, pandas.DataFrame)


def test_read_output_of_a_missing_directory(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothing"):
        nscd.read_output(tmp_path / "nothing")
