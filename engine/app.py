"""The App: one esper world, its systems in declared stages, its resources and plugins.

Modelled on Bevy's App: plugins build it (`name` + `build(app)`), systems are added to a
named stage, world-wide state lives in typed resources rather than module globals. esper's
state is global per *world context*, so every App switches to its own uniquely named world;
two Apps (two tests, a game and a replay) never see each other's entities.

A frame (`App.update(dt)`) runs the frame stages through `esper.process`; the fixed stages
(CONTROL, DYNAMICS, COLLISION) are run by one processor placed at their priority, once per
whole tick the `FixedStepClock` grants.

The App records which plugin added each system and handler. A plugin added as a mod
(`add_plugin(plugin, mod=True)`) has its systems and handlers guarded (see `engine.mods`):
a mod that raises, leaves the drone's state non-finite or runs slow is disabled or named,
and the game goes on.
"""

from __future__ import annotations

import itertools
import logging
from typing import Any, Iterable, Protocol, TypeVar, runtime_checkable

import esper

from engine.clock import FixedStepClock
from engine.mods import GuardedHandler, GuardedSystem, ModPolicy, ModSupervisor, PluginRecord, inner
from engine.stages import FIXED_STEP_PRIORITY, ORDER, Stage

log = logging.getLogger("donify.engine")

R = TypeVar("R")
_world_ids = itertools.count(1)


@runtime_checkable
class Plugin(Protocol):
    """A feature of the game or a mod: adds components, systems, handlers and settings."""

    name: str

    def build(self, app: "App") -> None: ...


class _FixedStages(esper.Processor):
    """Runs every fixed-stage system once per whole tick the clock grants this frame."""

    def __init__(self, app: "App") -> None:
        self.app = app

    def process(self, dt: float) -> None:
        app = self.app
        tick_s = app.clock.tick_s
        systems = app._fixed_systems
        for _ in range(app._ticks_this_frame):
            for system in systems:
                system.process(tick_s)


