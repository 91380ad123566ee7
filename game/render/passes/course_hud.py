"""The course HUD, while a course run is on (`systems.course.CourseState`):

- the countdown, large in the middle of the window (3, 2, 1), then GO until the timer starts;
- at the top centre the timer (m:ss.hh), "GATE 3 / 8", the last split with its delta to the
  best run's split at that gate (green when ahead, red when behind);
- under them an arrow turning in the window's plane towards the next gate: the direction from
  the window's centre to the gate's centre as the camera projects it (a gate behind the camera
  points the arrow the way to turn);
- "Gate 3 missed: fly back through it" for 3 s after a miss.

Drawn with either HUD (H): a race without its timer is no race; hidden under the title screen."""

from __future__ import annotations

import math

import numpy as np

from components import events
from game.render import hud_text as T
from game.render.frame import SCREEN, Frame, Pass
from game.render.hud import GOOD, LARGE_PT, SHADE, VALUE, WARN, Hud
from game.render.passes.gates import NEXT
from game.render.text import UI_FLOATS, UiLayer
from systems.course import CourseState
from world.course import Gate

COUNTDOWN_SCALE = 5.0  # the countdown's digits over the HUD's titles
TIMER_SCALE = 1.8
MISSED_S = 3.0
ARROW_PX = 26.0  # the arrow's length at scale 1


def screen_direction(view_projection: np.ndarray, point, width: float, height: float) -> tuple[float, float] | None:
    """The unit direction, in window pixels (x right, y up), from the window's centre towards
    `point` as the camera sees it; a point behind the camera gives the way to turn to it.
    None when the point is on the camera's axis."""
    clip = view_projection @ np.array([point[0], point[1], point[2], 1.0])
    w = abs(float(clip[3])) or 1e-9
    dx, dy = float(clip[0]) / w * width / 2.0, float(clip[1]) / w * height / 2.0
    if clip[3] < 0.0 and abs(dx) < 1e-9 and abs(dy) < 1e-9:
        return None
    n = math.hypot(dx, dy)
    return None if n < 1e-9 else (dx / n, dy / n)


def arrow_vertices(x: float, y: float, direction: tuple[float, float], length: float, colour) -> np.ndarray:
    """A dart centred on (x, y), tip along `direction`: one quad (tip, wing, notch, wing),
    counter-clockwise, solid (the UI program's vertex format)."""
    dx, dy = direction
    px, py = -dy, dx
    tip = (x + 0.7 * length * dx, y + 0.7 * length * dy)  # the farthest point from (x, y)
    left = (x - 0.3 * length * dx + 0.4 * length * px, y - 0.3 * length * dy + 0.4 * length * py)
    notch = (x - 0.05 * length * dx, y - 0.05 * length * dy)
    right = (x - 0.3 * length * dx - 0.4 * length * px, y - 0.3 * length * dy - 0.4 * length * py)
    out = np.empty((4, UI_FLOATS), dtype=np.float32)
    for k, (cx, cy) in enumerate((tip, left, notch, right)):
        out[k] = (cx, cy, -1.0, -1.0, *colour)
    return out


