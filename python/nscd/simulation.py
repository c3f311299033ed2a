"""The simulation of a scene, stepped by the C++ core of `nscd run` (docs/python.md)."""

import math
import os

from . import _core
from .scene import Scene


class Simulation(_core.Simulation):
    """Simulation(scene, threads=None, model=None, modes=None, solver=None, output=None, overwrite=False,
                  restart=None)

    scene      a Scene, a dict with the schema of a scene file, or the path of a scene file
    threads    worker threads of this simulation (None: all cores); results do not depend on it
    model      "ffr", "tl", "linear" or "rigid": every ffr, tl and linear body switched to it,
               as `nscd run --model`
    modes      the K lowest elastic modes kept by every ffr body (0: the full mesh), replacing the
               bodies' and materials' "modes", as `nscd run --modes`
    solver     the contact solver, overriding solver.type, as `nscd run --solver`
    output     a directory: write the files of `nscd run` there (docs/output.md), from the start
               or, with restart, continuing the restarted run's output
    overwrite  delete an earlier run's output in `output` first
    restart    a checkpoint of a run of the same scene text to continue from

    The state (positions, orientations, velocities, angular_velocities, nodal_displacements())
    is read as read-only NumPy views into the simulation, valid until its next step: take .copy()
    to keep one. contacts, last_step, mesh() and energies are new objects (copies).
    """

    def __init__(self, scene, threads=None, model=None, modes=None, solver=None, output=None, overwrite=False,
                 restart=None):
        if isinstance(scene, (str, os.PathLike)):
            scene = Scene.load(scene, validate=False)  # built once, below
        elif isinstance(scene, dict):
            scene = Scene(scene)
        elif not isinstance(scene, Scene):
            raise TypeError(f"scene: expected a Scene, a dict or a path, found {type(scene).__name__}")
        self.scene = scene
        super().__init__(scene.text(), scene.path, scene.sha256(), threads, model, modes, solver)
        if restart is not None:
            self.restore(os.fspath(restart))
        if output is not None:
            self.open_output(os.fspath(output), overwrite, restart is not None)

    def run(self, until=None, callback=None):
        """Steps until time `until` (default: the scene's duration), calling callback(self) after
        each step if given. Without a callback the whole run releases the GIL."""
        last = self.n_steps if until is None else int(math.floor(until / self.time_step + 0.5))
        if callback is None:
            self.run_to(last)
            return
        while self.step_index < last:
            self.step()
            callback(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close_output()
        return False
