"""ASSIST stage: run take-off (X), landing (B) and the mission (menu), and hand back.

A thin adapter: it senses the level (world/sensing.py over the ActiveLevel geometry) and
calls the pure assist logic in flight/assists.py, which only writes setpoints. The pilot
takes back control from any assist with a travel-direction stick, Y/A or the brake (LS),
or by choosing a mode in the menu: the physical state is kept and the present motion goes
on without a setpoint jump.

What the assists are doing is each drone's `AssistState` component (the running assist, the
mission's record, the last landing refusal; the player's is also a resource), so the HUD,
telemetry and a mod read it without reaching into the system. Every drone flies its own
assists from its own command; the menu's entries start them for the player's drone (or for
the drone `systems.menu.select(…, entity=)` names). Runs after the manual setpoints in the same stage (`after=`): a take-back
this frame hands over to MANUAL, which flies from the next frame.
"""

from __future__ import annotations

import math

from dataclasses import dataclass, field

import esper

from components import events
from components.flight import Controller, RigidBody
from components.modes import Mode
from components.pilot import PilotCommand
from components.world import Collider
from engine.app import App
from engine.stages import Stage
from flight.assists import OBSTACLE_CLEARANCE_M, Landing, MissionFlight, MissionState, TakeOff, landing_refusal
from components.layout import LAW_STABILISED
from systems.manual import ApplyManualSetpoints
from systems.menu import Menu, MenuEntry, MenuId
from systems.modes import FlightModes, ModeSpec
from systems.scene import Player
from world.level import ActiveLevel
from world.sensing import sense_support, sweep_envelope

ASSIST_MODES = (Mode.TAKEOFF, Mode.LANDING, Mode.MISSION)
TAKE_BACK = ("LS", "Y", "A")  # buttons that take manual control back from an assist


@dataclass
class AssistState:
    """What a drone's assists are doing (a component; the player's is also a resource): at most
    one of takeoff / landing / mission runs (a mission flies its own landing at the end)."""

    takeoff: TakeOff | None = None
    landing: Landing | None = None
    mission: MissionFlight | None = None
    mission_record: MissionState = field(default_factory=MissionState)  # telemetry's `mission`
    landing_refused: str = ""  # why the last landing was refused ("" if it was not)

    def clear(self) -> None:
        """No assist runs (the mission's record stays, for telemetry)."""
        self.takeoff = self.landing = self.mission = None


