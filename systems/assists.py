"""ASSIST stage: run take-off (X), landing (B) and the mission (menu), and hand back.

A thin adapter: it senses the level (world/sensing.py over the ActiveLevel geometry) and
calls the pure assist logic in flight/assists.py, which only writes setpoints. The pilot
takes back control from any assist with a travel-direction stick, Y/A or the brake (LS),
or by choosing Manual in the menu: the physical state is kept and the present motion goes
on without a setpoint jump. Runs before the manual setpoints in the same stage.
"""

from __future__ import annotations

import math

import esper

from components.flight import Controller, RigidBody
from components.pilot import PilotCommand
from components.world import Collider
from engine.app import App
from flight.assists import OBSTACLE_CLEARANCE_M, Landing, MissionFlight, MissionState, TakeOff, landing_refusal
from game import events
from world.geometry import ActiveLevel
from world.sensing import sense_support, sweep_envelope

ASSIST_MODES = ("takeoff", "landing", "mission")
TAKE_BACK = ("LS", "Y", "A")  # buttons that take manual control back from an assist


class RunAssists(esper.Processor):
    """One assist at a time; its state lives here (a long-lived handler object)."""

    def __init__(self, app: App, command: PilotCommand) -> None:
        self.app = app
        self.command = command
        self.mission_state = MissionState()
        self.takeoff: TakeOff | None = None
        self.landing: Landing | None = None
        self.mission: MissionFlight | None = None
        self.last_refusal = ""

    # -- telemetry (Simulation reads the resource's `telemetry_state`) -----------------------
    def telemetry_state(self) -> dict:
        state = self.mission_state.as_dict()
        state["landing_refused"] = self.last_refusal
        return state

    # -- starting and stopping ---------------------------------------------------------------
    def _drone(self):
        for _, (ctrl, body, col) in esper.get_components(Controller, RigidBody, Collider):
            return ctrl, body, col
        raise LookupError("no drone")

    def _support(self, body: RigidBody, col: Collider):
        geometry = self.app.resource(ActiveLevel).geometry
        return sense_support(geometry, body.position, body.quaternion, col.size_m)

    def _set_mode(self, ctrl: Controller, mode: str) -> None:
        old = ctrl.mode
        ctrl.mode = mode
        if old != mode:
            self.app.emit(events.MODE_CHANGED, old, mode)

    def start_takeoff(self) -> bool:
        ctrl, body, col = self._drone()
        support = self._support(body, col)
        if support is None:
            self._message("take-off refused: no support under the drone")
            return False
        self._clear()
        self.takeoff = TakeOff.start(ctrl, body, support.height_m)
        self._set_mode(ctrl, "takeoff")
        return True

    def start_landing(self, hold_xy=None) -> bool:
        ctrl, body, col = self._drone()
        support = self._support(body, col)
        reason = landing_refusal(support)
        if reason is not None:
            self.last_refusal = reason
            self.app.emit(events.LANDING_REFUSED, reason)
            self._message(f"landing refused: {reason}")
            return False
        self.last_refusal = ""
        self._clear()
        self.landing = Landing.start(body, support, hold_xy)
        self._set_mode(ctrl, "landing")
        return True

    def start_mission(self) -> bool:
        ctrl, body, _ = self._drone()
        level = self.app.resource(ActiveLevel).level
        if level is None or level.mission is None or not level.route():
            self._message("mission refused: this level has no mission route")
            self.mission_state.status, self.mission_state.reason = "refused", "no mission route in this level"
            return False
        self._clear()
        if ctrl.motor_power <= 0.0:
            ctrl.motor_power = 0.5  # arm: a mission from the pad starts the motors
        self.mission = MissionFlight(level.route(), level.mission.arrival_pad, self.mission_state, body)
        self._set_mode(ctrl, "mission")
        self.app.emit(events.MISSION_STATUS, self.mission_state.status, self.mission_state.waypoint_index)
        return True

    def take_back(self, keep_motion: bool = True) -> None:
        """Manual control again: the physical state stays, the motion continues."""
        ctrl, body, _ = self._drone()
        if self.mission is not None and self.mission_state.status not in ("arrived", "interrupted"):
            self.mission_state.status = "idle"
        self._clear()
        ctrl.loops.manual.resume(ctrl, body, keep_velocity=keep_motion)
        self._set_mode(ctrl, "manual")

    def _clear(self) -> None:
        self.takeoff = self.landing = self.mission = None

    def _message(self, text: str) -> None:
        self.app.emit(events.MESSAGE, text)

    # -- event handlers ----------------------------------------------------------------------
    def on_menu_selected(self, entry: str) -> None:
        if entry == "takeoff":
            self.start_takeoff()
        elif entry == "land":
            self.start_landing()
        elif entry == "mission":
            self.start_mission()
        elif entry in ("manual", "angle", "acro", "restart"):
            self._clear()  # FlightModes does the hand-over itself (ManualFlight.resume)

    def on_reset(self) -> None:
        self._clear()
        self.mission_state = MissionState()
        self.last_refusal = ""

    # -- every frame -------------------------------------------------------------------------
    def process(self, dt: float) -> None:
        cmd = self.command
        ctrl, body, col = self._drone()
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
        if self.takeoff is not None:
            if self.takeoff.update(ctrl, body, dt):
                self.take_back()
        elif self.landing is not None and self.mission is None:
            if self._fly_landing(ctrl, body, col):
                self._clear()
        elif self.mission is not None:
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
            self._set_mode(ctrl, "manual")
            self.app.emit(events.DISARMED, "landed")
            return True
        self.landing.update(ctrl, body, self._support(body, col), half)
        return False

    def _fly_mission(self, ctrl: Controller, body: RigidBody, col: Collider) -> None:
        m = self.mission
        s = self.mission_state
        before = (s.status, s.waypoint_index)
        if s.status == "descending":
            if self.landing is None:
                support = self._support(body, col)
                if landing_refusal(support) is not None:
                    return self._interrupt(ctrl, body, f"arrival pad: {landing_refusal(support)}")
                self.landing = Landing.start(body, support, m.route[-1][:2])
            if self._fly_landing(ctrl, body, col):
                self._clear()
                on_pad = col.contact_id == m.arrival_pad_id
                s.status = "arrived" if on_pad else "interrupted"
                s.reason = "" if on_pad else f"landed on {col.contact_id or 'the ground'}, not the arrival pad"
                self.app.emit(events.MISSION_STATUS, s.status, s.waypoint_index)
                self._message("mission complete: landed on the arrival pad" if on_pad else f"mission ended: {s.reason}")
            return
        m.update(ctrl, body)
        hit = self._obstacle_ahead(ctrl, body, col)
        if hit is not None:
            return self._interrupt(ctrl, body, f"obstacle {hit.id or 'ground'} ({hit.kind}) {hit.distance_m:.1f} m ahead")
        if (s.status, s.waypoint_index) != before:
            self.app.emit(events.MISSION_STATUS, s.status, s.waypoint_index)

    def _obstacle_ahead(self, ctrl: Controller, body: RigidBody, col: Collider):
        """Sweep the envelope along the way the mission is asking to go."""
        tx, ty = ctrl.target_velocity[0], ctrl.target_velocity[1]
        speed = math.hypot(tx, ty)
        x, y, z = (float(c) for c in body.position)
        clearance = OBSTACLE_CLEARANCE_M
        if speed > 0.1:
            ux, uy, uz = tx / speed, ty / speed, 0.0
            reach = self.mission.lookahead_m(body)
        elif self.mission_state.status == "climbing":
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
        s = self.mission_state
        s.status, s.reason = "interrupted", reason
        self._clear()
        ctrl.loops.manual.resume(ctrl, body, keep_velocity=False)  # brake, then hover
        self._set_mode(ctrl, "manual")
        self.app.emit(events.MISSION_STATUS, s.status, s.waypoint_index)
        self._message(f"mission interrupted: {reason}")
