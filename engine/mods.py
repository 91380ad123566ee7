"""Mods while the game runs: what belongs to which mod, and what happens when one misbehaves.

A mod is a plugin built with `App.add_plugin(plugin, mod=True)`. While it builds, every
system it adds and every handler it registers is recorded under it (a `PluginRecord`) and
wrapped, so the App can take the whole mod out at once. The wrappers enforce three rules:

- **An exception disables the mod.** The first exception (or `sys.exit()`) out of any of its
  systems or handlers disables all of them; the mod is reported in one line naming it, the
  system or handler and the exception, and the game and the other mods go on. Strict mode
  re-raises instead (a mod author wants the traceback).
- **The core state stays finite.** With a `StateGuard` set (the game sets one over the
  drone's physical state), the state is copied before mod code runs and checked after;
  a non-finite value is put back to the copy (the last good state) and the mod disabled.
  A fixed-stage mod system runs once per tick, so this holds per tick.
- **A slow mod is named.** The time spent in each mod's code is summed; once per window
  (a second of game time) a mod costing more than the budget per frame on average is
  reported once, with its cost and its costliest system.

The game's own plugins are not wrapped: their exceptions are bugs and must surface as such.
With no mod loaded there is no supervisor at all and a frame runs exactly as without mods.

Taking a mod out is deferred to the end of the frame: the App may be iterating the very
system list or handler list the mod sits in when it fails. Until then its wrappers are
inert (they check the record's `disabled` flag).
"""

from __future__ import annotations

import logging
import time
import weakref
from dataclasses import dataclass, field
from types import MethodType
from typing import Any, Callable, Protocol

import esper

from engine.stages import Stage

#: Mod reports go to the game's logger: the command line prints them as `donify: …` on stderr.
log = logging.getLogger("donify")


class ModError(Exception):
    """A broken mod, in strict mode (or a mod that could not be found, imported or built)."""


class StateGuard(Protocol):
    """The state mod code must leave finite: copied before it runs, checked after."""

    def snapshot(self) -> None: ...

    def problem(self) -> str | None:
        """None if every value is finite, else which one is not (e.g. "RigidBody.position")."""

    def restore(self) -> None: ...


@dataclass
class ModPolicy:
    """How the App treats its mods. `timer` is injectable for tests."""

    strict: bool = False
    budget_s: float = 0.002  # mean cost per frame above which a mod is named
    window_s: float = 1.0  # game seconds over which that mean is taken
    message_event: Callable[[str], Any] | None = None  # makes the event a report is emitted as (the HUD's message), or None
    state_guard: StateGuard | None = None
    timer: Callable[[], float] = time.perf_counter


@dataclass(eq=False)
class PluginRecord:
    """A plugin and what its build added; for a mod, its running cost and whether it is disabled."""

    name: str
    plugin: Any
    mod: bool = False
    systems: list = field(default_factory=list)  # (stage, system as added to the App)
    handlers: list = field(default_factory=list)  # (event name, handler as registered with the App)
    calls: list = field(default_factory=list)  # other callables the game calls back (a menu entry's action)
    disabled: bool = False
    slow_reported: bool = False
    cost_s: float = 0.0  # this window

    def parts(self) -> list:
        """Every guarded system and handler the mod added."""
        return [p for _, p in self.systems] + [p for _, p in self.handlers] + list(self.calls)


class _Guarded:
    """Common part of a guarded system and a guarded handler: which mod, what, its cost."""

    def __init__(self, supervisor: "ModSupervisor", record: PluginRecord, what: str) -> None:
        self.supervisor = supervisor
        self.record = record
        self.what = what
        self.cost_s = 0.0  # this window


class GuardedSystem(_Guarded, esper.Processor):
    """A mod's processor as the App runs it; `system` is the mod's own."""

    def __init__(self, supervisor: "ModSupervisor", record: PluginRecord, system: esper.Processor,
                 stage: Stage) -> None:
        super().__init__(supervisor, record, f"system {type(system).__name__} ({stage.name})")
        self.system = system

    def process(self, dt: float) -> None:
        if not self.record.disabled:
            self.supervisor.run(self, self.system.process, (dt,))


class GuardedHandler(_Guarded):
    """A mod's event handler; the App holds `handle` weakly, the record holds this object,
    and this object holds the mod's handler weakly (as the App would have)."""

    def __init__(self, supervisor: "ModSupervisor", record: PluginRecord, event: str, handler: Any) -> None:
        name = getattr(handler, "__qualname__", type(handler).__name__)
        super().__init__(supervisor, record, f"handler {name} on {event}")
        self.event = event
        self.ref = weakref.WeakMethod(handler) if isinstance(handler, MethodType) else weakref.ref(handler)

    def handle(self, *payload: Any) -> None:
        handler = self.ref()
        if handler is not None and not self.record.disabled:
            self.supervisor.run(self, handler, payload)


