"""Scenes: load, save, dicts; bad scenes raise InputError with the command line's message."""

import json

import pytest

import nscd
from conftest import ROOT, incline_scene, run_cli


def test_load_save_round_trip(tmp_path):
    scene = nscd.Scene.load(f"{ROOT}/scenes/incline.json")
    assert scene.data["name"] == "incline"
    scene.save(tmp_path / "copy.json")
    again = nscd.Scene.load(tmp_path / "copy.json")
    assert again.to_dict() == scene.to_dict()
    assert nscd.Scene.from_json(scene.to_json()).to_dict() == scene.to_dict()


def test_loaded_scene_keeps_the_file_text_until_edited():
    scene = nscd.Scene.load(f"{ROOT}/scenes/incline.json")
    with open(f"{ROOT}/scenes/incline.json", encoding="utf-8") as f:
        assert scene.text() == f.read()
    scene.data["interactions"][0]["friction"] = 0.5
    assert json.loads(scene.text())["interactions"][0]["friction"] == 0.5


def test_bad_dict_names_the_json_path():
    d = incline_scene()
    d["bodies"][1]["shape"] = {"box": [1, -1, 1]}
    with pytest.raises(nscd.InputError) as error:
        nscd.Scene.from_dict(d, path="my_scene.json")
    assert isinstance(error.value, ValueError)
    assert "my_scene.json" in str(error.value) and "bodies[1].shape.box" in str(error.value)


def test_unknown_key_suggests_the_known_one():
    d = incline_scene()
    d["bodies"][1]["positon"] = [0, 0, 1]
    with pytest.raises(nscd.InputError, match=r'bodies\[1\].positon.*did you mean "position"'):
        nscd.Scene.from_dict(d)


def test_bad_file_gives_the_message_of_nscd_validate(tmp_path, nscd_bin):
    d = incline_scene()
    d["time"]["step"] = -1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d, indent=2))
    with pytest.raises(nscd.InputError) as error:
        nscd.Scene.load(path)
    code, stderr = run_cli(nscd_bin, "validate", path)
    assert code == 2
    assert str(error.value) in stderr
    assert str(path) in str(error.value) and "time.step" in str(error.value)


def test_missing_file_raises_input_error(tmp_path):
    with pytest.raises(nscd.InputError, match="nothing.json"):
        nscd.Scene.load(tmp_path / "nothing.json")


def test_scene_must_be_a_dict():
    with pytest.raises(TypeError):
        nscd.Scene([1, 2, 3])
    with pytest.raises(TypeError):
        nscd.Simulation(42)


def test_numpy_values_are_written_as_json():
    np = pytest.importorskip("numpy")
    d = incline_scene()
    d["gravity"] = np.array([0.0, 0.0, -9.81])
    assert json.loads(nscd.Scene.from_dict(d).text())["gravity"] == [0.0, 0.0, -9.81]


@pytest.mark.parametrize("name", ["default", "arch", "pile_rocks", "stack10", "incline", "sphere_bounce",
                                  "wall_shaking_table", "ffr_rotating_cuboid", "ffr_three_blocks"])
def test_every_scene_of_the_repository_round_trips_through_a_dict(name):
    scene = nscd.Scene.load(f"{ROOT}/scenes/{name}.json")
    again = nscd.Scene.from_dict(scene.to_dict(), path=scene.path)  # checked as the dict's JSON
    assert again.to_dict() == scene.to_dict()


@pytest.mark.parametrize("scene, model", [("wall_shaking_table", None), ("ffr_three_blocks", "ffr"),
                                          ("ffr_three_blocks", "tl"), ("ffr_three_blocks", "linear"),
                                          ("ffr_three_blocks", "rigid")])
def test_every_body_model_steps(scene, model):
    sim = nscd.Simulation(f"{ROOT}/scenes/{scene}.json", model=model)
    sim.step()
    assert sim.step_index == 1 and sim.time == sim.time_step
    kinds = set(sim.body_models)
    assert (model or "driven") in kinds


def stack_from_objects(n=10, **body_keys):
    """stack_scene() of conftest, built from objects."""
    block, ground = nscd.Material("block", density=1000), nscd.Material("ground", density=1000)
    bodies = [nscd.Body("ground", "fixed", ground, nscd.box(4, 4, 1), position=[0, 0, -0.5])]
    bodies += [nscd.Body(f"cube_{i}", "rigid", block, nscd.box(1, 1, 1), position=[0, 0, i + 0.5], **body_keys)
               for i in range(n)]
    return nscd.Scene.build(
        name="stack", time={"step": 0.001, "duration": 0.3, "output_interval": 0.02},
        solver={"type": "nlgs", "tolerance": 1e-8, "max_iterations": 1000, "min_iterations": 10},
        materials=[block, ground],
        interactions=[nscd.Interaction([block, block], friction=0.5), nscd.Interaction([block, "ground"], 0.5)],
        bodies=bodies, probes=[nscd.Probe("top", bodies[-1], point=[0, 0, n])])


def test_scene_built_from_objects_is_the_dict_scene():
    from conftest import stack_scene
    assert stack_from_objects().to_dict() == stack_scene()


def test_scene_built_from_objects_is_checked_by_the_reader():
    with pytest.raises(nscd.InputError, match=r'bodies\[1\].positon.*did you mean "position"'):
        stack_from_objects(positon=[0, 0, 1])
