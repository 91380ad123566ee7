"""Courses: the run against the clock through a level's gates (docs/model.md#courses).

Choosing `course:<id>` (menu group "courses", `Simulation.select`) restarts the flight
(`Reset`: every feature starts afresh) and puts the drone on the course's start pad (its
`start` pad, else the level's spawn pad), motors off, then counts down 3 s. Inputs work
during the countdown; the timer starts once it has ended *and* the start condition is met:
gate 0 crossed (`start = "gate"`), or the start pad left (`start = "pad:<id>"`).

Every tick (COLLISION stage, after the contacts) `RunCourse` takes the segment of the
centre of mass from its position at the previous tick to the present one and asks
`world.course` whether it passed the next gate (sub-tick timing: the split is the time at
the crossing point). Crossing a later gate, or the next gate's plane just outside its
opening, is a miss (`GateMissed`): the next gate stays the same and must be flown back to.
Passing the last gate of the last lap finishes a `finish = "gate"` course; a
`finish = "pad:<id>"` course finishes at the tick resting contact with that pad begins, after
the last gate. Restart (and a level swapped in without the course) ends the run: idle.

`CourseState` (a resource) is the run; `CourseRecord` its frozen snapshot (telemetry's
`course`). The best run's splits come from `CourseState.best_lookup` (set by whoever keeps
best times: game/best_times.py), for the deltas of `GatePassed` and `CourseFinished.best_s`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable

import esper

from components import events
from components.flight import RigidBody
from components.world import Collider
from engine.app import App
from engine.stages import Stage
from systems.collision import ResolveContacts
from systems.menu import Menu, MenuEntry
from systems.scene import Player, SceneConfig, drone_components, place_at_spawn
from world.course import CompiledCourse, find_course, gate_crossed, gate_missed, medal
from world.level import ActiveLevel

COURSE_PREFIX = "course:"  # menu entry ids: course:<course id>
COURSE_GROUP = "courses"
COUNTDOWN_S = 3.0

#: (best time s, best splits) of a course by id, or None (game/best_times.py provides one).
BestLookup = Callable[[str], "tuple[float, tuple[float, ...]] | None"]


@dataclass(frozen=True)
class CourseRecord:
    """The course run in telemetry (`course`): which course, its status, the next gate, the
    passages in all, the time and the splits."""

    course_id: str = ""  # "" none
    status: str = "idle"  # "idle" | "countdown" | "running" | "finished"
    gate: int = 0  # the next passage (0 … gates − 1; == gates once all passed)
    gates: int = 0  # gates × laps
    time_s: float = 0.0  # since the start; in the countdown, minus the seconds left
    splits: tuple[float, ...] = ()  # the time at each gate passed


@dataclass
class CourseState:
    """The course run (a resource)."""

    course_id: str = ""
    status: str = "idle"
    gate: int = 0
    gates: int = 0
    time_s: float = 0.0
    splits: tuple[float, ...] = ()
    best: tuple[float, ...] | None = None  # the best run's splits, for deltas
    best_s: float | None = None  # the best run's time
    medal: str = ""  # set when finished
    started: bool = False  # the timer runs (the countdown is over and the start condition met)
    course: CompiledCourse | None = None
    best_lookup: BestLookup | None = None
    level_version: int = -1
    # the clock of the run, in ticks: the present tick, the countdown's end, the timer's origin
    tick: int = 0
    countdown_end: int = 0
    origin: float = 0.0
    last_position: tuple[float, float, float] | None = None

    def record(self) -> CourseRecord:
        return CourseRecord(self.course_id, self.status, self.gate, self.gates, float(self.time_s), tuple(self.splits))

    def clear(self) -> None:
        """Idle: no run."""
        self.course_id, self.status, self.gate, self.gates, self.time_s = "", "idle", 0, 0, 0.0
        self.splits, self.best, self.best_s, self.medal, self.started, self.course = (), None, None, "", False, None
        self.last_position = None


class CourseRunner:
    """Starting a course (its menu entries) and ending the run on Restart (a long-lived handler)."""

    def __init__(self, app: App, state: CourseState) -> None:
        self.app = app
        self.state = state

    def menu_entries(self) -> list[MenuEntry]:
        level = self.app.resource(ActiveLevel).level
        if level is None:
            return []
        return [MenuEntry(COURSE_PREFIX + c.id, f"Course: {c.name}", partial(self.start, c.id), COURSE_GROUP)
                for c in level.courses]

    def sync_menu(self) -> None:
        menu = self.app.try_resource(Menu)
        if menu is None:
            return
        menu.remove_group(COURSE_GROUP)
        for entry in self.menu_entries():
            menu.add(entry)

    def start(self, course_id: str) -> None:
        """Restart on the course's start pad and count down."""
        app, state = self.app, self.state
        active = app.resource(ActiveLevel)
        level = active.level
        model = find_course(level, course_id)
        if model is None:
            app.emit(events.Message(f"Course: no course {course_id!r} in this level"))
            return
        app.emit(events.Reset())  # every feature starts afresh; on_reset below clears the run
        pad = level.pad(model.start[4:]) if model.start.startswith("pad:") else level.spawn
        envelope_height = app.resource(SceneConfig).vehicle.envelope_size_m[2]
        place_at_spawn(app, (pad.position[0], pad.position[1], pad.top_m + 0.5 * envelope_height))
        course = CompiledCourse.of(model)
        state.clear()
        state.course, state.course_id, state.status = course, course.id, "countdown"
        state.gates = course.passages
        state.level_version = active.version
        best = state.best_lookup(course.id) if state.best_lookup is not None else None
        if best is not None:
            state.best_s, state.best = float(best[0]), tuple(float(s) for s in best[1])
        tick_s = app.clock.tick_s
        state.tick = 0
        state.countdown_end = round(COUNTDOWN_S / tick_s)
        state.time_s = -COUNTDOWN_S

    def on_reset(self, event: events.Reset) -> None:
        if event.entity is None or event.entity == self.app.resource(Player).entity:
            self.state.clear()  # the player's restart ends the run; another drone's does not


