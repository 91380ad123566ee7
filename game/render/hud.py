"""The HUD (docs/model.md#hud), the flight menu overlay (LB / Tab), the pause panel and messages.

Everything is drawn through `UiLayer`s (one buffer per font, rebuilt only when an item
changed). The readouts refresh at `REFRESH_HZ` from one telemetry record — fast enough to
read, slow enough that the text is not rebuilt every frame — and an unchanged string is
never rebuilt. The panels and their readouts are drawn into a texture only when they change
(the panel cache of passes/hud.py); each frame then costs one opaque quad per panel. Panels:

- bottom left, FLIGHT: PROPULSION (MotorPower, a bar), mode and assist status, TARGET VEL
  (ManualTargetVelocity, world), TARGET Z (world altitude), HEIGHT ABOVE GROUND (to the
  detected surface), horizontal and vertical speed;
- bottom right, MOTORS: rpm and thrust of each motor *as produced*, laid out as the motors
  sit (front on top);
- top right, BATTERY: energy %, loaded voltage, power, damage;
- top left: wind, mission status with waypoint and distance, active camera;
- top centre: messages (controller connected, landing refused, mission interrupted, level
  reloaded with errors…), each for `MESSAGE_S`;
- bottom centre: key hints and, when it rains, the note that rain is visual only; above the
  hints, while another drone than the player's is followed, which one ("FOLLOWING DRONE 2/3
  (orange)": its place in creation order and its colour).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Callable

from game.render import hud_text as T
from game.render.pause import ENTRIES as PAUSE_ENTRIES
from game.render.text import UiLayer
from world.weather import Weather

REFRESH_HZ = 20.0
MESSAGE_S = 4.0
MAX_MESSAGES = 4

HUD_PANEL = (0.07, 0.09, 0.11, 1.0)  # the HUD's readout panels: opaque, drawn first (passes/hud.py)
MENU_PANEL = (0.04, 0.06, 0.08, 0.9)  # menus over the scene (blended)
LABEL = (0.62, 0.74, 0.86, 1.0)
VALUE = (0.96, 0.97, 0.98, 1.0)
DIM = (0.80, 0.84, 0.88, 0.75)
ACCENT = (0.25, 0.78, 0.98, 1.0)
WARM = (1.0, 0.62, 0.22, 1.0)
WARN = (1.0, 0.35, 0.30, 1.0)
GOOD = (0.35, 0.85, 0.45, 1.0)
BAR_BACK = (1.0, 1.0, 1.0, 0.12)
HIGHLIGHT = (0.25, 0.55, 0.85, 0.55)
SHADE = (0.0, 0.0, 0.0, 0.45)
YELLOW = (1.0, 0.86, 0.35, 1.0)

MARGIN = 12  # px at the reference size (720 rows); scaled with the window
PAD = 9
SMALL_PT = 10.0  # readouts (DejaVu Sans Mono)
LARGE_PT = 14.0  # titles and messages (DejaVu Sans Bold)


@dataclass
class HudContext:
    """What the HUD shows beside the telemetry: the active camera, the weather (wind, and the
    rain note while it rains) and the distance to a waypoint of the mission route."""

    camera: str
    weather: Weather
    distance_to: Callable[[int], float | None]  # waypoint index → metres from the drone, or None


class Hud:
    """Args:
        fonts: `fonts(size_pt, bold) -> Font` (cached by the caller): the HUD picks its sizes
            from the window height, so it fits a small window and stays readable on a big one.
        max_rpm: full scale of the rpm bars (the vehicle's max motor speed, rpm).
    """

    def __init__(self, fonts, max_rpm: float) -> None:
        self.fonts = fonts
        self.panels = UiLayer(None)  # opaque backgrounds, drawn before the scene into the depth buffer
        self.text = UiLayer(None)  # everything inside the panels: drawn into the panel cache
        self.free = UiLayer(None)  # text outside the panels (hints, rain note), drawn every frame
        self.titles = UiLayer(None)
        self.overlay = UiLayer(None)
        self.overlay_titles = UiLayer(None)
        self.max_rpm = max_rpm
        self.language = "en"
        self.width = self.height = 0
        self.scale = 0.0
        self._set_scale(1.0)
        self.messages: deque[tuple[str, float, tuple]] = deque(maxlen=MAX_MESSAGES)  # (text, until, colour)
        self.time_s = 0.0
        self._next_refresh = 0.0
        self._messages_shown: tuple = ()
        self._overlay_state: tuple | None = None  # what the overlay layers were last built for
        self.visible = True
        self.hint_text = ""  # the hint bar's text (show_hint); "" before the first: the static hints
        self.follow_tag = ""  # above the hint bar: which drone is followed, when not the player's
        self._hint: str | None = None  # what the hint bar's layer items hold
        self.avoid_rects = None  # () -> the panels messages keep clear of; None: this HUD's own
        self.message_rects: list[tuple[float, float, float, float]] = []  # where messages were laid

    # -- layout ----------------------------------------------------------------------------
    def _set_scale(self, scale: float) -> None:
        """Fonts and spacing for a UI scale (1.0 at 720 rows)."""
        if scale == self.scale:
            return
        self.scale = scale
        self.small = self.fonts(round(SMALL_PT * scale, 1), False)
        self.large = self.fonts(round(LARGE_PT * scale, 1), True)
        for layer in (self.text, self.free, self.overlay):
            layer.font = self.small
        for layer in (self.titles, self.overlay_titles):
            layer.font = self.large
        self.line = int(math.ceil(self.small.line_height)) + max(1, round(2 * scale))
        self.big_line = int(math.ceil(self.large.line_height)) + max(2, round(4 * scale))
        self.char = self.small.width("0")
        self.margin = max(4, round(MARGIN * scale))
        self.pad = max(4, round(PAD * scale))

    def layout(self, width: int, height: int, language: str) -> None:
        """Build the static parts (panels, labels) for a window size and a language."""
        self.width, self.height, self.language = width, height, language
        # 1.0 at 720 rows; steps of 0.1 so a window being dragged does not load a font per pixel
        self._set_scale(min(2.0, max(0.5, round(min(height / 720.0, width / 1280.0) * 10.0) / 10.0)))
        self.panels.clear()
        self.text.clear()
        self.free.clear()
        self.titles.clear()
        self._next_refresh = 0.0
        self._messages_shown = ()
        L, line, lang = self.line, self.line, language
        t = self.text

        # FLIGHT, bottom left
        self.flight_w = 46 * self.char
        fh = 8 * line + 2 * self.pad + 4
        fx, fy = self.margin, self.margin
        self.panels.rect("flight.panel", fx, fy, self.flight_w, fh, HUD_PANEL)
        top = fy + fh - self.pad - self.small.ascent
        self.flight_rows = {}
        self.value_x = fx + self.pad + 21 * self.char
        for i, key in enumerate(("propulsion", "mode", "assist", "target_vel", "target_z", "height", "h_speed",
                                 "v_speed")):
            y = top - i * L
            self.flight_rows[key] = y
            t.text(f"flight.label.{key}", T.label(key, lang), fx + self.pad, y, LABEL)
        self.prop_bar = (self.value_x + 7 * self.char, self.flight_rows["propulsion"], fx + self.flight_w - self.pad)
        t.rect("flight.prop.back", self.prop_bar[0], self.prop_bar[1] - 1, self.prop_bar[2] - self.prop_bar[0], 9, BAR_BACK)
        t.rect("flight.prop.bar", self.prop_bar[0], self.prop_bar[1] - 1, 0, 9, ACCENT)

        # MOTORS, bottom right: the motors as they sit (front on top): FL FR / RL RR
        cell_w = 17 * self.char
        mw = 2 * cell_w + 3 * self.pad
        mh = line + 2 * (3 * line) + 2 * self.pad
        mx, my = width - self.margin - mw, self.margin
        self.panels.rect("motors.panel", mx, my, mw, mh, HUD_PANEL)
        t.text("motors.title", T.label("motors", lang), mx + self.pad, my + mh - self.pad - self.small.ascent, LABEL)
        self.motor_cells = {}
        for motor, (col, row) in {3: (0, 0), 0: (1, 0), 2: (0, 1), 1: (1, 1)}.items():
            cx = mx + self.pad + col * (cell_w + self.pad)
            cy = my + mh - self.pad - self.small.ascent - line - row * 3 * line
            self.motor_cells[motor] = (cx, cy, cell_w)
            t.text(f"motors.name.{motor}", f"{motor} {T.MOTOR_NAMES[motor]}", cx, cy, LABEL)
            t.rect(f"motors.rpm.back.{motor}", cx, cy - 2 * line + 3, cell_w, 6, BAR_BACK)
            t.rect(f"motors.rpm.bar.{motor}", cx, cy - 2 * line + 3, 0, 6, WARM)

        # BATTERY, top right
        bw = 30 * self.char
        bh = 5 * line + 2 * self.pad
        bx, by = width - self.margin - bw, height - self.margin - bh
        self.panels.rect("battery.panel", bx, by, bw, bh, HUD_PANEL)
        btop = by + bh - self.pad - self.small.ascent
        self.battery_rows = {}
        for i, key in enumerate(("battery", None, "voltage", "power", "damage")):
            y = btop - i * L
            if key:
                self.battery_rows[key] = y
                t.text(f"battery.label.{key}", T.label(key, lang), bx + self.pad, y, LABEL)
        self.battery_x = bx + self.pad + 11 * self.char
        self.battery_bar = (bx + self.pad, btop - L, bw - 2 * self.pad)
        t.rect("battery.bar.back", self.battery_bar[0], self.battery_bar[1], self.battery_bar[2], 8, BAR_BACK)
        t.rect("battery.bar", self.battery_bar[0], self.battery_bar[1], 0, 8, GOOD)

        # wind / mission / camera, top left
        ew = 50 * self.char
        eh = 3 * line + 2 * self.pad
        ex, ey = self.margin, height - self.margin - eh
        self.panels.rect("env.panel", ex, ey, ew, eh, HUD_PANEL)
        etop = ey + eh - self.pad - self.small.ascent
        self.env_rows = {}
        for i, key in enumerate(("wind", "mission", "camera")):
            self.env_rows[key] = etop - i * L
            t.text(f"env.label.{key}", T.label(key, lang), ex + self.pad, etop - i * L, LABEL)
        self.env_x = ex + self.pad + 9 * self.char
        self.note_y = ey - self.line  # under the panel: the rain note

        # hints, bottom centre: the next useful action (game/render/hints.py, via show_hint)
        self._hint = None  # the layer was cleared
        self.show_hint(self.hint_text or T.label("hints", lang))
        self.set_follow_tag(self.follow_tag)

    def set_follow_tag(self, text: str) -> None:
        """Name the followed drone just above the hint bar ("" takes the tag away)."""
        self.follow_tag = text
        self.free.remove("follow.back")
        self.free.remove("follow")
        if not text or not self.width:
            return
        w = self.small.width(text) + 2 * self.pad
        y = self.margin + self.line + 4
        self.free.rect("follow.back", (self.width - w) / 2.0, y - 2, w, self.line + 2, SHADE)
        self.free.text("follow", text, self.width / 2.0, y + 6, YELLOW, align="centre")

    def show_hint(self, hints: str) -> None:
        """Put `hints` in the hint bar (bottom centre); nothing to do if it is already there."""
        self.hint_text = hints
        if hints == self._hint or not self.width:
            return
        self._hint = hints
        hw = self.small.width(hints) + 2 * self.pad
        self.free.rect("hints.back", (self.width - hw) / 2.0, self.margin - 2, hw, self.line + 2, SHADE)
        self.free.text("hints", hints, self.width / 2.0, self.margin + 4, DIM, align="centre")

    # -- per frame -------------------------------------------------------------------------
    def message(self, text: str, colour=VALUE) -> None:
        self.messages.append((text, self.time_s + MESSAGE_S, colour))

    def update(self, dt: float, telemetry_source, context: HudContext) -> None:
        """Advance the HUD clock; at the refresh rate, rewrite the readouts from telemetry and
        from `context` (what telemetry does not hold)."""
        self.time_s += dt
        while self.messages and self.messages[0][1] <= self.time_s:
            self.messages.popleft()
        self._draw_messages()
        if self.time_s < self._next_refresh:
            return
        self._next_refresh = self.time_s + 1.0 / REFRESH_HZ
        self.refresh(telemetry_source(), context)

    def refresh_soon(self) -> None:
        """Rewrite the readouts at the next update, whatever the refresh rate says."""
        self._next_refresh = self.time_s

    def refresh(self, tm, context: HudContext) -> None:
        lang = self.language
        t = self.text
        vx = self.value_x
        rows = self.flight_rows
        power = tm.motor_power
        t.text("flight.value.propulsion", f"{power * 100:3.0f} %", vx, rows["propulsion"], VALUE)
        x0, y0, x1 = self.prop_bar
        t.rect("flight.prop.bar", x0, y0 - 1, round((x1 - x0) * power), 9, ACCENT)
        armed = T.label("armed", lang) if tm.armed else T.label("disarmed", lang)
        mode = tm.mode
        t.text("flight.value.mode", T.mode_name(mode if not T.is_assist(mode) else "manual", lang), vx, rows["mode"],
               VALUE)
        mission = tm.mission
        status = mission.status
        if T.is_assist(mode):
            assist = T.mode_name(mode, lang)
        elif status not in ("idle", ""):
            assist = f"{T.label('mission', lang)} {T.mission_status(status, lang)}"
        else:
            assist = f"{T.label('none', lang)} · {armed}"
        t.text("flight.value.assist", assist, vx, rows["assist"], YELLOW if T.is_assist(mode) else VALUE)
        tv = tm.target_velocity
        t.text("flight.value.target_vel", f"{T.target_velocity_text(tv, lang)}  vz {T.signed(tv[2])}", vx,
               rows["target_vel"], VALUE)
        t.text("flight.value.target_z", f"{tm.target_altitude:6.2f} m ({T.label('world', lang)})", vx, rows["target_z"],
               VALUE)
        hag = tm.height_above_ground
        t.text("flight.value.height", f"{hag:6.2f} m" if hag is not None else T.label("nothing_below", lang), vx,
               rows["height"], VALUE)
        v = tm.velocity
        t.text("flight.value.h_speed", f"{math.hypot(v[0], v[1]):6.2f} m/s", vx, rows["h_speed"], VALUE)
        t.text("flight.value.v_speed", f"{T.signed(v[2], 2):>6} m/s", vx, rows["v_speed"], VALUE)

        for motor, (cx, cy, w) in self.motor_cells.items():
            rpm, thrust = tm.rpm[motor], tm.thrust[motor]
            t.text(f"motors.rpm.{motor}", f"{T.thousands(rpm):>6} rpm", cx + w, cy, VALUE, align="right")
            t.text(f"motors.thrust.{motor}", f"{thrust:5.3f} N", cx + w, cy - self.line, VALUE, align="right")
            t.rect(f"motors.rpm.bar.{motor}", cx, cy - 2 * self.line + 3, round(w * min(1.0, rpm / self.max_rpm)), 6,
                   WARM)

        frac = max(0.0, min(1.0, tm.battery_fraction))
        colour = GOOD if frac > 0.3 else (YELLOW if frac > 0.15 else WARN)
        bx = self.battery_x
        t.text("battery.value.battery", f"{frac * 100:5.1f} %", bx, self.battery_rows["battery"], VALUE)
        x, y, w = self.battery_bar
        t.rect("battery.bar", x, y, round(w * frac), 8, colour)
        t.text("battery.value.voltage", f"{tm.battery_voltage:5.2f} V", bx, self.battery_rows["voltage"], VALUE)
        t.text("battery.value.power", f"{tm.power_w:5.1f} W", bx, self.battery_rows["power"], VALUE)
        t.text("battery.value.damage", f"{tm.damage * 100:5.0f} %", bx, self.battery_rows["damage"],
               WARN if tm.damage > 0 else VALUE)

        ex = self.env_x
        t.text("env.value.wind", T.wind_text(context.weather.wind_now_m_s, lang), ex, self.env_rows["wind"], VALUE)
        t.text("env.value.mission", T.mission_text(mission, lang, context.distance_to), ex,
               self.env_rows["mission"], VALUE)
        t.text("env.value.camera", T.camera_name(context.camera, lang), ex, self.env_rows["camera"], VALUE)
        rain_mm_h = context.weather.rain_mm_h
        if rain_mm_h > 0.0:
            text = T.rain_note(rain_mm_h, lang)
            self.free.rect("rain_note.back", self.margin, self.note_y - self.line + self.small.ascent + 1,
                           self.small.width(text) + 2 * self.pad, self.line, SHADE)
            self.free.text("rain_note", text, self.margin + self.pad, self.note_y, YELLOW)
        else:
            self.free.remove("rain_note.back")
            self.free.remove("rain_note")

    def _draw_messages(self) -> None:
        """Newest on top, centred, each on a shaded backing (readable on a pale sky) and moved
        down below any panel of the HUD in use it would cover."""
        avoid = tuple(self.panel_rects() if self.avoid_rects is None else self.avoid_rects())
        if "rain_note.back" in self.free.items:  # the rain note under the top-left panel too
            avoid += (self.free.items["rain_note.back"][0][1:5],)
        shown = (tuple((m[0], m[2]) for m in self.messages), avoid)
        if shown == self._messages_shown:
            return
        self._messages_shown = shown
        self.titles.remove_prefix("message.")
        self.free.remove_prefix("message.")
        self.message_rects = []
        y = self.height - self.margin - self.large.ascent - 4
        for i, (text, colour) in enumerate(reversed(shown[0])):
            w = self.large.width(text) + 2 * self.pad
            box = [(self.width - w) / 2.0, y + self.large.descent - 3, w, self.big_line]
            for x, ry, rw, rh in sorted(avoid, key=lambda r: -(r[1] + r[3])):
                if box[0] < x + rw and x < box[0] + box[2] and box[1] < ry + rh and ry < box[1] + box[3]:
                    y -= box[1] + box[3] - ry  # below the panel
                    box[1] = y + self.large.descent - 3
            self.free.rect(f"message.back.{i}", *box, SHADE)
            self.titles.text(f"message.{i}", text, self.width / 2.0, y, colour, align="centre")
            self.message_rects.append(tuple(box))
            y -= self.big_line

    # -- overlays --------------------------------------------------------------------------
    def draw_overlays(self, menu, pause, bindings) -> None:
        """Rebuild the overlay layers for the flight menu and the pause panel (only what
        changed is rebuilt by the layers themselves)."""
        o, ot = self.overlay, self.overlay_titles
        state = (self.width, self.height, self.language,
                 (menu.open, menu.index, menu.group, menu.confirming, tuple(e.id for e in menu.entries))
                 if menu is not None else None,
                 (pause.open, pause.index, pause.show_controls, tuple(pause.value_of(e) for e in PAUSE_ENTRIES))
                 if pause is not None else None)
        if state == self._overlay_state:
            return
        self._overlay_state = state
        o.clear()
        ot.clear()
        lang = self.language
        if pause is not None and pause.open:
            self._pause(pause, bindings)
        elif menu is not None and menu.open:
            labels = [_menu_row_text(menu, row, lang) for row in menu.rows()]
            title = (T.label("menu_confirm_title", lang) if menu.confirming is not None else
                     T.menu_group(menu.group, lang).upper() if menu.group is not None else T.label("menu", lang))
            hint = T.label("menu_hint", lang)
            w = max([self.small.width(t) + 2 * self.char for t in labels] + [self.small.width(hint)]) + 2 * self.pad
            step = self._row_step(len(labels))
            h = self.big_line + len(labels) * step + self.line + 3 * self.pad
            x, y = (self.width - w) / 2.0, max(0.0, (self.height - h) / 2.0)
            o.rect("menu.panel", x, y, w, h, MENU_PANEL)
            ot.text("menu.title", title, x + self.pad, y + h - self.pad - self.large.ascent, VALUE)
            top = y + h - self.pad - self.big_line - self.small.ascent - 4
            for i, text in enumerate(labels):
                ry = top - i * step
                if i == menu.index:
                    o.rect("menu.highlight", x + 4, ry - 5, w - 8, step, HIGHLIGHT)
                o.text(f"menu.entry.{i}", text, x + self.pad + self.char, ry, VALUE)
            o.text("menu.hint", hint, x + self.pad, y + self.pad, DIM)

    def _row_step(self, rows: int) -> int:
        """Row spacing of a list: airy when it fits, tight when the window is short."""
        room = self.height - self.big_line - self.line - 4 * self.pad
        return self.line + 4 if rows * (self.line + 4) <= room else self.line

    def _pause(self, pause, bindings) -> None:
        o, ot = self.overlay, self.overlay_titles
        lang = self.language
        o.rect("pause.shade", 0, 0, self.width, self.height, SHADE)
        rows = []
        for entry in PAUSE_ENTRIES:
            value = pause.value_of(entry)
            if value in ("on", "off", "no_cap", "hud_player", "hud_engineering"):
                value = T.label(value, lang)
            elif entry == "camera" and value is not None:
                value = T.camera_name(value, lang).lower()
            rows.append((T.label(f"entry_{entry}", lang), None if value is None else f"‹ {value} ›"))
        hint = T.label("pause_hint", lang)
        widest = max(self.small.width(a) + (self.small.width(b) if b else 0) for a, b in rows)
        w = max(widest + 6 * self.char, self.small.width(hint)) + 2 * self.pad
        step = self._row_step(len(rows))
        h = self.big_line + len(rows) * step + self.line + 3 * self.pad
        table = [(T.action_name(action, lang), keys) for action, keys in bindings] if pause.show_controls else []
        cw = (max(self.small.width(a) + self.small.width(k) for a, k in table) + 4 * self.char + 2 * self.pad) if table else 0
        x = (self.width - w - (cw + self.pad if table else 0)) / 2.0
        y = max(0.0, (self.height - h) / 2.0)
        o.rect("pause.panel", x, y, w, h, MENU_PANEL)
        ot.text("pause.title", T.label("paused", lang), x + self.pad, y + h - self.pad - self.large.ascent, VALUE)
        top = y + h - self.pad - self.big_line - self.small.ascent - 4
        for i, (text, value) in enumerate(rows):
            ry = top - i * step
            if i == pause.index:
                o.rect("pause.highlight", x + 4, ry - 5, w - 8, step, HIGHLIGHT)
            o.text(f"pause.entry.{i}", text, x + self.pad + self.char, ry, VALUE)
            if value is not None:
                o.text(f"pause.value.{i}", value, x + w - self.pad, ry, ACCENT, align="right")
        o.text("pause.hint", hint, x + self.pad, y + self.pad, DIM)
        if table:
            line = self.line if len(table) * self.line <= self.height - self.big_line - 2 * self.pad else self.line - 3
            ch = self.big_line + len(table) * line + 2 * self.pad
            cx = x + w + self.pad
            cy = max(0.0, (self.height - ch) / 2.0)
            o.rect("controls.panel", cx, cy, cw, ch, MENU_PANEL)
            ot.text("controls.title", T.label("controls", lang), cx + self.pad, cy + ch - self.pad - self.large.ascent, VALUE)
            ctop = cy + ch - self.pad - self.big_line - self.small.ascent
            for i, (action, keys) in enumerate(table):
                o.text(f"controls.action.{i}", action, cx + self.pad, ctop - i * line, LABEL)
                o.text(f"controls.keys.{i}", keys, cx + cw - self.pad, ctop - i * line, VALUE, align="right")

    @property
    def panels_changed(self) -> bool:
        """The panels or their readouts changed since they were last drawn."""
        return self.panels.dirty or self.text.dirty

    def panel_rects(self) -> list[tuple[float, float, float, float]]:
        """(x, y, width, height) of each readout panel, window pixels."""
        return [spec[1:5] for spec, _ in self.panels.items.values()]

    def draw_panels(self, program) -> None:
        """The panels with their readouts (what passes/hud.py caches in a texture)."""
        self.panels.draw(program)
        self.text.draw(program)

    def draw(self, program) -> None:
        """What lies outside the panels: hints, rain note, messages."""
        self.free.draw(program)
        self.titles.draw(program)

    def draw_overlay(self, program) -> None:
        self.overlay.draw(program)
        self.overlay_titles.draw(program)

    def delete(self) -> None:
        for layer in (self.panels, self.text, self.free, self.titles, self.overlay, self.overlay_titles):
            layer.delete()


def _menu_row_text(menu, row, language: str) -> str:
    """One line of the grouped menu (systems/menu.py `MenuRow`): a group with its ›, an entry
    by its label, the confirmation and its way out."""
    if row.kind == "group":
        return f"{T.menu_group(row.key, language)} ›"
    if row.kind == "confirm":
        return T.label("menu_confirm", language)
    if row.kind == "cancel":
        return T.label("menu_cancel", language)
    entry = menu.entry(row.key)
    return T.menu_entry(entry.id, entry.label, language)
