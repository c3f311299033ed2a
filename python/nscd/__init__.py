"""nscd: non-smooth contact dynamics (docs/python.md).

    import nscd
    sim = nscd.Simulation(nscd.Scene.load("scenes/stack10.json"))
    sim.run(until=0.5)
    print(sim.positions)

Scene (scene files as dicts, or built from Material, Interaction, Body and Probe objects), Simulation (the core of `nscd run`: stepping, NumPy views of the
state, contacts, output, checkpoints), solve and read_fclib (contact problems, as `nscd solve`),
read_output (the files of a run). Bad input raises InputError (a ValueError) with the message of
the command line; a failed step raises SimulationError (a RuntimeError).
"""

from ._core import InputError, SimulationError, __version__
from .objects import Body, Interaction, Material, Probe, box, convex, mesh, sphere
from .output import RunOutput, read_output
from .problems import read_fclib, solve
from .scene import Scene
from .simulation import Simulation

InputError.__module__ = SimulationError.__module__ = "nscd"  # as raised: nscd.InputError

__all__ = ["InputError", "SimulationError", "Scene", "Simulation", "solve", "read_fclib", "read_output",
           "RunOutput", "Material", "Interaction", "Body", "Probe", "box", "sphere", "convex", "mesh", "__version__"]
