"""Courses in the window: the gates drawn (passes/gates.py), the course HUD
(passes/course_hud.py), the results screen after a run and its Retry / Back
(passes/course_results.py). The runs' replays and ghosts are game/replay_window.py's.

When a run finishes (`CourseFinished`) the results screen opens over the frozen flight (the
simulation waits, like under the title screen): the time, the medal against par, the best
time, the splits with their deltas to the best run before this one, and two rows —
**Retry** (the same course again: `course:<id>`, as the menu does) and **Back** (the title
screen). Up / down (left stick, arrows, D-pad) choose, A / Enter activate, B / Esc is Back;
the mouse points and clicks. The screen is drawn by game/render/passes/course_results.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pyglet

from components import events
from components.pilot import Pad
from game.render.passes.course_hud import CourseHudPass
from game.render.passes.course_results import CourseResultsPass
from game.render.passes.gates import GatesPass
from systems.course import COURSE_PREFIX, CourseState
from systems.menu import Menu, StickSteps

ROWS = ("retry", "back")


@dataclass
class Results:
    """What the results screen shows (a snapshot when the run finished)."""

    course_id: str
    name: str
    time_s: float
    par_s: float
    medal: str
    best_s: float  # the best time, this run included
    splits: tuple[float, ...]
    previous_best: tuple[float, ...] | None  # the best run's splits before this one, for deltas
    new_best: bool = False


@dataclass
class ResultsScreen:
    """The results screen's state: open or not, the row chosen."""

    results: Results | None = None
    open: bool = False
    index: int = 0
    chosen: list[str] = field(default_factory=list)  # rows activated, for the flow to act on
    steps: StickSteps = field(default_factory=StickSteps)

    def show(self, results: Results) -> None:
        self.results, self.open, self.index = results, True, 0
        self.steps.latched = True

    def read_pad(self, pad: Pad, presses: list[str]) -> None:
        if "B" in presses or "START" in presses:
            self.chosen.append("back")
            return
        down, _ = self.steps.step(*pad.left)
        if down:
            self.index = (self.index + down) % len(ROWS)
        if "A" in presses:
            self.activate()

    def select(self, index: int) -> None:
        self.index = max(0, min(len(ROWS) - 1, index))

    def activate(self) -> None:
        self.chosen.append(ROWS[self.index])


class CourseFlow:
    """Args: game: the window's `Game`."""

    def __init__(self, game) -> None:
        self.game = game
        self.screen = ResultsScreen()
        self.queued = ""  # a course to start once its level lists it (see `start`)
        renderer = game.renderer
        self.gates = GatesPass(game.app)
        self.hud = CourseHudPass(game.app, renderer.hud)
        renderer.obstacles.append(self.hud.occupied_rects)  # messages go below the timer and the arrow
        self.view = CourseResultsPass(renderer.hud, self.screen)
        passes = list(renderer.passes)
        level = next((i for i, p in enumerate(passes) if p is renderer.level), 0)
        passes.insert(level + 1, self.gates)  # opaque, with the level's solids
        menus = next((i for i, p in enumerate(passes) if p is renderer.menus), len(passes))
        passes[menus:menus] = [self.hud, self.view]  # over the scene and the HUD, under the menus
        renderer.passes = tuple(passes)
        game.app.on(events.CourseFinished, self.on_finished)
        game.window.push_handlers(on_mouse_motion=self.on_mouse_motion, on_mouse_press=self.on_mouse_press)

    def on_finished(self, event: events.CourseFinished) -> None:
        state = self.game.app.resource(CourseState)
        course = state.course
        previous = state.best_s
        results = Results(course_id=event.course_id, name=course.name if course else event.course_id,
                          time_s=event.time_s, par_s=course.par_s if course else 0.0, medal=event.medal,
                          best_s=event.best_s, splits=tuple(state.splits), previous_best=state.best,
                          new_best=previous is None or event.time_s < previous)
        if self.game.replays.playback is None:  # a replay playing back shows its runs' times, no screen
            self.screen.show(results)

    @property
    def open(self) -> bool:
        return self.screen.open

    def start(self, course_id: str) -> None:
        """Start the course `course_id` (the title screen's COURSES rows): at once if the
        level offers it, else once the level just loaded has listed its courses in the menu
        (after its first tick)."""
        self.queued = course_id
        self._start_queued()

    def _start_queued(self) -> None:
        if self.queued and COURSE_PREFIX + self.queued in self.game.app.resource(Menu).ids():
            course_id, self.queued = self.queued, ""
            self.game.sim.select(COURSE_PREFIX + course_id)

    def step(self, presses: list[str]) -> bool:
        """One frame while the results screen may be open: True when it took the frame."""
        self._start_queued()
        if not self.screen.open:
            return False
        self.game.sim.pad.presses.clear()
        self.screen.read_pad(self.game.sim.pad, presses)
        self._act()
        return True

    def _act(self) -> None:
        game = self.game
        while self.screen.chosen:
            row = self.screen.chosen.pop(0)
            self.screen.open = False
            game.devices.keyboard.release_all()
            game.sim.pad.neutral()
            if row == "retry" and self.screen.results is not None:
                game.sim.select(COURSE_PREFIX + self.screen.results.course_id)
            else:
                game.sim.reset()  # the run ends (idle) …
                game.title.back_to_title()  # … and the title screen opens

    # -- the mouse -------------------------------------------------------------------------
    def on_mouse_motion(self, x, y, dx, dy):
        if self.screen.open:
            row = self.view.hit(x, y)
            if row is not None:
                self.screen.select(row)
        return None

    def on_mouse_press(self, x, y, button, modifiers):
        if self.screen.open and button == pyglet.window.mouse.LEFT:
            row = self.view.hit(x, y)
            if row is not None:
                self.screen.select(row)
                self.screen.activate()
                self._act()
                return pyglet.event.EVENT_HANDLED
        return None
