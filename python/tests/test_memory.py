"""A parameter sweep in a loop leaks no memory: resident memory stays flat."""

import os

import nscd
from conftest import incline_scene

PAGE = os.sysconf("SC_PAGE_SIZE")


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def sweep(runs):
    """`runs` simulations of the incline at μ from 0.1 up, with their contacts and arrays read."""
    for i in range(runs):
        sim = nscd.Simulation(incline_scene(mu=0.1 + 0.05 * i, duration=0.2))
        sim.run()
        sim.positions.copy(), sim.contacts, sim.last_step, sim.mesh()


def test_mu_sweep_keeps_resident_memory_flat():
    sweep(3)  # warm-up: the allocator's and NumPy's first allocations
    before = resident_bytes()
    sweep(10)
    growth = resident_bytes() - before
    # A simulation of the incline holds about 1 MiB (its workspace, the model's meshes, the
    # arrays read); a leak of one per run would grow by 10 MiB. The allocator may keep up to a
    # few hundred KiB of freed pages: 2 MiB tells the two apart.
    assert growth < 2 * 1024 * 1024, f"resident memory grew by {growth / 1024:.0f} KiB over 10 runs"
