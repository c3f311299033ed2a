"""Simulations: bit-identical to `nscd run`, checkpoints, threads, overrides, errors."""

import filecmp
import math

import numpy as np
import pytest

import nscd
from conftest import incline_scene, run_cli, stack_scene


def stack_with_dumps():
    scene = stack_scene()
    scene["solver"]["dump_every"] = 100
    return scene


def without_wall_time(path):
    """history.csv's lines without the column wall_seconds."""
    rows = [line.split(",") for line in path.read_text().splitlines()]
    column = rows[0].index("wall_seconds")
    return [row[:column] + row[column + 1:] for row in rows]


def key_tree(value):
    """The keys of a JSON object and of the objects in it, as nested dicts."""
    return {k: key_tree(v) for k, v in value.items()} if isinstance(value, dict) else None


def assert_same_output(cli_dir, py_dir):
    """The same files, byte for byte but for the wall times of history.csv and run.json, and FCLIB
    dumps holding the same problems."""
    names = sorted(p.name for p in cli_dir.iterdir())
    assert names == sorted(p.name for p in py_dir.iterdir())
    for name in names:
        if name.startswith("problem_"):
            cli, py = nscd.read_fclib(cli_dir / name), nscd.read_fclib(py_dir / name)
            for key in ("W", "q", "mu"):
                assert np.array_equal(cli[key], py[key]), (name, key)
        elif name not in ("history.csv", "run.json"):
            assert filecmp.cmp(cli_dir / name, py_dir / name, shallow=False), name
    assert without_wall_time(cli_dir / "history.csv") == without_wall_time(py_dir / "history.csv")
    cli = nscd.read_output(cli_dir, pandas=False).run
    py = nscd.read_output(py_dir, pandas=False).run
    assert key_tree(cli) == key_tree(py)
    for key in set(cli) - {"wall_seconds", "stage_seconds", "threads"}:
        assert cli[key] == py[key], key
    return py


def run_both(scene_dict, tmp_path, nscd_bin):
    """The scene run by `nscd run` and by a simulation; returns the simulation, nscd run's exit code
    and the simulation's error (None when it completed)."""
    scene = nscd.Scene.from_dict(scene_dict, path=tmp_path / "scene.json")
    scene.save(scene.path)
    code, _ = run_cli(nscd_bin, "run", scene.path, "--out", tmp_path / "cli", "--quiet")
    with nscd.Simulation(scene, output=tmp_path / "py") as sim:
        try:
            sim.run()
        except nscd.SimulationError as error:
            return sim, code, error
    return sim, code, None


@pytest.mark.parametrize("build", [stack_with_dumps, incline_scene], ids=["stack10", "incline"])
def test_python_run_is_bit_identical_to_nscd_run(build, tmp_path, nscd_bin):
    sim, code, error = run_both(build(), tmp_path, nscd_bin)
    assert code == 0 and error is None
    run = assert_same_output(tmp_path / "cli", tmp_path / "py")
    assert run["status"] == "completed" and run["steps"] == sim.n_steps
    assert any(p.name.startswith("problem_") for p in (tmp_path / "py").iterdir()) == (build is stack_with_dumps)