class CourseHudPass(Pass):
    state = SCREEN

    def __init__(self, app, hud: Hud) -> None:
        self.app = app
        self.hud = hud
        self.big = UiLayer(None)
        self.timer = UiLayer(None)
        self.lines = UiLayer(None)
        self.shapes = UiLayer(None)  # the arrow and the shaded band (no text)
        self.visible = False
        self.occupied: list[tuple[float, float, float, float]] = []  # (x, y, w, h) window pixels, this frame
        self.arrow_at: tuple[float, float] | None = None  # window pixels (tests)
        self.arrow_direction: tuple[float, float] | None = None
        self._missed: tuple[int, float] | None = None  # (gate, time left)
        app.on(events.GateMissed, self.on_missed)

    def on_missed(self, event: events.GateMissed) -> None:
        self._missed = (event.index, MISSED_S)

    def prepare(self, frame: Frame) -> None:
        state = self.app.resource(CourseState)
        hud, lang = self.hud, self.hud.language
        for layer in (self.big, self.timer, self.lines, self.shapes):
            layer.clear()
        if self._missed is not None:
            gate, left = self._missed
            self._missed = (gate, left - frame.dt) if left - frame.dt > 0.0 and state.status == "running" else None
        self.visible = frame.show_hud and state.status in ("countdown", "running") and state.course is not None
        self.arrow_at = self.arrow_direction = None
        self.occupied = []
        if not self.visible:
            return
        k = hud.scale
        w, h = hud.width, hud.height
        self.big.font = hud.fonts(round(COUNTDOWN_SCALE * LARGE_PT * k, 1), True)
        self.timer.font = hud.fonts(round(TIMER_SCALE * LARGE_PT * k, 1), True)
        self.lines.font = hud.large
        if state.status == "countdown":
            self.big.text("count", str(max(1, math.ceil(-state.time_s - 1e-9))), w / 2.0, h * 0.5, VALUE, align="centre")
        elif not state.started:
            self.big.text("count", T.course_text("go", lang), w / 2.0, h * 0.5, GOOD, align="centre")
        # the top centre: timer, gate, last split
        top = h - hud.margin
        timer_font, line_font = self.timer.font, self.lines.font
        band = timer_font.line_height + 2 * line_font.line_height + 2 * hud.pad
        band_w = 22 * hud.char
        self.shapes.rect("band", w / 2.0 - band_w / 2.0, top - band, band_w, band, SHADE)
        arrow_h = 1.2 * ARROW_PX * k + hud.pad  # the arrow under the band
        self.occupied = [(w / 2.0 - band_w / 2.0, top - band - arrow_h, band_w, band + arrow_h)]
        y = top - hud.pad / 2.0 - timer_font.ascent
        self.timer.text("time", T.race_time(max(0.0, state.time_s)), w / 2.0, y, VALUE, align="centre")
        y -= line_font.line_height + 2
        shown_gate = min(state.gate + 1, state.gates)
        self.lines.text("gate", T.course_text("gate_of", lang, shown_gate, state.gates), w / 2.0, y, VALUE,
                        align="centre")
        if state.splits:
            i = len(state.splits) - 1
            text = T.course_text("split", lang, i + 1, T.race_time(state.splits[i]))
            colour = VALUE
            if state.best is not None and i < len(state.best):
                delta = state.splits[i] - state.best[i]
                text += "   " + T.race_delta(delta)
                colour = GOOD if delta <= 0.0 else WARN
            y -= line_font.line_height + 2
            self.lines.text("split", text, w / 2.0, y, colour, align="centre")
        if self._missed is not None:
            self.lines.text("missed", T.course_text("missed", lang, self._missed[0] + 1), w / 2.0, h * 0.32, WARN,
                            align="centre")
        # the arrow, under the band
        if state.gate < state.gates:
            gate: Gate = state.course.gate(state.gate)
            direction = screen_direction(frame.view.view_projection, gate.centre, w, h)
            if direction is not None:
                length = ARROW_PX * k
                at = (w / 2.0, top - band - hud.pad - 0.6 * length)
                self.shapes.items["arrow"] = (("a", at, direction), arrow_vertices(*at, direction, length, NEXT))
                self.shapes.dirty = True
                self.arrow_at, self.arrow_direction = at, direction

    def occupied_rects(self) -> list[tuple[float, float, float, float]]:
        """The screen it covers while a course runs (messages keep clear of it)."""
        return self.occupied

    def draw(self, frame: Frame) -> None:
        if not self.visible:
            return
        shader = frame.use_ui()
        for layer in (self.shapes, self.big, self.timer, self.lines):
            layer.draw(shader)

    def delete(self) -> None:
        for layer in (self.big, self.timer, self.lines, self.shapes):
            layer.delete()
