"""Scenes built from objects: thin classes whose dicts are the entries of a scene file
(docs/scene_format.md), assembled by Scene.build into the same dict a file holds. They check
nothing themselves: the scene reader does, with its messages (JSON path, what was expected).

    stone = nscd.Material("stone", density=2500)
    scene = nscd.Scene.build(
        name="box", time={"step": 1e-3, "duration": 1, "output_interval": 0.02},
        materials=[stone], interactions=[nscd.Interaction([stone, stone], friction=0.6)],
        bodies=[nscd.Body("ground", "fixed", stone, nscd.box(4, 4, 1), position=[0, 0, -0.5]),
                nscd.Body("block", "rigid", stone, nscd.box(1, 1, 1), position=[0, 0, 0.5])])
"""

import copy


def _name(value):
    """A material or body given as an object or by name."""
    return value.name if isinstance(value, _Entry) else value


class _Entry:
    """An entry of a scene file: its keys as given, those given None left out (the file's default)."""

    def __init__(self, **keys):
        self.keys = {key: value for key, value in keys.items() if value is not None}

    def to_dict(self):
        """The entry as the scene file writes it (a copy)."""
        return copy.deepcopy(self.keys)

    def __repr__(self):
        arguments = ", ".join(f"{key}={value!r}" for key, value in self.keys.items())
        return f"{type(self).__name__}({arguments})"


class Material(_Entry):
    """materials.<name>: density [kg/m³] and, for finite-element bodies, young, poisson, damping."""

    def __init__(self, name, density, **keys):
        super().__init__(density=density, **keys)
        self.name = name


class Interaction(_Entry):
    """An entry of interactions: the contact law between two materials (objects or names)."""

    def __init__(self, materials, friction, **keys):
        super().__init__(materials=[_name(m) for m in materials], friction=friction, **keys)


class Body(_Entry):
    """An entry of bodies: name, model ("rigid", "fixed", "driven", "ffr", "tl", "linear"),
    material (object or name), shape (box(), sphere(), convex(), mesh() or a dict), and any other
    key of a body (position, orientation, velocity, angular_velocity, motion, elements)."""

    def __init__(self, name, model, material, shape, **keys):
        super().__init__(name=name, model=model, material=_name(material), shape=shape, **keys)
        self.name = name


class Probe(_Entry):
    """An entry of probes: a point or a region of a body (object or name)."""

    def __init__(self, name, body, **keys):
        super().__init__(name=name, body=_name(body), **keys)
        self.name = name


def box(lx, ly, lz):
    """A box of edge lengths lx, ly, lz [m] along the body axes."""
    return {"box": [lx, ly, lz]}


def sphere(radius):
    """A sphere of radius [m]."""
    return {"sphere": radius}


def convex(vertices):
    """The convex hull of vertices [[x, y, z], ...] [m], in world coordinates."""
    return {"convex": {"vertices": vertices}}


def mesh(path):
    """A mesh file (.msh or .vtu), relative to the scene file's folder."""
    return {"mesh": str(path)}


def scene_dict(time, materials, bodies, interactions=(), probes=(), **sections):
    """The dict of a scene file: materials keyed by their names, the entries as dicts, and the
    other sections (name, gravity, solver, detection, output, ...) as given."""
    data = {key: value for key, value in sections.items() if value is not None}
    data["time"] = time
    data["materials"] = {m.name: m.to_dict() for m in materials}
    if interactions:
        data["interactions"] = [i.to_dict() for i in interactions]
    data["bodies"] = [b.to_dict() for b in bodies]
    if probes:
        data["probes"] = [p.to_dict() for p in probes]
    return data