def test_output_after_a_failed_step_is_that_of_nscd_run(tmp_path, nscd_bin):
    # a block dropped 2 cm onto the ground lands at step 64, between two frames, and its solver
    # allowed one sweep fails there: the output ends with the frame of the last finite state
    scene = stack_scene(n=1, duration=0.2)
    scene["bodies"][1]["position"][2] += 0.02
    scene["solver"].update({"max_iterations": 1, "min_iterations": 1, "tolerance": 1e-14,
                            "fail_on_divergence": True})
    _, code, error = run_both(scene, tmp_path, nscd_bin)
    assert code == 3 and "did not converge" in str(error)
    run = assert_same_output(tmp_path / "cli", tmp_path / "py")
    assert run["status"] == "solver_failed" and 20 * (run["steps"] // 20) != run["steps"]
    frames = nscd.read_output(tmp_path / "py", pandas=False).frames
    assert frames[-1]["time"] == pytest.approx(run["simulated_time"])


def test_final_state_matches_bodies_csv(tmp_path):
    sim = nscd.Simulation(incline_scene(duration=0.1), output=tmp_path)
    sim.run()
    sim.close_output()
    bodies = nscd.read_output(tmp_path, pandas=False).bodies
    last = bodies[bodies["body"] == "block"][-1]
    assert np.array_equal([last["x"], last["y"], last["z"]], sim.positions[1])


def test_checkpoint_restart_continues_exactly(tmp_path):
    scene = nscd.Scene.from_dict(incline_scene(duration=0.2))
    sim = nscd.Simulation(scene)
    sim.run(until=0.1)
    sim.checkpoint(tmp_path / "c.h5")
    sim.run()
    restarted = nscd.Simulation(scene, restart=tmp_path / "c.h5")
    assert restarted.step_index == 100
    restarted.run()
    assert np.array_equal(sim.positions, restarted.positions)
    assert np.array_equal(sim.orientations, restarted.orientations)
    assert np.array_equal(sim.velocities, restarted.velocities)
    # a simulation that goes back to its own checkpoint, its workspace used
    final = sim.positions.copy()
    sim.restore(tmp_path / "c.h5")
    assert sim.step_index == 100
    sim.run()
    assert np.array_equal(sim.positions, final)


def test_checkpoint_of_another_scene_is_refused(tmp_path):
    sim = nscd.Simulation(incline_scene(mu=0.3))
    sim.step()
    sim.checkpoint(tmp_path / "c.h5")
    with pytest.raises(nscd.InputError, match="another scene"):
        nscd.Simulation(incline_scene(mu=0.4), restart=tmp_path / "c.h5")


def test_results_do_not_depend_on_threads():
    one = nscd.Simulation(stack_scene(duration=0.05), threads=1)
    two = nscd.Simulation(stack_scene(duration=0.05), threads=2)
    one.run()
    two.run()
    assert one.threads == 1 and two.threads == 2
    assert np.array_equal(one.positions, two.positions)


def test_run_until_and_callback():
    sim = nscd.Simulation(incline_scene())
    times = []
    sim.run(until=0.01, callback=lambda s: times.append(s.time))
    assert sim.step_index == 10 and len(times) == 10 and times[-1] == sim.time


def test_overrides_are_checked_as_nscd_run_checks_them():
    with pytest.raises(nscd.InputError, match="--solver"):
        nscd.Simulation(incline_scene(), solver="newton")
    with pytest.raises(nscd.InputError, match="--model ffr"):
        nscd.Simulation(incline_scene(), model="ffr")
    with pytest.raises(nscd.InputError, match="threads"):
        nscd.Simulation(incline_scene(), threads=0)
    with pytest.raises(nscd.InputError, match="--modes -1"):
        nscd.Simulation(tipped_ffr_block(), modes=-1)
    with pytest.raises(nscd.InputError, match="--modes 4: .* has no ffr body"):
        nscd.Simulation(incline_scene(), modes=4)
    assert nscd.Simulation(incline_scene(), solver="auto").time == 0


def tipped_ffr_block():
    """A soft ffr block of 2 x 2 x 4 hexahedra (45 nodes), tilted by 0.2 rad, falling on its edge."""
    tilt = {"axis_angle": {"axis": [1, 0, 0], "angle": 0.2}}
    lowest = 0.5 * math.sin(0.2) + 1.0 * math.cos(0.2)  # depth of its lowest edge below its centre
    return {
        "name": "tipped_ffr_block",
        "time": {"step": 0.001, "duration": 0.03, "output_interval": 0.01},
        "solver": {"type": "nlgs", "tolerance": 1e-8, "max_iterations": 1000},
        "materials": {"soft": {"density": 1000, "young": 1e6, "poisson": 0.2}, "ground": {"density": 1000}},
        "interactions": [{"materials": ["soft", "ground"], "friction": 0.5}],
        "bodies": [
            {"name": "ground", "model": "fixed", "material": "ground", "shape": {"box": [4, 4, 1]},
             "position": [0, 0, -0.5]},
            {"name": "block", "model": "ffr", "material": "soft", "shape": {"box": [1, 1, 2]},
             "elements": [2, 2, 4], "position": [0, 0, lowest + 0.002], "orientation": tilt,
             "velocity": [0, 0, -1]},
        ],
        "probes": [{"name": "top", "body": "block", "point": [0, 0, 1]}],
    }


def test_modes_reduce_the_ffr_bodies_as_nscd_run_modes_does(tmp_path, nscd_bin):
    scene = nscd.Scene.from_dict(tipped_ffr_block(), path=tmp_path / "scene.json")
    scene.save(scene.path)
    code, _ = run_cli(nscd_bin, "run", scene.path, "--modes", 6, "--out", tmp_path / "cli", "--quiet")
    with nscd.Simulation(scene, modes=6, output=tmp_path / "py") as modal:
        modal.run()
    assert code == 0
    assert_same_output(tmp_path / "cli", tmp_path / "py")
    full, more = nscd.Simulation(scene), nscd.Simulation(scene, modes=120)
    full.run()
    more.run()
    u_full = full.nodal_displacements("block")
    assert modal.nodal_displacements("block").shape == u_full.shape == (45, 3)  # Φ ξ, not ξ

    def difference(sim):
        return np.abs(sim.nodal_displacements("block") - u_full).max() / np.abs(u_full).max()

    # the edge impact deforms the block by 3 cm; 6 of its 128 elastic modes deform it otherwise
    # (by 60 %), 120 of them almost as the full mesh does (0.6 %)
    assert np.abs(u_full).max() > 0.01
    assert difference(more) < 0.02 < 0.2 < difference(modal)
    assert not np.array_equal(modal.positions, full.positions)


def test_output_directory_of_an_earlier_run_is_refused(tmp_path):
    nscd.Simulation(incline_scene(), output=tmp_path).close_output()
    with pytest.raises(nscd.InputError, match=str(tmp_path)):
        nscd.Simulation(incline_scene(), output=tmp_path)
    nscd.Simulation(incline_scene(), output=tmp_path, overwrite=True).close_output()


def test_restart_from_a_checkpoint_of_nscd_run_continues_its_output(tmp_path, nscd_bin):
    path = tmp_path / "incline.json"
    nscd.Scene.from_dict(incline_scene(duration=0.2)).save(path)
    assert run_cli(nscd_bin, "run", path, "--out", tmp_path / "whole", "--quiet")[0] == 0
    assert run_cli(nscd_bin, "run", path, "--out", tmp_path / "part", "--checkpoint-interval", 0.1, "--quiet")[0] == 0
    checkpoint = sorted((tmp_path / "part").glob("checkpoint_*.h5"))[0]
    with nscd.Simulation(path, restart=checkpoint, output=tmp_path / "part") as sim:
        assert sim.step_index == 100
        sim.run()
    for name in ("bodies.csv", "probes.csv"):
        assert filecmp.cmp(tmp_path / "whole" / name, tmp_path / "part" / name, shallow=False), name
    assert nscd.read_output(tmp_path / "part", pandas=False).run["restarted_from"] == str(checkpoint)


def test_steps_release_the_gil():
    import threading
    import time
    sim = nscd.Simulation(stack_scene(duration=2.0))
    entering = threading.Event()

    def work():
        entering.set()
        sim.run()

    worker = threading.Thread(target=work)
    worker.start()
    entering.wait()
    time.sleep(0.05)  # the worker is in the run: this thread gets the GIL back only if the run let it go
    assert worker.is_alive(), "the run held the GIL to its end"
    worker.join()
    assert sim.step_index == sim.n_steps
