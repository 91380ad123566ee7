"""The generic ECS runtime Donify runs on: an App owning an esper world, ordered stages,
plugins, resources and events. It knows nothing of drones.

Names are loaded on first use, so pure code may use `engine.datafile` without pulling in
esper.
"""

from importlib import import_module

_NAMES = {"App": "engine.app", "Plugin": "engine.app", "FixedStepClock": "engine.clock", "Stage": "engine.stages"}

__all__ = list(_NAMES)


def __getattr__(name: str):
    if name in _NAMES:
        return getattr(import_module(_NAMES[name]), name)
    raise AttributeError(f"module 'engine' has no attribute {name!r}")
