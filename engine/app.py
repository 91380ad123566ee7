"""The App: one esper world, its systems in declared stages, its resources and plugins.

Modelled on Bevy's App: plugins build it (`name` + `build(app)`), systems are added to a
named stage, world-wide state lives in typed resources rather than module globals. esper's
state is global per *world context*, so every App switches to its own uniquely named world;
two Apps (two tests, a game and a replay) never see each other's entities.

Order: the stages run in their declared order (`engine.stages`). Inside a stage, a system
runs in the order systems were added unless it declares `after=` or `before=` other systems
(their types), as Bevy's system ordering does; `App.systems()` lists the resolved order. A
system's `process` is looked up once, when it is added: a frame calls the bound methods.

A frame (`App.update(dt)`) runs the stages in order: a frame stage's systems once with the
frame's dt, the fixed stages (CONTROL, DYNAMICS, COLLISION) together once per whole tick the
`FixedStepClock` grants. The App runs its systems itself (esper's processor list stays
empty): a frame costs the systems' own calls and nothing per stage. A `TickRunner` (one at
most, `app.tick_runner`) may take whole ticks instead: it runs as many of the frame's ticks as
it can do exactly as the fixed systems would, in one go, and the systems run the rest.

Events are typed: an event is a dataclass instance (the game's are in `components.events`),
`app.on(EventType, handler)` registers a handler that receives the instance, and
`app.emit(event)` dispatches it to that App's handlers, in the order they were registered.
The App keeps them itself, by weak reference (a handler goes when its object goes), rather
than in esper's event registry: esper's clean-up of a dead handler looks in the *current*
world's registry, so a handler of one App dying while another App's world is current was left
there dead, printed a KeyError traceback, and made the next event of its type raise.

An App's world lives as long as the App: `close()` deletes it, and so does the App's garbage
collection or the interpreter's exit if nobody called `close()` (a batch that drops one
Simulation for the next does not keep every world's entities).

The App records which plugin added each system and handler. A plugin added as a mod
(`add_plugin(plugin, mod=True)`) has its systems and handlers guarded (see `engine.mods`):
a mod that raises, leaves the drone's state non-finite or runs slow is disabled or named,
and the game goes on.
"""

from __future__ import annotations

import itertools
import logging
import weakref
from dataclasses import dataclass, is_dataclass
from types import MethodType
from typing import Any, Callable, Iterable, Protocol, TypeVar, runtime_checkable

import esper

from engine.clock import FixedStepClock
from engine.mods import GuardedCall, GuardedHandler, GuardedSystem, ModPolicy, ModSupervisor, PluginRecord, inner
from engine.stages import ORDER, Stage

log = logging.getLogger("donify.engine")

R = TypeVar("R")
_world_ids = itertools.count(1)


@runtime_checkable
class Plugin(Protocol):
    """A feature of the game or a mod: adds components, systems, handlers and settings."""

    name: str

    def build(self, app: "App") -> None: ...


class TickRunner(Protocol):
    """Runs whole fixed ticks in one go where the fixed systems would spend most of a tick in
    Python around compiled code (systems/fused_ticks.py)."""

    def run_ticks(self, ticks: int, tick_s: float) -> int:
        """Run up to `ticks` ticks, each with the very result the fixed systems (the list
        `App.fixed_systems()`) would give it; return how many it ran (0: let the systems run
        the next one)."""
        ...


def event_name(kind: type) -> str:
    """The name an event type is registered under: its module and qualified name (two mods'
    events of the same class name never meet)."""
    if not isinstance(kind, type):
        raise TypeError(f"expected an event type (a dataclass such as components.events.Impact), got {kind!r}")
    return f"{kind.__module__}.{kind.__qualname__}"


@dataclass(eq=False)
class _Slot:
    """A system as added to a stage, with the systems (types) it must run after or before."""

    system: esper.Processor
    after: tuple[type, ...]
    before: tuple[type, ...]

    @property
    def kind(self) -> type:
        return type(inner(self.system))


def _types(value: type | Iterable[type] | None, what: str) -> tuple[type, ...]:
    kinds = () if value is None else (value,) if isinstance(value, type) else tuple(value)
    for kind in kinds:
        if not isinstance(kind, type):
            raise TypeError(f"{what}=: expected system types (classes), got {kind!r}")
    return kinds