class ModHost(Protocol):
    """What the supervisor needs of the App (engine.app.App) that owns the mods."""

    def activate(self) -> None: ...

    def emit(self, event: Any) -> None: ...

    def remove_handler(self, event: str, handler: Any) -> None: ...

    def _remove_system(self, system: esper.Processor) -> None: ...


class GuardedCall(_Guarded):
    """Any other mod callable the game calls back (a menu entry's action), guarded like a
    handler; held strongly, as the game holds the callable it replaces."""

    def __init__(self, supervisor: "ModSupervisor", record: PluginRecord, what: str, function: Callable) -> None:
        super().__init__(supervisor, record, what)
        self.function = function

    def __call__(self, *args: Any) -> None:
        if not self.record.disabled:
            self.supervisor.run(self, self.function, args)


class ModSupervisor:
    """The App's mods: their records, the reports, the cost window. Made with the first mod."""

    def __init__(self, app: ModHost, policy: ModPolicy | None = None) -> None:
        self.app = app
        self.policy = policy or ModPolicy()
        self.records: list[PluginRecord] = []
        self.problems: list[str] = []  # every report, one line each, in order
        self._pending: list[PluginRecord] = []  # disabled, still to take out of the App
        self._depth = 0  # mod code running inside mod code (a handler of an event a mod emits)
        self._window_s = 0.0
        self._window_frames = 0

    # -- running mod code -------------------------------------------------------------------------
    def run(self, part: _Guarded, function: Callable, args: tuple) -> None:
        policy = self.policy
        guard = policy.state_guard if self._depth == 0 else None  # the outermost call owns the copy
        if guard is not None:
            guard.snapshot()
        self._depth += 1
        start = policy.timer()
        try:
            function(*args)
        except (Exception, SystemExit) as exc:  # KeyboardInterrupt is the player's: it still quits
            if policy.strict:
                raise
            if guard is not None and guard.problem() is not None:
                guard.restore()
            self.disable(part.record, f"{part.what} raised {type(exc).__name__}: {exc}")
            return
        finally:
            elapsed = policy.timer() - start
            self._depth -= 1
            part.cost_s += elapsed
            part.record.cost_s += elapsed
        if guard is not None:
            problem = guard.problem()
            if problem is not None:
                guard.restore()
                line = self._line(part.record, f"{part.what} left {problem} non-finite; "
                                                f"the state from before it ran is restored")
                if policy.strict:
                    raise ModError(line)
                self.disable(part.record, line=line)

    def _line(self, record: PluginRecord, reason: str) -> str:
        return f"mod {record.name!r} disabled: {reason}"

    def disable(self, record: PluginRecord, reason: str = "", line: str | None = None) -> None:
        """Disable a mod now (its wrappers go inert) and report it in one line."""
        if record.disabled:
            return
        record.disabled = True
        self._pending.append(record)
        self.report(line or self._line(record, reason))

    def report(self, line: str) -> None:
        self.problems.append(line)
        log.warning("%s", line)
        if self.policy.message_event is not None:
            self.app.emit(self.policy.message_event(line))

    # -- between frames -----------------------------------------------------------------------------
    def end_frame(self, dt: float) -> None:
        """After a frame: take disabled mods out; once per window, name the slow ones."""
        if self._pending:
            self.purge()
        self._window_s += dt
        self._window_frames += 1
        if self._window_s < self.policy.window_s:
            return
        frames = self._window_frames
        for record in self.records:
            if record.disabled or record.slow_reported or record.cost_s / frames <= self.policy.budget_s:
                continue
            record.slow_reported = True
            worst = max(record.parts(), key=lambda p: p.cost_s)
            self.report(f"mod {record.name!r} is slow: {record.cost_s / frames * 1e3:.1f} ms a frame on average "
                        f"over {self._window_s:.1f} s (budget {self.policy.budget_s * 1e3:.1f} ms), "
                        f"most of it in {worst.what}")
        for record in self.records:
            record.cost_s = 0.0
            for part in record.parts():
                part.cost_s = 0.0
        self._window_s = 0.0
        self._window_frames = 0

    def discard(self, record: PluginRecord) -> None:
        """Forget a mod whose build failed, taking out at once whatever it had added."""
        record.disabled = True
        if record in self.records:
            self.records.remove(record)
        self._pending.append(record)
        self.purge()

    def purge(self) -> None:
        """Remove the disabled mods' processors, fixed systems and handlers from the App."""
        app = self.app
        app.activate()
        for record in self._pending:
            for _stage, part in record.systems:
                app._remove_system(part)  # noqa: SLF001
            for event, part in record.handlers:
                app.remove_handler(event, part.handle)
        self._pending.clear()


def inner(system: Any) -> Any:
    """The mod's own processor behind a guard (or the system itself)."""
    return system.system if isinstance(system, GuardedSystem) else system
