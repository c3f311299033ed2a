"""The state and the contacts as NumPy arrays: views, copies, and the forces on a resting stack."""

import numpy as np
import pytest

import nscd
from conftest import ROOT, stack_scene


def test_state_arrays_are_read_only_views_of_the_simulation():
    sim = nscd.Simulation(stack_scene(n=3, duration=0.01))
    x = sim.positions
    assert x.shape == (4, 3) and x.dtype == np.float64
    assert x.base is not None and not x.flags.writeable
    with pytest.raises(ValueError):
        x[0, 0] = 1.0
    assert np.array_equal(x[:, 2], [-0.5, 0.5, 1.5, 2.5])
    assert sim.orientations.shape == (4, 4)
    assert np.array_equal(sim.orientations[1], [0, 0, 0, 1])  # (x, y, z, w)
    assert sim.velocities.shape == (4, 3) and sim.angular_velocities.shape == (4, 3)
    kept = x.copy()
    sim.step()
    assert np.array_equal(sim.positions[0], kept[0])


def test_energies_and_last_step():
    sim = nscd.Simulation(stack_scene(n=2, duration=0.01))
    assert sim.kinetic_energy == 0
    assert sim.potential_energy == pytest.approx(1000 * 9.81 * (0.5 + 1.5))
    sim.step()
    stats = sim.last_step
    assert stats["n_contacts"] > 0 and stats["status"] == "converged" and stats["stage"] == "nlgs"
    assert stats["error"] <= 1e-8


def test_contact_forces_balance_gravity_on_a_resting_stack():
    n = 10
    sim = nscd.Simulation(stack_scene(n=n, duration=0.05))
    sim.run()
    contacts = sim.contacts
    count = len(contacts["gaps"])
    assert contacts["points"].shape == (count, 3) and contacts["frames"].shape == (count, 3, 3)
    assert contacts["bodies"].shape == (count, 2)
    weight = n * 1000 * 9.81  # unit cubes of density 1000
    on_ground = contacts["bodies"][:, 0] == 0
    support = contacts["forces"][on_ground].sum(axis=0)
    assert abs(support[2] - weight) <= 1e-10 * weight
    assert np.abs(support[:2]).max() <= 1e-10 * weight
    # each cube carries the ones above it: the force from the cube below
    for i in range(1, n):
        between = (contacts["bodies"][:, 0] == i) & (contacts["bodies"][:, 1] == i + 1)
        carried = contacts["forces"][between, 2].sum()
        assert abs(carried - (n - i) * 1000 * 9.81) <= 1e-10 * weight
    # impulses in the contact frames, force = R r / h on body b
    world = np.einsum("nij,nj->ni", contacts["frames"], contacts["impulses"]) / sim.time_step
    assert np.allclose(world, contacts["forces"], rtol=0, atol=1e-12 * weight)


def test_joints_of_a_resting_stack_carry_the_weight_above_them():
    n = 4
    sim = nscd.Simulation(stack_scene(n=n, duration=0.05))
    sim.run()
    joints = sim.joints
    assert joints["bodies"].tolist() == [[i, i + 1] for i in range(n)]
    assert joints["centroid"].shape == (n, 3) and joints["normal_force"].shape == (n,)
    # joint i carries the n − i cubes above it, through the centre of its unit square
    carried = (n - np.arange(n)) * 1000 * 9.81
    assert np.allclose(joints["normal_force"], carried, rtol=1e-10, atol=0)
    assert np.allclose(joints["area"], 1.0, rtol=1e-9)
    assert np.abs(joints["eccentricity"]).max() < 1e-9
    assert joints["inside"].all() and joints["state"] == ["stick"] * n