def resolve_order(slots: list[_Slot], stage: Stage) -> list[_Slot]:
    """The stage's slots in running order: each after every system it names in `after` and
    before those in `before`; otherwise in the order added (a stable topological sort).
    Naming a type no system of this stage has is allowed (an optional feature may be absent);
    a cycle raises ValueError naming the systems in it."""
    must_precede: dict[int, set[int]] = {i: set() for i in range(len(slots))}  # i runs after these
    for i, slot in enumerate(slots):
        for j, other in enumerate(slots):
            if i != j and (issubclass(other.kind, slot.after) or issubclass(slot.kind, other.before)):
                must_precede[i].add(j)
    placed: list[int] = []
    done: set[int] = set()
    while len(placed) < len(slots):
        ready = next((i for i in range(len(slots)) if i not in done and must_precede[i] <= done), None)
        if ready is None:
            stuck = sorted({slots[i].kind.__name__ for i in range(len(slots)) if i not in done})
            raise ValueError(f"{stage.name}: the after=/before= constraints of {', '.join(stuck)} form a cycle")
        placed.append(ready)
        done.add(ready)
    return [slots[i] for i in placed]


def _delete_world(name: str) -> None:
    """Delete an esper world context if it is still there (current or not)."""
    if name in esper.list_worlds():
        if esper.current_world == name:
            esper.switch_world("default")
        esper.delete_world(name)