class App:
    """Owns an esper world context and runs its systems stage by stage."""

    def __init__(self, tick_hz: int = 240, max_frame_s: float = 0.25) -> None:
        self.world_name = f"donify-{next(_world_ids)}"
        self.clock = FixedStepClock(tick_hz, max_frame_s)
        self.resources: dict[type, Any] = {}
        self.plugins: list[Plugin] = []
        self.plugin_records: list[PluginRecord] = []  # what each plugin's build added
        self._building: PluginRecord | None = None
        self.mods: ModSupervisor | None = None  # made with the first mod: none, no guard anywhere
        self._fixed_systems: list[esper.Processor] = []
        self._fixed_stage_of: list[Stage] = []
        self._ticks_this_frame = 0
        self.frame_count = 0
        self.activate()
        esper.add_processor(_FixedStages(self), priority=FIXED_STEP_PRIORITY)

    # -- world context -------------------------------------------------------------------
    def activate(self) -> None:
        """Make this App's world the current esper context."""
        if esper.current_world != self.world_name:
            esper.switch_world(self.world_name)

    def close(self) -> None:
        """Delete this App's world (and with it its entities, processors and handlers)."""
        if self.world_name in esper.list_worlds():
            if esper.current_world == self.world_name:
                esper.switch_world("default")
            esper.delete_world(self.world_name)

    # -- building ------------------------------------------------------------------------
    def add_plugin(self, plugin: Plugin, *, mod: bool = False) -> "App":
        """Build a plugin. `mod`: a third-party plugin whose systems and handlers are guarded;
        if its build raises, whatever it added is taken out again before the error propagates.
        A plugin added from another plugin's build belongs to that one."""
        self.activate()
        if self._building is not None:
            plugin.build(self)
            self.plugins.append(plugin)
            return self
        record = PluginRecord(str(getattr(plugin, "name", type(plugin).__name__)), plugin, mod=mod)
        if mod:
            supervisor = self.mod_supervisor()
            supervisor.records.append(record)
        self._building = record
        try:
            plugin.build(self)
        except BaseException:
            if mod:
                supervisor.discard(record)
            raise
        finally:
            self._building = None
        self.plugin_records.append(record)
        self.plugins.append(plugin)
        return self

    def mod_supervisor(self, policy: ModPolicy | None = None) -> ModSupervisor:
        """The mods' supervisor (made on first use; `policy` replaces its policy)."""
        if self.mods is None:
            self.mods = ModSupervisor(self, policy)
        elif policy is not None:
            self.mods.policy = policy
        return self.mods

    def add_plugins(self, plugins: Iterable[Plugin]) -> "App":
        for plugin in plugins:
            self.add_plugin(plugin)
        return self

    def add_system(self, system: esper.Processor, stage: Stage) -> "App":
        """Add a processor to a stage; within a stage, systems run in the order added."""
        self.activate()
        record = self._building
        if record is not None:
            if record.mod:
                system = GuardedSystem(self.mods, record, system, stage)
            record.systems.append((stage, system))
        if stage.fixed:
            # keep fixed systems sorted by stage, stable within a stage
            index = sum(1 for s in self._fixed_stage_of if s.priority >= stage.priority)
            self._fixed_systems.insert(index, system)
            self._fixed_stage_of.insert(index, stage)
            system.priority = stage.priority
        else:
            # esper sorts by priority (stable); the stage priority keeps declared order
            esper.add_processor(system, priority=stage.priority)
        return self

    def _remove_system(self, system: esper.Processor) -> None:
        """Take one processor (this very object, not its type) out of the frame or the fixed stages."""
        self.activate()
        for i, fixed in enumerate(self._fixed_systems):
            if fixed is system:
                del self._fixed_systems[i]
                del self._fixed_stage_of[i]
                return
        processors = esper._processors  # noqa: SLF001 (esper removes by type only)
        for i, frame_system in enumerate(processors):
            if frame_system is system:
                del processors[i]
                break
        if esper._processors_dict.get(type(system)) is system:  # noqa: SLF001
            del esper._processors_dict[type(system)]  # noqa: SLF001

    def systems(self) -> list[tuple[Stage, str]]:
        """Every system with its stage, in the order a frame runs them."""
        self.activate()
        stage_of = {s.priority: s for s in ORDER}
        frame = [(stage_of[p.priority], p) for p in esper._processors if not isinstance(p, _FixedStages)]  # noqa: SLF001
        fixed = list(zip(self._fixed_stage_of, self._fixed_systems))
        out: list[tuple[Stage, str]] = []
        for stage in ORDER:
            out += [(st, type(inner(p)).__name__) for st, p in (fixed if stage.fixed else frame) if st is stage]
        return out

    def get_system(self, kind: type[R]) -> R | None:
        for system in self._fixed_systems:
            if isinstance(inner(system), kind):
                return inner(system)
        self.activate()
        found = esper.get_processor(kind)  # type: ignore[arg-type]
        if found is None and self.mods is not None:  # a mod's system sits behind its guard
            found = next((inner(p) for p in esper._processors if isinstance(inner(p), kind)), None)  # noqa: SLF001
        return found

    # -- resources -----------------------------------------------------------------------
    def insert_resource(self, resource: Any, kind: type | None = None) -> Any:
        self.resources[kind or type(resource)] = resource
        return resource

    def resource(self, kind: type[R]) -> R:
        try:
            return self.resources[kind]
        except KeyError:
            raise LookupError(f"no resource of type {kind.__name__} in this App") from None

    def try_resource(self, kind: type[R]) -> R | None:
        return self.resources.get(kind)

    # -- events --------------------------------------------------------------------------
    def on(self, event: str, handler: Any) -> None:
        """Register a handler (a bound method of a long-lived object: esper keeps weak refs)."""
        self.activate()
        record = self._building
        if record is not None:
            if record.mod:
                guarded = GuardedHandler(self.mods, record, event, handler)
                record.handlers.append((event, guarded))
                handler = guarded.handle
            else:  # a name only: esper holds handlers weakly, the record must not keep them alive
                record.handlers.append((event, getattr(handler, "__qualname__", repr(handler))))
        esper.set_handler(event, handler)

    def emit(self, event: str, *payload: Any) -> None:
        self.activate()
        esper.dispatch_event(event, *payload)

    # -- running -------------------------------------------------------------------------
    def update(self, frame_dt_s: float) -> int:
        """Run one frame; returns the number of fixed ticks it simulated."""
        self.activate()
        self._ticks_this_frame = self.clock.advance(frame_dt_s)
        dt = min(frame_dt_s, self.clock.max_frame_s)
        esper.process(dt)
        self.frame_count += 1
        if self.mods is not None:
            self.mods.end_frame(dt)
        return self._ticks_this_frame
