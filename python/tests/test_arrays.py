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
