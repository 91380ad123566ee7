"""The player HUD (the default; H toggles the engineering HUD of game/render/hud.py).

Three small see-through panels, out of the top centre (messages) and the bottom centre (the
hint bar):

- top left, NAVIGATION: the heading as a compass bearing (0° = north = world +Y, clockwise,
  with its point N/NE/…), the wind and where it blows *from*, the distance to the take-off
  point — or to the mission's next waypoint while a mission flies;
- top right, BATTERY: energy %, a bar, the minutes left at the present draw (E / P) and the
  flight time (time with the motors running since the last Restart);
- bottom left, FLIGHT: an attitude indicator (the horizon moves with pitch and turns with
  roll; the wings stay put), speed, height above ground, PROPULSION and the mode.

Readouts are rewritten at `REFRESH_HZ` from one telemetry record (as the engineering HUD);
the layers are small (a few hundred glyph quads), so they are drawn blended every frame by
passes/player_hud.py. `panel_rects()` is the layout the 8 % area test measures.
"""

from __future__ import annotations

import math

from game.render import hud_text as T
from game.render.hud import ACCENT, BAR_BACK, GOOD, LABEL, MARGIN, PAD, REFRESH_HZ, SMALL_PT, VALUE, WARN, YELLOW, HudContext
from game.render.readouts import clock, compass_point, heading_bearing_deg, minutes_left, whole_bearing
from game.render.text import UiLayer

PANEL = (0.05, 0.07, 0.09, 0.55)  # see-through
HORIZON_DOTS = 15


