"""Flight modes: which modes exist, which control law flies each, and switching between them.

A mode is a name (`components.modes.Mode` for the game's own) flown by one of the control
laws (the stabilised velocity/altitude controller, or the laboratory Angle and Acro models).
`FlightModes` (a resource) is the registry: the game registers its modes here, and a mod adds
one the same way —

    modes = app.resource(FlightModes)
    modes.register(ModeSpec("orbit", "Orbit", law=LAW_STABILISED))   # + a menu entry

— then writes the mode's setpoints in its own ASSIST system while `ctrl.mode == "orbit"`. A
pilot mode is chosen in the menu or with `Simulation.set_mode`; an assist mode (take-off,
landing, mission) is entered by its own system only.

Switching never touches the physical state: a change of law restarts the new law's loops from
the present attitude; MANUAL resumes from the present motion; a laboratory law starts its
direct collective at the present MotorPower.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import esper

from components import events
from components.flight import Controller, RigidBody
from components.modes import Mode
from engine.app import App
from components.layout import LAW_ACRO, LAW_ANGLE, LAW_STABILISED
from systems.menu import Menu, MenuEntry
from systems.scene import Player

LABORATORY_LAWS = (LAW_ANGLE, LAW_ACRO)  # the sticks fly the laws directly: PROPULSION is collective


@dataclass(frozen=True)
class ModeSpec:
    """A flight mode. `label`: the menu's (English; the HUD translates it by name), or None for
    no menu entry. `law`: the control law that flies it. `pilot`: chosen by the pilot (menu,
    `set_mode`); False for a mode its own system enters (an assist)."""

    name: str
    label: str | None
    law: int = LAW_STABILISED
    pilot: bool = True
    group: str = "laboratory"  # the menu group of its entry


class FlightModes:
    """The registry of modes and the switch between them (a resource)."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.specs: dict[str, ModeSpec] = {}

    def register(self, spec: ModeSpec) -> None:
        """Add a mode (and its menu entry if it has a label); a name taken raises ValueError."""
        if spec.name in self.specs:
            raise ValueError(f"mode {spec.name!r} is already registered")
        if spec.law not in (LAW_STABILISED, LAW_ANGLE, LAW_ACRO):
            raise ValueError(f"mode {spec.name!r}: unknown control law {spec.law!r}")
        self.specs[spec.name] = spec
        if spec.label is not None and spec.pilot:
            self.app.resource(Menu).add(MenuEntry(spec.name, spec.label, partial(self.set_mode, spec.name), spec.group))

    def law_of(self, mode: str) -> int:
        spec = self.specs.get(mode)
        return LAW_STABILISED if spec is None else spec.law

    def pilot_modes(self) -> list[str]:
        return [name for name, spec in self.specs.items() if spec.pilot]

    def set_mode(self, mode: str, entity: int | None = None) -> None:
        """Switch a drone (default: the player's) to a pilot mode; anything else raises ValueError."""
        if mode not in self.pilot_modes():
            raise ValueError(f"unknown mode {mode!r}: expected one of {', '.join(self.pilot_modes())}")
        app = self.app
        app.activate()
        entity = app.resource(Player).entity if entity is None else entity
        ctrl = esper.component_for_entity(entity, Controller)
        body = esper.component_for_entity(entity, RigidBody)
        old = ctrl.mode
        if self.law_of(old) != self.law_of(mode):
            ctrl.loops.reset(body.quaternion)  # another law: its loops start afresh
        if mode == Mode.MANUAL:
            ctrl.loops.manual.resume(ctrl, body)
        elif self.law_of(mode) in LABORATORY_LAWS:
            ctrl.collective = ctrl.motor_power
        ctrl.mode = mode
        if old != mode:
            app.emit(events.ModeChanged(old, mode, entity))


class FlightModesPlugin:
    """The mode registry with the game's pilot modes: Manual, and the laboratory Angle and Acro."""

    name = "modes"

    def build(self, app: App) -> None:
        modes = app.insert_resource(FlightModes(app))
        modes.register(ModeSpec(Mode.MANUAL, "Manual", LAW_STABILISED, group="flight"))
        modes.register(ModeSpec(Mode.ANGLE, "Angle (lab)", LAW_ANGLE))
        modes.register(ModeSpec(Mode.ACRO, "Acro (lab)", LAW_ACRO))
