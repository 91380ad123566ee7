"""INPUT stage: read each drone's virtual pad into its PilotCommand for this frame.

Sticks get a radial dead zone (rescaled so full deflection stays 1). Button presses since
the last frame become `pressed`. After the menu closes, every control still deflected or
held is *suppressed* until it first returns to neutral, so the deflection used to choose a
menu entry never reaches the flight (docs/model.md#menu).
"""

from __future__ import annotations

import math

import esper

from components.pilot import Pad, PilotCommand
from engine.app import App
from engine.stages import Stage
from systems.scene import SceneConfig


def radial_dead_zone(x: float, y: float, dead_zone: float) -> tuple[float, float]:
    """(0, 0) inside the dead zone; outside, the same direction with magnitude rescaled to
    run from 0 at the dead zone's edge to 1 at full deflection."""
    n = math.hypot(x, y)
    if n <= dead_zone or n == 0.0:
        return (0.0, 0.0)
    scaled = min(1.0, (n - dead_zone) / (1.0 - dead_zone))
    return (x / n * scaled, y / n * scaled)


class ReadPilotInput(esper.Processor):
    """Each drone's pad into its command. The player's pad is also the one the menu reads:
    after the menu closes, its deflected controls are suppressed until neutral."""

    def __init__(self, pad: Pad, command: PilotCommand, dead_zone: float) -> None:
        self.pad = pad  # the player's
        self.command = command
        self.dead_zone = dead_zone
        self.suppressed: set[str] = set()

    def suppress_active_controls(self) -> None:
        """Ignore every control of the player's pad that is not neutral now until it returns to neutral."""
        pad = self.pad
        self.suppressed = set(pad.held)
        if pad.left != (0.0, 0.0):
            self.suppressed.add("left")
        if pad.right != (0.0, 0.0):
            self.suppressed.add("right")
        if pad.lt:
            self.suppressed.add("lt")
        if pad.rt:
            self.suppressed.add("rt")
        pad.presses.clear()

    def process(self, dt: float) -> None:
        for _, (pad, cmd) in esper.get_components(Pad, PilotCommand):
            sup = self.suppressed if pad is self.pad else _NONE
            # the pad's own fields, not its properties: this runs every frame for every drone
            if sup or pad.presses or (pad._left, pad._right, pad._lt, pad._rt) != cmd.raw or pad.held != cmd.held:
                self._read(pad, cmd, sup)
            elif cmd.pressed:  # the same pad as last frame: only last frame's presses are over
                cmd.pressed = ()

    def _read(self, pad: Pad, cmd: PilotCommand, sup: set[str]) -> None:
        left = radial_dead_zone(*pad.left, self.dead_zone)
        right = radial_dead_zone(*pad.right, self.dead_zone)
        lt, rt = pad.lt, pad.rt
        if sup:
            for name, active in (("left", left != (0.0, 0.0)), ("right", right != (0.0, 0.0)), ("lt", lt > 0.0), ("rt", rt > 0.0)):
                if name in sup and not active:
                    sup.discard(name)
            sup.difference_update([b for b in list(sup) if b.isupper() and b not in pad.held])
            if "left" in sup:
                left = (0.0, 0.0)
            if "right" in sup:
                right = (0.0, 0.0)
            if "lt" in sup:
                lt = 0.0
            if "rt" in sup:
                rt = 0.0
        cmd.left = left
        cmd.right = right
        cmd.lt = lt
        cmd.rt = rt
        cmd.held = frozenset(b for b in pad.held if b not in sup)
        cmd.pressed = tuple(pad.presses)
        cmd.raw = (pad.left, pad.right, pad.lt, pad.rt) if not sup else ()  # suppressed: read again next frame
        pad.presses.clear()


_NONE: set[str] = set()  # no suppression (only the player's pad is ever suppressed); never written


class PilotInputPlugin:
    """The player's virtual pad (a resource every input device writes) and this frame's command
    (a resource too; both are the player's drone's `Pad` and `PilotCommand` components)."""

    name = "pilot-input"

    def build(self, app: App) -> None:
        pad = app.try_resource(Pad) or app.insert_resource(Pad())
        command = app.insert_resource(PilotCommand())
        dead_zone = app.resource(SceneConfig).vehicle.control["stick_dead_zone"]
        app.add_system(ReadPilotInput(pad, command, dead_zone), Stage.INPUT)
