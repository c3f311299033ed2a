"""Simulations: bit-identical to `nscd run`, checkpoints, threads, overrides, errors."""

import filecmp

import numpy as np
import pytest

import nscd
from conftest import incline_scene, run_cli, stack_scene


@pytest.mark.parametrize("build", [stack_scene, incline_scene], ids=["stack10", "incline"])
def test_python_run_is_bit_identical_to_nscd_run(build, tmp_path, nscd_bin):
    scene = nscd.Scene.from_dict(build(), path=tmp_path / "scene.json")
    scene.save(scene.path)
    code, stderr = run_cli(nscd_bin, "run", scene.path, "--out", tmp_path / "cli", "--quiet")
    assert code == 0, stderr
    with nscd.Simulation(scene, output=tmp_path / "py") as sim:
        sim.run()
    for name in ("bodies.csv", "probes.csv"):
        assert filecmp.cmp(tmp_path / "cli" / name, tmp_path / "py" / name, shallow=False), name
    cli = nscd.read_output(tmp_path / "cli", pandas=False)
    py = nscd.read_output(tmp_path / "py", pandas=False)
    for column in ("kinetic_energy", "potential_energy", "n_contacts", "solver_iterations", "solver_error"):
        assert np.array_equal(cli.history[column], py.history[column]), column
    assert [f["time"] for f in cli.frames] == [f["time"] for f in py.frames]
    assert py.run["status"] == "completed" and py.run["steps"] == sim.n_steps


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
    assert nscd.Simulation(incline_scene(), solver="auto").time == 0


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