class App:
    """Owns an esper world context and runs its systems stage by stage."""

    def __init__(self, tick_hz: int = 240, max_frame_s: float = 0.25) -> None:
        self.world_name = f"donify-{next(_world_ids)}"
        # the world goes with the App: closed, collected, or at the interpreter's exit
        self._world_finalizer = weakref.finalize(self, _delete_world, self.world_name)
        self._handlers: dict[str, list[weakref.ref]] = {}  # event name -> weak handlers, in order
        self.clock = FixedStepClock(tick_hz, max_frame_s)
        self.resources: dict[type, Any] = {}
        self.plugins: list[Plugin] = []
        self.plugin_records: list[PluginRecord] = []  # what each plugin's build added
        self._building: PluginRecord | None = None
        self.mods: ModSupervisor | None = None  # made with the first mod: none, no guard anywhere
        self._slots: dict[Stage, list[_Slot]] = {stage: [] for stage in ORDER}  # as added
        self._running: dict[Stage, list[esper.Processor]] = {stage: [] for stage in ORDER}  # resolved order
        self._fixed_systems: list[esper.Processor] = []  # every fixed stage's, in running order
        # each system's `process`, bound once when the stage is ordered: a frame calls these
        # without looking the method up (or making a bound method) ~15 times a frame
        self._calls: dict[Stage, list[Callable[[float], None]]] = {stage: [] for stage in ORDER}
        self._fixed_calls: list[Callable[[float], None]] = []
        self._ticks_this_frame = 0
        self.frame_count = 0
        self.tick_runner: TickRunner | None = None
        self.fixed_version = 0  # counts the changes of the fixed stages' systems (a runner checks it)
        # a frame's plan: (fixed?, the live list of systems) per frame stage, and one entry for
        # all the fixed stages together, where CONTROL stands in the order
        self._plan: list[tuple[bool, list[Callable[[float], None]]]] = []
        for stage in ORDER:
            if not stage.fixed:
                self._plan.append((False, self._calls[stage]))
            elif stage is next(st for st in ORDER if st.fixed):
                self._plan.append((True, self._fixed_calls))
        self.activate()

    # -- world context -------------------------------------------------------------------
    def activate(self) -> None:
        """Make this App's world the current esper context."""
        if esper.current_world != self.world_name:
            esper.switch_world(self.world_name)

    def close(self) -> None:
        """Delete this App's world (and with it its entities and processors)."""
        self._world_finalizer()  # once: a second close, or the App's collection, does nothing

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

    def add_system(self, system: esper.Processor, stage: Stage, *,
                   after: type | Iterable[type] | None = None,
                   before: type | Iterable[type] | None = None) -> "App":
        """Add a processor to a stage. Within a stage systems run in the order added, except
        that this one runs after every system of the types in `after` and before those in
        `before` (types of this stage; absent ones are ignored, a cycle raises ValueError)."""
        self.activate()
        slot = _Slot(system, _types(after, "after"), _types(before, "before"))
        record = self._building
        if record is not None:
            if record.mod:
                slot.system = GuardedSystem(self.mods, record, system, stage)
            record.systems.append((stage, slot.system))
        slot.system.priority = stage.priority
        self._slots[stage].append(slot)
        try:
            self._resolve(stage)
        except ValueError:
            self._slots[stage].remove(slot)
            if record is not None:
                record.systems.pop()
            raise
        return self

    def _resolve(self, stage: Stage) -> None:
        self._running[stage][:] = [slot.system for slot in resolve_order(self._slots[stage], stage)]
        self._calls[stage][:] = [system.process for system in self._running[stage]]
        if stage.fixed:
            self._fixed_systems[:] = [s for st in ORDER if st.fixed for s in self._running[st]]
            self._fixed_calls[:] = [system.process for system in self._fixed_systems]
            self.fixed_version += 1

    def _remove_system(self, system: esper.Processor) -> None:
        """Take one processor (this very object, not its type) out of its stage."""
        for stage, slots in self._slots.items():
            for slot in slots:
                if slot.system is system:
                    slots.remove(slot)
                    self._resolve(stage)
                    return

    def systems(self) -> list[tuple[Stage, str]]:
        """Every system with its stage, in the order a frame runs them."""
        return [(stage, type(inner(s)).__name__) for stage in ORDER for s in self._running[stage]]

    def fixed_systems(self) -> tuple[esper.Processor, ...]:
        """The systems of the fixed stages in running order (a mod's: its guard)."""
        return tuple(self._fixed_systems)

    def get_system(self, kind: type[R]) -> R | None:
        """The first system of this type, whatever its stage (a mod's: behind its guard)."""
        for stage in ORDER:
            for system in self._running[stage]:
                if isinstance(inner(system), kind):
                    return inner(system)
        return None

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
    def on(self, event: type, handler: Any) -> None:
        """Call `handler(event)` with every event of this type emitted (pass a bound method of
        a long-lived object: the App keeps weak references, a lambda would be gone at once).
        The same handler registered twice is called once."""
        name = event_name(event)
        record = self._building
        if record is not None:
            if record.mod:
                guarded = GuardedHandler(self.mods, record, event.__name__, handler)
                record.handlers.append((name, guarded))
                handler = guarded.handle
            else:  # a name only: the App holds handlers weakly, the record must not keep them alive
                record.handlers.append((name, getattr(handler, "__qualname__", repr(handler))))
        refs = self._handlers.setdefault(name, [])
        if not any(ref() == handler for ref in refs):
            refs.append(weakref.WeakMethod(handler) if isinstance(handler, MethodType) else weakref.ref(handler))

    def remove_handler(self, event: type | str, handler: Any) -> None:
        """Stop calling `handler` with events of this type (or event name); absent: nothing."""
        name = event if isinstance(event, str) else event_name(event)
        refs = self._handlers.get(name)
        if refs:
            refs[:] = [ref for ref in refs if ref() != handler]

    def guard(self, function: Callable, what: str) -> Callable:
        """`function` as the game should call it back: while a mod builds, wrapped so that an
        exception disables the mod instead of reaching the game (see engine.mods); otherwise
        `function` itself. For callbacks that are neither systems nor handlers (a menu action)."""
        record = self._building
        if record is None or not record.mod:
            return function
        guarded = GuardedCall(self.mods, record, what, function)
        record.calls.append(guarded)
        return guarded

    def emit(self, event: Any) -> None:
        """Dispatch an event (a dataclass instance) to the handlers of its type."""
        if not is_dataclass(event) or isinstance(event, type):
            raise TypeError(f"expected an event (a dataclass instance such as components.events.Message(...)), got {event!r}")
        refs = self._handlers.get(event_name(type(event)))
        if not refs:
            return
        self.activate()  # a handler may use esper: this App's world
        for ref in tuple(refs):  # a handler may register or remove handlers
            handler = ref()
            if handler is None:  # its object is gone: forget it
                if ref in refs:
                    refs.remove(ref)
            else:
                handler(event)

    # -- running -------------------------------------------------------------------------
    def update(self, frame_dt_s: float) -> int:
        """Run one frame; returns the number of fixed ticks it simulated."""
        self.activate()
        clock = self.clock
        ticks = self._ticks_this_frame = clock.advance(frame_dt_s)
        dt = clock.frame_s  # the frame as integrated: clipped to max_frame_s
        tick_s = clock.tick_s
        esper.clear_dead_entities()  # what esper.process would do first
        runner = self.tick_runner
        for fixed, calls in self._plan:
            if fixed:
                done = 0
                while done < ticks:
                    if runner is not None:
                        done += runner.run_ticks(ticks - done, tick_s)
                        if done >= ticks:
                            break
                    for process in calls:
                        process(tick_s)
                    done += 1
            else:
                for process in calls:
                    process(dt)
        self.frame_count += 1
        if self.mods is not None:
            self.mods.end_frame(dt)
        return self._ticks_this_frame