class RunAssists(esper.Processor):
    """Starts, runs and ends the assists (a long-lived handler object)."""

    def __init__(self, app: App, state: AssistState) -> None:
        self.app = app
        self.player_state = state  # the player's (the resource)
        self.state = state  # the drone being handled now's
        self.entity: int | None = None  # the drone being handled now

    def add_state(self, event: events.DroneSpawned) -> None:
        """Every drone gets its AssistState (the player's is the resource)."""
        player = self.app.resource(Player).entity
        esper.add_component(event.entity, self.player_state if event.entity == player else AssistState())

    # -- starting and stopping ---------------------------------------------------------------
    def _drone(self):
        """The drone being handled: its controller, body, collider (and `self.state` is its)."""
        if self.entity is None:
            self._select(self.app.resource(Player).entity)
        return (esper.component_for_entity(self.entity, Controller), esper.component_for_entity(self.entity, RigidBody),
                esper.component_for_entity(self.entity, Collider))

    def _select(self, entity: int) -> None:
        self.entity = entity
        self.state = esper.component_for_entity(entity, AssistState)

    def _support(self, body: RigidBody, col: Collider):
        geometry = self.app.resource(ActiveLevel).geometry
        return sense_support(geometry, body.position, body.quaternion, col.size_m)

    def _set_mode(self, ctrl: Controller, mode: str) -> None:
        old = ctrl.mode
        ctrl.mode = mode
        if old != mode:
            self.app.emit(events.ModeChanged(old, mode, self.entity))

    def start_takeoff(self) -> bool:
        ctrl, body, col = self._drone()
        support = self._support(body, col)
        if support is None:
            self._message("take-off refused: no support under the drone", "takeoff_refused",
                          "no support under the drone")
            return False
        self._clear()
        self.state.takeoff = TakeOff.start(ctrl, body, support.height_m)
        self._set_mode(ctrl, Mode.TAKEOFF)
        return True

    def start_landing(self, hold_xy=None) -> bool:
        ctrl, body, col = self._drone()
        support = self._support(body, col)
        reason = landing_refusal(support)
        if reason is not None:
            self.state.landing_refused = reason
            self.app.emit(events.LandingRefused(reason, self.entity))  # the HUD says it, in its language
            return False
        self.state.landing_refused = ""
        self._clear()
        self.state.landing = Landing.start(body, support, hold_xy)
        self._set_mode(ctrl, Mode.LANDING)
        return True

    def start_mission(self) -> bool:
        ctrl, body, _ = self._drone()
        level = self.app.resource(ActiveLevel).level
        if level is None or level.mission is None or not level.route():
            self._message("mission refused: this level has no mission route", "mission_refused",
                          "this level has no mission route")
            self.state.mission_record.status, self.state.mission_record.reason = "refused", "no mission route in this level"
            return False
        self._clear()
        if ctrl.motor_power <= 0.0:
            ctrl.motor_power = 0.5  # arm: a mission from the pad starts the motors
        self.state.mission = MissionFlight(level.route(), level.mission.arrival_pad, self.state.mission_record, body)
        self._set_mode(ctrl, Mode.MISSION)
        record = self.state.mission_record
        self.app.emit(events.MissionStatus(record.status, record.waypoint_index, record.reason, self.entity))
        return True

    def take_back(self, keep_motion: bool = True) -> None:
        """Manual control again: the physical state stays, the motion continues."""
        ctrl, body, _ = self._drone()
        if self.state.mission is not None and self.state.mission_record.status not in ("arrived", "interrupted"):
            self.state.mission_record.status = "idle"
        self._clear()
        ctrl.loops.manual.resume(ctrl, body, keep_velocity=keep_motion)
        self._set_mode(ctrl, Mode.MANUAL)

    def _clear(self) -> None:
        self.state.clear()

    def _message(self, text: str, key: str = "", *args) -> None:
        """A HUD line (for the player's drone only): `text` in English, `key` and `args` its
        entry in the HUD's catalogue."""
        if self.entity == self.app.resource(Player).entity:
            self.app.emit(events.Message(text, key, args))

    # -- event handlers ----------------------------------------------------------------------
    def on_mode_changed(self, event: events.ModeChanged) -> None:
        """The pilot chose a mode in the menu: any assist ends (FlightModes did the hand-over)."""
        if event.new in ASSIST_MODES:
            return
        state = self._state_of(event.entity)
        record = state.mission_record
        if state.mission is not None and record.status not in ("arrived", "interrupted"):
            record.status = "idle"
        state.clear()

    def on_reset(self, event: events.Reset) -> None:
        state = self._state_of(event.entity)
        state.clear()
        state.mission_record = MissionState()
        state.landing_refused = ""

    def _state_of(self, entity: int | None) -> AssistState:
        """A drone's AssistState (None: the player's), without changing the drone handled."""
        return esper.component_for_entity(self.app.resource(Player).entity if entity is None else entity, AssistState)

    def acting(self, action):
        """A menu entry's action: `action` for the drone the menu acts on (`Player`)."""
        def act():
            self._select(self.app.resource(Player).entity)
            try:
                return action()
            finally:
                self.entity = None
        return act

    # -- every frame -------------------------------------------------------------------------
    def process(self, dt: float) -> None:
        for entity, (ctrl, body, col, cmd, state) in esper.get_components(Controller, RigidBody, Collider,
                                                                           PilotCommand, AssistState):
            if ctrl.mode not in ASSIST_MODES and not cmd.pressed:
                continue  # the usual case: nothing to start, nothing running
            self.entity, self.state = entity, state
            self._fly(ctrl, body, col, cmd, dt)
        self.entity = None  # the menu's actions act on the player's drone (or select's)

    def _fly(self, ctrl: Controller, body: RigidBody, col: Collider, cmd: PilotCommand, dt: float) -> None:
        if ctrl.mode not in ASSIST_MODES:
            if "X" in cmd.pressed:
                self.start_takeoff()
            elif "B" in cmd.pressed:
                self.start_landing()
            return
        if cmd.left != (0.0, 0.0) or any(b in cmd.held for b in TAKE_BACK):
            self.take_back()
            return
        if ctrl.motor_power <= 0.0:  # the pilot cut the motors (LT to zero): the assist ends
            self.take_back(keep_motion=False)
            return
        if self.state.takeoff is not None:
            if self.state.takeoff.update(ctrl, body, dt):
                self.take_back()
        elif self.state.landing is not None and self.state.mission is None:
            if self._fly_landing(ctrl, body, col):
                self._clear()
        elif self.state.mission is not None:
            self._fly_mission(ctrl, body, col)

    def _fly_landing(self, ctrl: Controller, body: RigidBody, col: Collider) -> bool:
        """Descend; on a real admissible contact cut the motors and return True."""
        half = 0.5 * col.size_m[2]
        if Landing.touched_down(col.contact, col.contact_normal) and body.velocity[2] > -0.05:
            ctrl.motor_power = 0.0  # only a real contact ends the landing: the motors are cut
            ctrl.loops.manual.clear()
            ctrl.hold_position = None
            ctrl.hold_altitude = True
            ctrl.target_velocity[:] = (0.0, 0.0, 0.0)
            ctrl.target_altitude = float(body.position[2])
            self._set_mode(ctrl, Mode.MANUAL)
            self.app.emit(events.Disarmed("landed", self.entity))
            return True
        self.state.landing.update(ctrl, body, self._support(body, col), half)
        return False

    def _fly_mission(self, ctrl: Controller, body: RigidBody, col: Collider) -> None:
        m = self.state.mission
        s = self.state.mission_record
        before = (s.status, s.waypoint_index)
        if s.status == "descending":
            if self.state.landing is None:
                support = self._support(body, col)
                if landing_refusal(support) is not None:
                    return self._interrupt(ctrl, body, f"arrival pad: {landing_refusal(support)}")
                self.state.landing = Landing.start(body, support, m.route[-1][:2])
            if self._fly_landing(ctrl, body, col):
                self._clear()
                on_pad = col.contact_id == m.arrival_pad_id
                s.status = "arrived" if on_pad else "interrupted"
                s.reason = "" if on_pad else f"landed on {col.contact_id or 'the ground'}, not the arrival pad"
                self.app.emit(events.MissionStatus(s.status, s.waypoint_index, s.reason, self.entity))  # the HUD says it
            return
        m.update(ctrl, body)
        hit = self._obstacle_ahead(ctrl, body, col)
        if hit is not None:
            return self._interrupt(ctrl, body, f"obstacle {hit.id or 'ground'} ({hit.kind}) {hit.distance_m:.1f} m ahead")
        if (s.status, s.waypoint_index) != before:
            self.app.emit(events.MissionStatus(s.status, s.waypoint_index, s.reason, self.entity))

    def _obstacle_ahead(self, ctrl: Controller, body: RigidBody, col: Collider):
        """Sweep the envelope along the way the mission is asking to go."""
        tx, ty = ctrl.target_velocity[0], ctrl.target_velocity[1]
        speed = math.hypot(tx, ty)
        x, y, z = (float(c) for c in body.position)
        clearance = OBSTACLE_CLEARANCE_M
        if speed > 0.1:
            ux, uy, uz = tx / speed, ty / speed, 0.0
            reach = self.state.mission.lookahead_m(body)
        elif self.state.mission_record.status == "climbing":
            # straight up from a pad: no side margin, or the ground beside it would count
            ux, uy, uz = 0.0, 0.0, 1.0
            reach = max(0.0, ctrl.target_altitude - z) + 1.0
            clearance = 0.0
        else:
            return None
        # start a little along the way: a surface the drone rests on or leaves is not ahead
        lead = 0.02
        start = (x + ux * lead, y + uy * lead, z + uz * lead)
        end = (x + ux * reach, y + uy * reach, z + uz * reach)
        geometry = self.app.resource(ActiveLevel).geometry
        return sweep_envelope(geometry, start, end, body.quaternion, col.size_m, clearance_m=clearance)

    def _interrupt(self, ctrl: Controller, body: RigidBody, reason: str) -> None:
        s = self.state.mission_record
        s.status, s.reason = "interrupted", reason
        self._clear()
        ctrl.loops.manual.resume(ctrl, body, keep_velocity=False)  # brake, then hover
        self._set_mode(ctrl, Mode.MANUAL)
        self.app.emit(events.MissionStatus(s.status, s.waypoint_index, s.reason, self.entity))  # the HUD says it


class AssistPlugin:
    """Take-off (X), landing (B) and the mission (menu): their modes, menu entries and system."""

    name = "assists"

    def build(self, app: App) -> None:
        state = app.insert_resource(AssistState())
        modes = app.resource(FlightModes)
        for mode in ASSIST_MODES:
            modes.register(ModeSpec(mode, None, LAW_STABILISED, pilot=False))
        self.assists = RunAssists(app, state)
        app.on(events.DroneSpawned, self.assists.add_state)
        menu = app.resource(Menu)
        for entry, label, action in ((MenuId.TAKEOFF, "Take-off", self.assists.start_takeoff),
                                     (MenuId.LAND, "Land", self.assists.start_landing),
                                     (MenuId.MISSION, "Mission", self.assists.start_mission)):
            menu.add(MenuEntry(entry, label, self.assists.acting(action), group="assists"))
        app.add_system(self.assists, Stage.ASSIST, after=ApplyManualSetpoints)
        app.on(events.ModeChanged, self.assists.on_mode_changed)
        app.on(events.Reset, self.assists.on_reset)
