"""The laboratory modes' note (docs/model.md#laboratory-models-angle-and-acro): while Angle or
Acro flies, a line over the bottom of the window says that PROPULSION is now the direct
collective and which collective hovers — m g over four rotors at max_motor_speed,
kT ω_max² ρ/ρ₀ each, at the present air density and rotor health (flight/control/lab.py
`hover_collective`) — so the usual 50 % is not mistaken for a hover (it sinks)."""

from __future__ import annotations

import math

from components.flight import Airframe, Controller, Rotors
from components.modes import Mode
from flight.control.lab import hover_collective
from game.render import hud_text as T
from game.render.frame import SCREEN, Frame, Pass
from game.render.hud import SHADE, YELLOW, Hud
from game.render.text import UiLayer
from systems.scene import drone_components
from world.weather import Weather

LAB_MODES = (Mode.ANGLE, Mode.ACRO)


def lab_note(mode: str, hover: float, language: str, reach: float = 1.0) -> str | None:
    """The note's text for `mode` ("angle", "acro", …), or None outside the laboratory modes.
    `hover`: the collective that hovers; `reach`: the largest collective the motors can give at
    the present loaded voltage, (ω_max now / max_motor_speed)² (beyond it: no hover)."""
    if mode not in LAB_MODES:
        return None
    if not math.isfinite(hover) or hover > min(1.0, reach):
        return T.label("lab_note_no_hover", language)
    return T.label("lab_note", language).format(hover * 100.0)


class LabNotePass(Pass):
    state = SCREEN

    def __init__(self, app, hud: Hud) -> None:
        self.app = app
        self.hud = hud  # its window size, scale, language and fonts
        self.layer = UiLayer(None)
        self.text: str | None = None  # what is shown (None: nothing)
        self._shown: tuple | None = None

    def prepare(self, frame: Frame) -> None:
        ctrl, rotors, airframe = drone_components(self.app, Controller, Rotors, Airframe, entity=frame.drone)
        hud = self.hud
        text = None
        if ctrl.mode in LAB_MODES:  # the followed drone's
            vehicle = airframe.vehicle
            hover = hover_collective(vehicle.physics, self.app.resource(Weather).density_kg_m3, rotors.health.tolist())
            reach = (rotors.max_speed_rad_s / vehicle.max_motor_speed_rad_s) ** 2
            text = lab_note(ctrl.mode, hover, hud.language, reach)
        state = (text, hud.width, hud.height, hud.scale)
        if state == self._shown:
            return
        self._shown = state
        self.text = text
        self.layer.clear()
        if text is None:
            return
        self.layer.font = hud.large
        font = hud.large
        w = font.width(text) + 2 * hud.pad
        y = hud.height * 0.2
        self.layer.rect("lab.back", (hud.width - w) / 2.0, y + font.descent - hud.pad / 2.0, w,
                        font.line_height + hud.pad, SHADE)
        self.layer.text("lab.note", text, hud.width / 2.0, y, YELLOW, align="centre")

    def draw(self, frame: Frame) -> None:
        if self.text is None:
            return
        shader = frame.use_ui()
        self.layer.draw(shader)

    def delete(self) -> None:
        self.layer.delete()
