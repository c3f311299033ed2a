"""Scenes as dictionaries with the JSON schema of scene files (docs/scene_format.md).

A Scene holds the scene as a plain dict, `scene.data`, edited freely; the C++ scene reader of
`nscd validate` and `nscd run` checks it (validate(), and every Simulation built from it), so
errors are the command line's: an InputError naming the file, the JSON path and what was expected.
"""

import copy
import hashlib
import json
import os

from . import _core
from .objects import scene_dict


def _json_default(value):
    """NumPy arrays and scalars as JSON lists and numbers."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"a scene holds JSON values (dict, list, str, number, bool, None), found {type(value).__name__}")


class Scene:
    """A scene: `data` (a dict with the schema of a scene file) and `path`, the file it was read
    from or stands for (messages name it, its folder resolves relative mesh and table files, its
    stem is the default scene name)."""

    def __init__(self, data, path="scene.json"):
        if not isinstance(data, dict):
            raise TypeError(f"a scene is a dict with the schema of a scene file, found {type(data).__name__}")
        self.data = data
        self.path = os.fspath(path)
        self._file_text = None  # the file's text while data is unchanged since load()

    @classmethod
    def load(cls, path, validate=True):
        """Reads a scene file and validates it as `nscd validate` does (without `validate`, only
        reads it: a Simulation checks what the reader alone cannot)."""
        path = os.fspath(path)
        _core.check_scene_file(path, validate)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        scene = cls(json.loads(text), path)
        scene._file_text = (text, copy.deepcopy(scene.data))
        return scene

    @classmethod
    def from_dict(cls, data, path="scene.json"):
        """A validated scene from a dict (deep-copied)."""
        scene = cls(copy.deepcopy(data), path)
        scene.validate()
        return scene

    @classmethod
    def build(cls, path="scene.json", **sections):
        """A validated scene from objects (nscd.Material, Interaction, Body, Probe; objects.py):
        Scene.build(time=..., materials=[...], bodies=[...], interactions=[...], probes=[...],
        name=..., solver=..., and any other section of a scene file as its dict)."""
        return cls.from_dict(scene_dict(**sections), path)

    @classmethod
    def from_json(cls, text, path="scene.json"):
        """A validated scene from the text of a scene file."""
        _core.check_scene(text, os.fspath(path))
        return cls(json.loads(text), path)

    def to_dict(self):
        """A deep copy of the scene's dict."""
        return copy.deepcopy(self.data)

    def to_json(self):
        """The scene file's text."""
        return self.text()

    def save(self, path):
        """Writes the scene file (it is not validated: validate() does that)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json())

    def validate(self):
        """Checks the scene as `nscd validate` does; raises InputError."""
        _core.check_scene(self.text(), self.path)

    def text(self):
        """The scene as the text of a scene file: the file read by load() while data is unchanged."""
        if self._file_text is not None and self._file_text[1] == self.data:
            return self._file_text[0]
        return json.dumps(self.data, indent=2, default=_json_default) + "\n"

    def sha256(self):
        """SHA-256 of text(): a checkpoint restores only into a simulation of the same text."""
        return hashlib.sha256(self.text().encode("utf-8")).hexdigest()

    def __repr__(self):
        return f"Scene({self.data.get('name', os.path.splitext(os.path.basename(self.path))[0])!r}, path={self.path!r})"