def test_nodal_displacements_of_a_finite_element_body():
    sim = nscd.Simulation(f"{ROOT}/scenes/ffr_three_blocks.json", model="linear")
    names = [n for n, m in zip(sim.body_names, sim.body_models) if m == "linear"]
    assert names
    u = sim.nodal_displacements(names[0])
    assert u.ndim == 2 and u.shape[1] == 3 and not u.flags.writeable
    sim.step()
    assert np.abs(sim.nodal_displacements(names[0])).max() > 0
    mesh = sim.mesh()
    assert len(mesh["von_mises"]) == len(mesh["cells"])
    with pytest.raises(nscd.InputError, match="only ffr, tl and linear bodies"):
        sim.nodal_displacements(sim.body_names[[m != "linear" for m in sim.body_models].index(True)])
    with pytest.raises(nscd.InputError, match="no body named"):
        sim.nodal_displacements("nobody")


def test_cell_stresses_of_a_block_at_rest_carry_its_weight():
    # a linear-elastic block (1 x 1 x H, 2 x 2 x 4 hexahedra, ν = 0) standing on a fixed ground,
    # damped to rest: each section carries the weight above it, σ_zz(z) = −ρ g (H − z), and the
    # exact displacement is quadratic in z. The nodal values of a quadratic give, at a Hex8 cell's
    # centre, the exact strain (the midpoint difference quotient of a quadratic is its derivative
    # there), so the centre stresses are exact but for the solver's tolerance and what motion is
    # left after 0.3 s (velocities ~1e-8 m/s): compared at 1e-5 ρ g H.
    rho, g, height = 2500.0, 9.81, 1.0
    scene = {
        "name": "block_at_rest",
        "time": {"step": 1e-3, "duration": 0.3, "output_interval": 0.1},
        "integrator": {"theta": 1.0},
        "gravity": [0, 0, -g],
        "solver": {"type": "nlgs", "tolerance": 1e-10, "max_iterations": 2000},
        "materials": {"stone": {"density": rho, "young": 1e8, "poisson": 0.0,
                                "damping": {"mass": 0.0, "stiffness": 1e-3}},
                      "ground": {"density": rho}},
        "interactions": [{"materials": ["stone", "ground"], "friction": 0.5}],
        "bodies": [
            {"name": "ground", "model": "fixed", "material": "ground", "shape": {"box": [3, 3, 0.2]},
             "position": [0, 0, -0.1]},
            {"name": "block", "model": "linear", "material": "stone", "shape": {"box": [1, 1, height]},
             "elements": [2, 2, 4], "position": [0, 0, height / 2]},
        ],
    }
    sim = nscd.Simulation(scene)
    sim.run()
    stresses = sim.cell_stresses("block")
    assert stresses.shape == (16, 3, 3) and np.allclose(stresses, stresses.transpose(0, 2, 1))
    mesh = sim.mesh()
    block = sim.body_names.index("block")
    cells = [cell for cell, body in zip(mesh["cells"], mesh["cell_body"]) if body == block]
    centre_z = np.array([mesh["points"][cell][:, 2].mean() for cell in cells])
    layers = np.floor(centre_z / (height / 4)).astype(int)  # 0 at the bottom
    for layer in range(4):
        expected = -rho * g * (height - (layer + 0.5) * height / 4)
        assert np.allclose(stresses[layers == layer, 2, 2], expected, rtol=0, atol=1e-5 * rho * g * height), layer
    assert np.all(stresses[layers == 0, 2, 2] < -0.8 * rho * g * height)  # compressive, the most at the bottom
    von_mises = mesh["von_mises"][np.asarray(mesh["cell_body"]) == block]
    assert np.allclose(von_mises, np.sqrt(0.5 * ((stresses[:, 0, 0] - stresses[:, 1, 1]) ** 2
                                                 + (stresses[:, 1, 1] - stresses[:, 2, 2]) ** 2
                                                 + (stresses[:, 2, 2] - stresses[:, 0, 0]) ** 2)
                                          + 3 * (stresses[:, 0, 1] ** 2 + stresses[:, 1, 2] ** 2
                                                 + stresses[:, 2, 0] ** 2)), rtol=1e-12)