def _on_pad(collider: Collider, pad_id: str) -> bool:
    """Resting on the pad `pad_id` (a real resting contact)."""
    touched = collider.contact_id if collider.contact_id is not None else collider.support_id
    return bool(collider.contact and collider.resting and touched == pad_id)


_NOT_RUNNING = frozenset(("idle", "finished"))


class ListCourses(esper.Processor):
    """GAMEPLAY stage, once a frame: a level swapped in or reloaded brings its courses to the menu."""

    def __init__(self, app: App, runner: CourseRunner) -> None:
        self.active = app.resource(ActiveLevel)
        self.runner = runner
        self.version = self.active.version
        runner.sync_menu()

    def process(self, dt: float) -> None:
        if self.version != self.active.version:
            self.version = self.active.version
            self.runner.sync_menu()


class RunCourse(esper.Processor):
    """COLLISION stage: countdown, start, passages, misses, finish — once per tick."""

    def __init__(self, app: App, state: CourseState, runner: CourseRunner) -> None:
        self.app = app
        self.state = state
        self.runner = runner
        self.active = app.resource(ActiveLevel)  # swapped in place: the same object for the App's life

    def idle(self) -> bool:
        """No course is counting down or running: its ticks have nothing to do."""
        return self.state.status in _NOT_RUNNING

    def process(self, dt: float) -> None:
        # every tick, and most ticks no course runs: one comparison and out
        state = self.state
        if state.status in _NOT_RUNNING:
            return
        active = self.active
        if state.level_version != active.version:
            model = find_course(active.level, state.course_id)
            if model is None or not model.gates:
                state.clear()
                return
            state.course = CompiledCourse.of(model)  # moved gates apply from now on
            state.gates = state.course.passages
            state.gate = min(state.gate, state.gates)
            state.splits = state.splits[:state.gate]
            state.level_version = active.version
        body, collider = drone_components(self.app, RigidBody, Collider)  # a course is the player's
        p1 = (float(body.position[0]), float(body.position[1]), float(body.position[2]))
        p0 = state.last_position if state.last_position is not None else p1
        state.last_position = p1
        self._tick(p0, p1, collider, dt)

    def _tick(self, p0, p1, collider: Collider, dt: float) -> None:
        state, course = self.state, self.state.course
        i = state.tick
        state.tick += 1
        if state.status == "countdown":
            left = state.countdown_end - state.tick
            state.time_s = -left * dt
            if left <= 0:
                state.status, state.time_s = "running", 0.0
                if course.start_pad is not None and not _on_pad(collider, course.start_pad):
                    self._start(state.tick)
            return
        if not state.started:
            if course.start_pad is not None:
                if not _on_pad(collider, course.start_pad):
                    self._start(i + 1)
                return
            f = gate_crossed(course.gate(0), p0, p1)
            if f is None:
                return
            self._start(i + f)
            state.time_s = (state.tick - state.origin) * dt
            self._pass(0.0)
            return
        state.time_s = (state.tick - state.origin) * dt
        if state.gate < state.gates:
            gate = course.gate(state.gate)
            f = gate_crossed(gate, p0, p1)
            if f is not None:
                self._pass((i + f - state.origin) * dt)
            elif gate_missed(gate, p0, p1) or self._later_gate_crossed(p0, p1):
                self.app.emit(events.GateMissed(state.course_id, state.gate))
        elif course.finish_pad is not None and _on_pad(collider, course.finish_pad):
            self._finish(state.time_s)

    def _later_gate_crossed(self, p0, p1) -> bool:
        """A gate after the next one (of the gates still to pass in this lap and the next) passed."""
        state, course = self.state, self.state.course
        n = len(course.gates)
        seen = {state.gate % n}
        for k in range(state.gate + 1, min(state.gates, state.gate + n)):
            if k % n in seen:
                continue
            seen.add(k % n)
            if gate_crossed(course.gate(k), p0, p1) is not None:
                return True
        return False

    def _start(self, origin_ticks: float) -> None:
        state = self.state
        state.started, state.origin, state.time_s = True, origin_ticks, 0.0
        self.app.emit(events.CourseStarted(state.course_id))

    def _pass(self, time_s: float) -> None:
        state = self.state
        index = state.gate
        state.splits = (*state.splits, time_s)
        state.gate += 1
        delta = time_s - state.best[index] if state.best is not None and index < len(state.best) else None
        self.app.emit(events.GatePassed(state.course_id, index, time_s, delta))
        if state.gate >= state.gates and state.course.finish_pad is None:
            self._finish(time_s)

    def _finish(self, time_s: float) -> None:
        state = self.state
        state.status, state.time_s = "finished", time_s
        state.medal = medal(time_s, state.course.par_s)
        best = time_s if state.best_s is None else min(state.best_s, time_s)
        self.app.emit(events.CourseFinished(state.course_id, time_s, best, state.medal))


class CoursePlugin:
    """The course run: `CourseState`, the `course:<id>` menu entries, `RunCourse`."""

    name = "course"

    def build(self, app: App) -> None:
        state = app.try_resource(CourseState) or app.insert_resource(CourseState())
        self.runner = CourseRunner(app, state)
        self.system = RunCourse(app, state, self.runner)
        app.add_system(self.system, Stage.COLLISION, after=ResolveContacts)
        app.add_system(ListCourses(app, self.runner), Stage.GAMEPLAY)
        app.on(events.Reset, self.runner.on_reset)
