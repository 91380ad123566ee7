"""The title screen's picture (game/title.py holds its state): over the level's scene, shaded,
the rows on the left, the selected level's top view, name and description on the right, the
keys at the bottom.

The top view is drawn from the level file: the street, the footprints of the boxes and
platforms (the rectangle around a turned one), the poles and trees, the pads (start green,
arrival orange) and the mission route — north (world +Y) up. Rebuilt only when what is shown
changes; `row_rects` are the rows' rectangles (window pixels) for the mouse.
"""

from __future__ import annotations

import math
import textwrap

from game.render import hud_text as T
from game.render.hud import ACCENT, DIM, HIGHLIGHT, LABEL, MENU_PANEL, VALUE, WARM
from game.render.text import UiLayer
from game.title import SETTINGS_ROWS, TitleScreen
from world.level import Level

SHADE = (0.0, 0.0, 0.0, 0.5)
GROUND = (0.28, 0.36, 0.24, 1.0)
ROAD = (0.25, 0.26, 0.28, 1.0)
BUILDING = (0.78, 0.76, 0.72, 1.0)
PLATFORM = (0.55, 0.45, 0.35, 1.0)
TREE = (0.22, 0.55, 0.25, 1.0)
START = (0.35, 0.85, 0.45, 1.0)
ARRIVAL = (1.0, 0.62, 0.22, 1.0)
ROUTE = (0.25, 0.78, 0.98, 1.0)


def row_label(screen: TitleScreen, i: int, language: str) -> str:
    row = screen.rows[i]
    if row.kind == "course":  # its level's name and top view are the preview's, on the right
        return row.course_name
    if row.kind == "level":
        return row.level.name if row.level is not None else row.level_name
    return T.label({"tutorial": "title_tutorial", "free": "title_free_flight", "settings": "title_settings",
                    "quit": "title_quit"}[row.kind], language)


def settings_rows(screen: TitleScreen, language: str) -> list[tuple[str, str | None]]:
    s = screen.settings
    values = {"language": "English" if s.language == "en" else "Français",
              "hud": T.label(f"hud_{s.hud}", language), "back": None}
    labels = {"language": T.label("entry_language", language), "hud": T.label("entry_hud", language),
              "back": T.label("title_back", language)}
    return [(labels[k], values[k]) for k in SETTINGS_ROWS]