class PlayerHud:
    """Args:
        fonts: `fonts(size_pt, bold) -> Font`, as the engineering HUD's.
    """

    def __init__(self, fonts) -> None:
        self.fonts = fonts
        self.panels = UiLayer(None)
        self.text = UiLayer(None)
        self.language = "en"
        self.width = self.height = 0
        self.scale = 0.0
        self.visible = True
        self.time_s = 0.0
        self._next_refresh = 0.0
        self.rects: dict[str, tuple[float, float, float, float]] = {}
        self._drone = None  # the drone read (`follow`)
        self._tracks: dict = {}  # the other drones' (take-off point, flight time, last time, armed)
        self.reset()

    def reset(self) -> None:
        """A Restart: the flight time starts again, the take-off point is taken anew."""
        self.home: tuple[float, float, float] | None = None
        self.flight_time_s = 0.0
        self._last_time: float | None = None
        self._was_armed = False
        self._next_refresh = 0.0

    def follow(self, drone) -> None:
        """The HUD now reads another drone (game/render/follow.py): each drone keeps its own
        take-off point and flight time, taken up again when it is followed again."""
        if drone == self._drone:
            return
        if self._drone is not None:
            self._tracks[self._drone] = (self.home, self.flight_time_s, self._last_time, self._was_armed)
        self._drone = drone
        self.home, self.flight_time_s, self._last_time, self._was_armed = self._tracks.pop(
            drone, (None, 0.0, None, False))
        self._next_refresh = 0.0

    # -- layout ----------------------------------------------------------------------------
    def layout(self, width: int, height: int, language: str) -> None:
        self.width, self.height, self.language = width, height, language
        scale = min(2.0, max(0.5, round(min(height / 720.0, width / 1280.0) * 10.0) / 10.0))
        if scale != self.scale:
            self.scale = scale
            self.small = self.fonts(round(SMALL_PT * scale, 1), False)
            self.text.font = self.small
        self.line = int(math.ceil(self.small.line_height)) + max(1, round(2 * scale))
        self.char = self.small.width("0")
        self.margin = max(4, round(MARGIN * scale))
        self.pad = max(4, round(PAD * scale))
        self.panels.clear()
        self.text.clear()
        self._next_refresh = 0.0
        line, pad, char, m = self.line, self.pad, self.char, self.margin
        lang = language
        t = self.text
        self.rects = {}

        def panel(name: str, x: float, y: float, w: float, h: float) -> None:
            self.rects[name] = (x, y, w, h)
            self.panels.rect(f"{name}.panel", x, y, w, h, PANEL)

        # navigation, top left
        nw, nh = 28 * char + 2 * pad, 3 * line + 2 * pad
        nx, ny = m, height - m - nh
        panel("nav", nx, ny, nw, nh)
        top = ny + nh - pad - self.small.ascent
        self.nav_rows = {key: top - i * line for i, key in enumerate(("heading", "wind", "distance"))}
        self.nav_x = nx + pad + 7 * char
        t.text("nav.label.heading", T.label("p_heading", lang), nx + pad, self.nav_rows["heading"], LABEL)
        t.text("nav.label.wind", T.label("p_wind", lang), nx + pad, self.nav_rows["wind"], LABEL)

        # battery, top right
        bw, bh = 29 * char + 2 * pad, 3 * line + 2 * pad
        bx, by = width - m - bw, height - m - bh
        panel("battery", bx, by, bw, bh)
        top = by + bh - pad - self.small.ascent
        self.bat_rows = {"battery": top, "bar": top - line, "time": top - 2 * line}
        self.bat_x = bx + pad + 7 * char
        self.bat_bar = (bx + pad, top - line + 1, bw - 2 * pad)
        t.text("bat.label.battery", T.label("p_battery", lang), bx + pad, top, LABEL)
        t.text("bat.label.time", T.label("p_time", lang), bx + pad, top - 2 * line, LABEL)
        t.rect("bat.bar.back", *self.bat_bar[:2], self.bat_bar[2], max(3, round(6 * self.scale)), BAR_BACK)

        # flight, bottom left: the attitude indicator, then the numbers
        size = 3 * line
        fw, fh = size + 3 * pad + 28 * char, 3 * line + 2 * pad
        fx, fy = m, m
        panel("flight", fx, fy, fw, fh)
        self.ball = (fx + pad, fy + pad, size)
        t.rect("att.back", fx + pad, fy + pad, size, size, BAR_BACK)
        top = fy + fh - pad - self.small.ascent
        col = fx + 2 * pad + size
        self.flight_rows = {key: top - i * line for i, key in enumerate(("speed", "height", "power"))}
        self.flight_x = col + 5 * char
        for key, name in (("speed", "p_speed"), ("height", "p_height"), ("power", "p_power")):
            t.text(f"flight.label.{key}", T.label(name, lang), col, self.flight_rows[key], LABEL)
        wing = max(2, round(2 * self.scale))
        cx, cy = fx + pad + size / 2.0, fy + pad + size / 2.0
        t.rect("att.wing.left", cx - size * 0.34, cy - wing / 2.0, size * 0.22, wing, YELLOW)
        t.rect("att.wing.right", cx + size * 0.12, cy - wing / 2.0, size * 0.22, wing, YELLOW)
        t.rect("att.centre", cx - wing, cy - wing, 2 * wing, 2 * wing, YELLOW)

    def panel_rects(self) -> list[tuple[float, float, float, float]]:
        """(x, y, width, height) of each panel, window pixels."""
        return list(self.rects.values())

    # -- per frame -------------------------------------------------------------------------
    def update(self, dt: float, telemetry_source, context: HudContext) -> None:
        self.time_s += dt
        if self.time_s < self._next_refresh:
            return
        self._next_refresh = self.time_s + 1.0 / REFRESH_HZ
        self.refresh(telemetry_source(), context)

    def refresh_soon(self) -> None:
        self._next_refresh = self.time_s

    def _track(self, tm) -> None:
        """The take-off point (where the motors were last started) and the flight time."""
        if self.home is None or (tm.armed and not self._was_armed):
            self.home = tuple(tm.position)
        if self._last_time is not None and self._was_armed and tm.armed:
            self.flight_time_s += max(0.0, tm.time - self._last_time)
        self._last_time = tm.time
        self._was_armed = tm.armed

    def refresh(self, tm, context: HudContext) -> None:
        self._track(tm)
        lang = self.language
        t = self.text
        # navigation
        bearing = heading_bearing_deg(tm.yaw_deg)
        t.text("nav.value.heading", f"{whole_bearing(bearing):03d}° {compass_point(bearing)}", self.nav_x,
               self.nav_rows["heading"], VALUE)
        t.text("nav.value.wind", T.wind_text(context.weather.wind_now_m_s, lang), self.nav_x, self.nav_rows["wind"],
               VALUE)
        mission = tm.mission
        index = mission.waypoint_index
        distance = None
        if mission.status not in ("idle", "", *T.MISSION_OVER, "interrupted") and index >= 0:
            distance = context.distance_to(index)
            name = f"{T.label('p_target', lang)} {index + 1}"
        if distance is None or not math.isfinite(distance):
            home = self.home or tm.position
            distance = math.dist(home[:2], tm.position[:2])
            name = T.label("p_home", lang)
        x0 = self.rects["nav"][0] + self.pad
        t.text("nav.label.distance", name, x0, self.nav_rows["distance"], LABEL)
        t.text("nav.value.distance", f"{distance:.0f} m", self.nav_x, self.nav_rows["distance"], VALUE)

        # battery
        frac = max(0.0, min(1.0, tm.battery_fraction))
        colour = GOOD if frac > 0.3 else (YELLOW if frac > 0.15 else WARN)
        left = minutes_left(tm.battery_energy_wh, tm.power_w)
        left_text = f"{left:.1f} min {T.label('p_left', lang)}" if left is not None and left < 600 else "—"
        t.text("bat.value.battery", f"{frac * 100:3.0f} %  {left_text}", self.bat_x, self.bat_rows["battery"], VALUE)
        x, y, w = self.bat_bar
        t.rect("bat.bar", x, y, round(w * frac), max(3, round(6 * self.scale)), colour)
        t.text("bat.value.time", clock(self.flight_time_s), self.bat_x, self.bat_rows["time"], VALUE)

        # flight
        v = tm.velocity
        t.text("flight.value.speed", f"{math.sqrt(v[0] ** 2 + v[1] ** 2 + v[2] ** 2):4.1f} m/s", self.flight_x,
               self.flight_rows["speed"], VALUE)
        hag = tm.height_above_ground
        t.text("flight.value.height", f"{hag:4.1f} m" if hag is not None else "—", self.flight_x,
               self.flight_rows["height"], VALUE)
        if tm.armed:
            state = T.mode_name(tm.mode, lang)
            colour = YELLOW if T.is_assist(tm.mode) else ACCENT
        else:
            state, colour = T.label("disarmed", lang), WARN
        t.text("flight.value.power", f"{tm.motor_power * 100:3.0f} %", self.flight_x, self.flight_rows["power"], VALUE)
        t.text("flight.value.mode", state, self.flight_x + 6 * self.char, self.flight_rows["power"], colour)
        self._horizon(tm.roll_deg, tm.pitch_deg)

    def _horizon(self, roll_deg: float, pitch_deg: float) -> None:
        """The horizon line as dots: up the box when the nose is down (positive pitch, body Y
        left), turned counter-clockwise on the screen in a right bank (positive roll)."""
        x0, y0, size = self.ball
        cx, cy = x0 + size / 2.0, y0 + size / 2.0
        offset = max(-1.0, min(1.0, pitch_deg / 45.0)) * size / 2.0
        a = math.radians(roll_deg)
        dot = max(2, round(2.5 * self.scale))
        half = size / 2.0 - dot
        for i in range(HORIZON_DOTS):
            s = (i / (HORIZON_DOTS - 1) - 0.5) * size
            # the line through (0, offset) in the level picture, turned by the roll
            px, py = s * math.cos(a) - offset * math.sin(a), s * math.sin(a) + offset * math.cos(a)
            key = f"att.dot.{i}"
            if abs(px) <= half and abs(py) <= half:
                self.text.rect(key, cx + px - dot / 2.0, cy + py - dot / 2.0, dot, dot, VALUE)
            else:
                self.text.remove(key)

    # -- drawing ---------------------------------------------------------------------------
    def draw(self, program) -> None:
        self.panels.draw(program)
        self.text.draw(program)

    def delete(self) -> None:
        self.panels.delete()
        self.text.delete()
