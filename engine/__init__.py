"""The generic ECS runtime Donify runs on: an App owning an esper world, ordered stages,
plugins, resources and events. It knows nothing of drones."""

from engine.app import App, Plugin
from engine.clock import FixedStepClock
from engine.stages import Stage

__all__ = ["App", "Plugin", "FixedStepClock", "Stage"]