class TitleView:
    """Args:
        fonts: `fonts(size_pt, bold) -> Font`.
        screen: the title screen's state.
    """

    def __init__(self, fonts, screen: TitleScreen) -> None:
        self.fonts = fonts
        self.screen = screen
        self.small = UiLayer(None)
        self.large = UiLayer(None)
        self.huge = UiLayer(None)
        self.width = self.height = 1
        self.language = "en"
        self._state: tuple | None = None
        self.row_rects: list[tuple[float, float, float, float]] = []

    def layout(self, width: int, height: int, language: str) -> None:
        self.width, self.height, self.language = width, height, language
        scale = min(2.0, max(0.5, round(min(height / 720.0, width / 1280.0) * 10.0) / 10.0))
        self.small.font = self.fonts(round(11.0 * scale, 1), False)
        self.large.font = self.fonts(round(15.0 * scale, 1), True)
        self.huge.font = self.fonts(round(34.0 * scale, 1), True)
        self.scale = scale
        self._state = None

    def strings(self) -> list[str]:
        """Every string drawn (tests check they come from the catalogue)."""
        return [spec[1] for layer in (self.small, self.large, self.huge) for spec, _ in layer.items.values()
                if spec[0] == "t"]

    def build(self) -> None:
        s = self.screen
        state = (self.width, self.height, self.language, s.index, s.in_settings, s.settings_index,
                 s.settings.language, s.settings.hud)
        if state == self._state:
            return
        self._state = state
        sm, lg, hg = self.small, self.large, self.huge
        for layer in (sm, lg, hg):
            layer.clear()
        lang, W, H, k = self.language, self.width, self.height, self.scale
        m = round(28 * k)
        line = math.ceil(sm.font.line_height) + round(8 * k)
        sm.rect("shade", 0, 0, W, H, SHADE)
        hg.text("title", T.label("title", lang), m, H - m - hg.font.ascent, VALUE)
        lg.text("subtitle", T.label("title_subtitle", lang), m, H - m - hg.font.ascent - round(30 * k), ACCENT)

        # the rows, left
        left_w = round(W * 0.36)
        top = H - m - hg.font.ascent - round(70 * k)
        y = top
        self.row_rects = []
        headed = set()
        for i, row in enumerate(s.rows if not s.in_settings else ()):
            head = {"level": "title_levels", "course": "title_courses"}.get(row.kind)
            if row.kind in ("settings",) and "course" not in headed:  # where the courses will be
                headed.add("course")
                lg.text("head.course", T.label("title_courses", lang), m, y, LABEL)
                sm.text("head.course.none", T.label("title_no_courses", lang), m + round(14 * k), y - line, DIM)
                y -= 2 * line + round(6 * k)
            if head and head not in headed:
                headed.add(head)
                if row.kind == "course":
                    headed.add("course")
                lg.text(f"head.{head}", T.label(head, lang), m, y, LABEL)
                y -= line + round(4 * k)
            rect = (m - 6, y + sm.font.descent - round(4 * k), left_w, line)
            self.row_rects.append(rect)
            if i == s.index and not s.in_settings:
                sm.rect("highlight", *rect, HIGHLIGHT)
            indent = round(14 * k) if row.kind in ("level", "course") else 0
            sm.text(f"row.{i}", row_label(s, i, lang), m + indent, y, VALUE)
            y -= line

        # the selected level, right
        level = s.preview_level()
        px = left_w + 2 * m
        pw = W - px - m
        if level is not None and pw > 40:
            ph = min(pw * 0.75, H * 0.5, top - m - 4 * line)
            if ph > 40:
                self._top_view(level, px, top - ph + sm.font.ascent, pw, ph)
            lg.text("level.name", level.name, px, top + round(10 * k), VALUE)
            chars = max(20, int(pw / max(1.0, sm.font.width("n"))))
            for j, text in enumerate(textwrap.wrap(level.description, chars)[:4]):
                sm.text(f"level.description.{j}", text, px, top - ph + sm.font.ascent - (j + 1) * line, DIM)

        # the settings, over the rows
        if s.in_settings:
            rows = settings_rows(s, lang)
            w = round(W * 0.42)
            h = (len(rows) + 1) * line + 2 * m
            x, y0 = m, max(0, top - h)
            sm.rect("settings.panel", x, y0, w, h, MENU_PANEL)
            lg.text("settings.title", T.label("title_settings", lang).upper(), x + m / 2, y0 + h - m / 2 - lg.font.ascent,
                    VALUE)
            self.row_rects = []
            for i, (label, value) in enumerate(rows):
                ry = y0 + h - m / 2 - lg.font.ascent - (i + 1) * line - round(6 * k)
                rect = (x + 4, ry + sm.font.descent - round(4 * k), w - 8, line)
                self.row_rects.append(rect)
                if i == s.settings_index:
                    sm.rect("settings.highlight", *rect, HIGHLIGHT)
                sm.text(f"settings.row.{i}", label, x + m / 2, ry, VALUE)
                if value is not None:
                    sm.text(f"settings.value.{i}", f"‹ {value} ›", x + w - m / 2, ry, ACCENT, align="right")

        hint = T.label("title_hint", lang)
        sm.text("hint", hint, W / 2.0, m / 2, DIM, align="centre")

    def _top_view(self, level: Level, x: float, y: float, w: float, h: float) -> None:
        """The level seen from above, north up, fitted in (x, y, w, h)."""
        sm = self.small
        points = [(p.position[0], p.position[1]) for p in level.pads]
        for b in (*level.boxes, *level.platforms):
            points.append((b.position[0], b.position[1]))
        for c in level.cylinders:
            points.append((c.position[0], c.position[1]))
        if level.street is not None:
            points += [tuple(level.street.start), tuple(level.street.end)]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        x0, x1, y0, y1 = min(xs) - 10, max(xs) + 10, min(ys) - 10, max(ys) + 10
        scale = min(w / (x1 - x0), h / (y1 - y0))
        ox = x + (w - (x1 - x0) * scale) / 2.0
        oy = y + (h - (y1 - y0) * scale) / 2.0
        sm.rect("map.back", x, y, w, h, MENU_PANEL)
        sm.rect("map.ground", ox, oy, (x1 - x0) * scale, (y1 - y0) * scale, GROUND)

        def footprint(key, cx, cy, sx, sy, yaw_deg, colour, least=2.0):
            a = math.radians(yaw_deg)
            ex = abs(sx * math.cos(a)) + abs(sy * math.sin(a))
            ey = abs(sx * math.sin(a)) + abs(sy * math.cos(a))
            ew, eh = max(least, ex * scale), max(least, ey * scale)
            sm.rect(key, ox + (cx - x0) * scale - ew / 2.0, oy + (cy - y0) * scale - eh / 2.0, ew, eh, colour)

        st = level.street
        if st is not None:
            (sx0, sy0), (sx1, sy1) = st.start, st.end
            length = math.hypot(sx1 - sx0, sy1 - sy0)
            width = st.road_width + 2 * st.pavement_width
            footprint("map.street", (sx0 + sx1) / 2, (sy0 + sy1) / 2, length, width,
                      math.degrees(math.atan2(sy1 - sy0, sx1 - sx0)), ROAD)
        for i, b in enumerate(level.boxes):
            footprint(f"map.box.{i}", b.position[0], b.position[1], b.size[0], b.size[1], b.yaw_deg, BUILDING)
        for i, b in enumerate(level.platforms):
            footprint(f"map.platform.{i}", b.position[0], b.position[1], b.size[0], b.size[1], b.yaw_deg, PLATFORM)
        for i, c in enumerate(level.cylinders):
            r = max(c.radius, c.canopy_radius)
            footprint(f"map.cyl.{i}", c.position[0], c.position[1], 2 * r, 2 * r, 0.0,
                      TREE if c.kind == "tree" else DIM)
        for i, p in enumerate(level.pads):
            colour = START if p.role == "start" else (ARRIVAL if p.role == "arrival" else WARM)
            footprint(f"map.pad.{i}", p.position[0], p.position[1], p.size[0], p.size[1], p.yaw_deg, colour, least=5.0)
        if level.mission is not None:
            for i, wp in enumerate(level.mission.waypoints):
                footprint(f"map.wp.{i}", wp.position[0], wp.position[1], 0.0, 0.0, 0.0, ROUTE, least=3.0)

    def hit(self, x: float, y: float) -> int | None:
        """The row under the mouse (window pixels, y up), or None."""
        for i, (rx, ry, rw, rh) in enumerate(self.row_rects):
            if rx <= x <= rx + rw and ry <= y <= ry + rh:
                return i
        return None

    def draw(self, program) -> None:
        self.build()
        for layer in (self.small, self.large, self.huge):
            layer.draw(program)

    def delete(self) -> None:
        for layer in (self.small, self.large, self.huge):
            layer.delete()
