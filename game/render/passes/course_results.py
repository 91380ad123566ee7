"""The results screen of a course run (game/course_flow.py): a panel in the middle of the
window — COURSE FINISHED and the course's name, the time (large), the medal against par, the
best time ("New best!" when it is this run), the splits with their deltas to the best run
before this one, and the rows Retry / Back (the chosen one highlighted). `row_rects` are the
rows' rectangles for the mouse."""

from __future__ import annotations

from game.render import hud_text as T
from game.render.frame import SCREEN, Frame, Pass
from game.render.hud import DIM, GOOD, HIGHLIGHT, LABEL, LARGE_PT, MENU_PANEL, VALUE, WARN, YELLOW, Hud
from game.render.text import UiLayer

TIME_SCALE = 2.6
MEDAL_COLOURS = {"gold": (1.0, 0.84, 0.2, 1.0), "silver": (0.82, 0.85, 0.9, 1.0), "bronze": (0.85, 0.55, 0.3, 1.0),
                 "none": DIM}
MAX_SPLIT_ROWS = 12  # more gates: the last ones shown


class CourseResultsPass(Pass):
    state = SCREEN

    def __init__(self, hud: Hud, screen) -> None:
        self.hud = hud
        self.screen = screen  # game.course_flow.ResultsScreen
        self.back = UiLayer(None)
        self.big = UiLayer(None)
        self.text = UiLayer(None)
        self.small = UiLayer(None)
        self.row_rects: list[tuple[float, float, float, float]] = []
        self._shown: tuple | None = None

    def prepare(self, frame: Frame) -> None:
        screen, hud = self.screen, self.hud
        key = (screen.open, id(screen.results), screen.index, hud.language, hud.width, hud.height, hud.scale)
        if key == self._shown:
            return
        self._shown = key
        for layer in (self.back, self.big, self.text, self.small):
            layer.clear()
        self.row_rects = []
        if not screen.open or screen.results is None:
            return
        r, lang, k = screen.results, hud.language, hud.scale
        self.big.font = hud.fonts(round(TIME_SCALE * LARGE_PT * k, 1), True)
        self.text.font = self.back.font = hud.large
        self.small.font = hud.small
        big, line, small = self.big.font, self.text.font, self.small.font
        splits = list(enumerate(r.splits))[-MAX_SPLIT_ROWS:]
        width = max(46 * hud.char, 0.42 * hud.width)
        height = (big.line_height + 6 * line.line_height + (len(splits) + 1) * small.line_height + 8 * hud.pad)
        x0, y0 = (hud.width - width) / 2.0, max(hud.margin, (hud.height - height) / 2.0)
        cx, left, right = hud.width / 2.0, x0 + 2 * hud.pad, x0 + width - 2 * hud.pad
        self.back.rect("panel", x0, y0, width, height, MENU_PANEL)
        y = y0 + height - hud.pad - line.ascent
        self.text.text("title", T.course_text("finished", lang), cx, y, LABEL, align="centre")
        y -= line.line_height
        self.text.text("name", r.name, cx, y, VALUE, align="centre")
        y -= big.line_height
        self.big.text("time", T.race_time(r.time_s), cx, y, VALUE, align="centre")
        y -= line.line_height + hud.pad
        self.text.text("medal", T.course_text(r.medal if r.medal in MEDAL_COLOURS else "none", lang), cx, y,
                       MEDAL_COLOURS.get(r.medal, DIM), align="centre")
        y -= line.line_height
        par = f"{T.course_text('par', lang)} {T.race_time(r.par_s)}"
        best = f"{T.course_text('best', lang)} {T.race_time(r.best_s)}"
        self.small.text("par", par, left, y, DIM)
        self.small.text("best", best, right, y, YELLOW if r.new_best else DIM, align="right")
        if r.new_best:
            self.small.text("new_best", T.course_text("new_best", lang), cx, y, YELLOW, align="centre")
        y -= small.line_height + hud.pad
        self.small.text("splits", T.course_text("splits", lang), left, y, LABEL)
        for i, t in splits:
            y -= small.line_height
            self.small.text(f"split.{i}", T.course_text("split", lang, i + 1, ""), left, y, VALUE)
            self.small.text(f"split.{i}.t", T.race_time(t), cx, y, VALUE, align="centre")
            if r.previous_best is not None and i < len(r.previous_best):
                delta = t - r.previous_best[i]
                self.small.text(f"split.{i}.d", T.race_delta(delta), right, y, GOOD if delta <= 0.0 else WARN,
                                align="right")
        y -= hud.pad
        for n, row in enumerate(("retry", "back")):
            y -= line.line_height + hud.pad
            rect = (x0 + hud.pad, y - line.descent - hud.pad / 2.0, width - 2 * hud.pad, line.line_height + hud.pad)
            if n == screen.index:
                self.back.rect(f"row.{n}", *rect, HIGHLIGHT)
            self.text.text(f"row.{n}.label", T.course_text(row, lang), cx, y, VALUE, align="centre")
            self.row_rects.append(rect)

    def hit(self, x: float, y: float) -> int | None:
        for i, (rx, ry, rw, rh) in enumerate(self.row_rects):
            if rx <= x <= rx + rw and ry <= y <= ry + rh:
                return i
        return None

    def draw(self, frame: Frame) -> None:
        if not self.screen.open:
            return
        self.prepare(frame)  # the flight waits under the screen: no RENDER stage prepares it (cached)
        shader = frame.use_ui()
        for layer in (self.back, self.big, self.text, self.small):
            layer.draw(shader)

    def delete(self) -> None:
        for layer in (self.back, self.big, self.text, self.small):
            layer.delete()
