"""ASSIST stage: fly the Tello SDK's commands (game/tello) through the stabilised controller.

A drone flown through the SDK carries an `SdkControl` component (components/sdk.py). While it
flies in the "sdk" mode (the stabilised law; entered when a take-off hands back), this system
writes the controller's setpoints for what the SDK asked: a move or a curve (the carrot of
flight/sdk_moves.py), a turn in place, the four `rc` sticks, or a hover over the point where
the last one ended. A flip flies in the "sdk-flip" mode (the laboratory Acro law: body rates
and a direct collective) and comes back to "sdk" to recover. Take-off and landing are the
game's own assists (systems/assists.py), started by choosing their menu entries.

When an activity ends, `SdkControl.result` gets the reply ("ok" or an error), for the server.

`rc a b c d` (each −100..100) in the stabilised controller's terms, in the heading's frame:
a → right speed, b → forward speed, both ±100 = the controller's horizontal limit (8 m/s);
c → climb speed, ±100 = the speed Y / A command (2 m/s); d → yaw rate, +100 = the full right
stick's clockwise rate (120 °/s). All zero: the drone brakes and hovers where it slowed down.
"""

from __future__ import annotations

import math

import esper

from components import events
from components.flight import Airframe, Battery, Controller, RigidBody
from components.layout import COLLECTIVE, LAB_STICK, LAB_YAW_STICK, LAW_ACRO, LAW_STABILISED
from components.modes import Mode
from components.sdk import SdkControl
from components.world import Collider
from engine.app import App
from engine.stages import Stage
from flight.sdk_moves import FLIP_MIN_BATTERY, FLIP_RATE_RAD_S, Flip, Move, Turn, body_to_world, heading_of
from systems.assists import RunAssists
from systems.crash import KeepCrashedMotorsOff
from systems.modes import FlightModes, ModeSpec

SDK_MODE = "sdk"  # flown by the SDK, stabilised law
SDK_FLIP_MODE = "sdk-flip"  # a flip under the rate controller (Acro law)
ASSIST_MODES = (Mode.TAKEOFF, Mode.LANDING, Mode.MISSION)


def _switch(app: App, entity: int, ctrl: Controller, body: RigidBody, mode: str) -> None:
    """Change mode as FlightModes does: another law restarts its loops from the present attitude."""
    old = ctrl.mode
    specs = app.resource(FlightModes)
    if specs.law_of(old) != specs.law_of(mode):
        ctrl.loops.reset(body.quaternion)
    ctrl.mode = mode
    if old != mode:
        app.emit(events.ModeChanged(old, mode, entity))


def flying(ctrl: Controller) -> bool:
    """Under SDK control in the air (not taking off, landing or on the ground with the motors off)."""
    return ctrl.mode in (SDK_MODE, SDK_FLIP_MODE) and ctrl.motor_power > 0.0


def world_yaw_rate(body: RigidBody) -> float:
    """rad/s about world Z (counter-clockwise) from the body rates."""
    x, y, z, w = (float(c) for c in body.quaternion)
    p, q, r = (float(c) for c in body.angular_velocity)
    return 2.0 * (x * z - w * y) * p + 2.0 * (y * z + w * x) * q + (1.0 - 2.0 * (x * x + y * y)) * r


def tilt_of(body: RigidBody) -> float:
    """rad between the body's Z and the vertical."""
    x, y, _z, _w = (float(c) for c in body.quaternion)
    return math.acos(max(-1.0, min(1.0, 1.0 - 2.0 * (x * x + y * y))))


# -- what the server asks ---------------------------------------------------------------------
def take_sdk_control(entity: int) -> SdkControl:
    """Put the drone under SDK control (idempotent); returns its SdkControl."""
    if esper.has_component(entity, SdkControl):
        return esper.component_for_entity(entity, SdkControl)
    control = SdkControl()
    esper.add_component(entity, control)
    return control


def start_move(entity: int, offset_body_m, speed_m_s: float, yaw_rad: float | None = None) -> bool:
    """Fly `offset_body_m` (x fwd, y left, z up, m) in the present heading's frame (or in the
    frame turned `yaw_rad` from world X: a mission pad's). False: not flying."""
    control, ctrl, body = _parts(entity)
    if not flying(ctrl):
        return False
    yaw = heading_of(body.quaternion) if yaw_rad is None else yaw_rad
    control.activity = Move.straight(body.position, yaw, offset_body_m, speed_m_s)
    control.result = None
    control.rc = (0, 0, 0, 0)  # a command ends the last rc
    return True


def start_curve(entity: int, via_body_m, end_body_m, speed_m_s: float, yaw_rad: float | None = None) -> str | None:
    """Fly the arc through `via` to `end` (offsets as start_move's); None if started, else the
    reply ("error")."""
    control, ctrl, body = _parts(entity)
    if not flying(ctrl):
        return "error"
    yaw = heading_of(body.quaternion) if yaw_rad is None else yaw_rad
    move = Move.curve(body.position, yaw, via_body_m, end_body_m, speed_m_s)
    if move is None:
        return "error"
    control.activity = move
    control.result = None
    control.rc = (0, 0, 0, 0)  # a command ends the last rc
    return None


def start_turn(entity: int, angle_rad: float) -> bool:
    """Turn in place by angle_rad (counter-clockwise positive). False: not flying."""
    control, ctrl, body = _parts(entity)
    if not flying(ctrl):
        return False
    hold = control.hold_xy or (float(body.position[0]), float(body.position[1]))
    z = control.hold_z if control.hold_z is not None else float(body.position[2])
    control.activity = Turn(heading_of(body.quaternion), angle_rad, (hold[0], hold[1], z))
    control.result = None
    control.rc = (0, 0, 0, 0)  # a command ends the last rc
    return True


def start_flip(entity: int, direction: str) -> str | None:
    """A flip (l, r, f, b); None if started, else the reply."""
    control, ctrl, body = _parts(entity)
    battery = esper.component_for_entity(entity, Battery)
    if not flying(ctrl):
        return "error"
    if battery.energy_j / battery.capacity_j < FLIP_MIN_BATTERY:
        return "error"  # the Tello refuses to flip below half a pack
    z = control.hold_z if control.hold_z is not None else float(body.position[2])
    xy = control.hold_xy or (float(body.position[0]), float(body.position[1]))
    control.activity = Flip(direction, z, (xy[0], xy[1]))
    control.result = None
    control.rc = (0, 0, 0, 0)  # a command ends the last rc
    return None


def stop(entity: int) -> None:
    """Hover here now: whatever was in progress ends (without a reply of its own)."""
    control, ctrl, body = _parts(entity)
    control.activity = None
    control.rc = (0, 0, 0, 0)
    control.hold_xy = None  # taken once slowed down
    control.hold_z = float(ctrl.loops.manual.stop_altitude(body))


def emergency(app: App, entity: int) -> None:
    """Cut the motors at once (MotorPower exactly 0 disarms): the drone falls."""
    control, ctrl, body = _parts(entity)
    control.activity = None
    control.rc = (0, 0, 0, 0)
    if ctrl.mode in ASSIST_MODES or ctrl.mode in (SDK_MODE, SDK_FLIP_MODE):
        ctrl.loops.manual.clear()
        _switch(app, entity, ctrl, body, Mode.MANUAL)
    ctrl.motor_power = 0.0
    app.emit(events.Disarmed("motor_power_zero", entity))


def set_rc(entity: int, sticks: tuple[int, int, int, int]) -> None:
    """The four sticks (−100..100): in force until the next rc, ignored while a command runs."""
    control, ctrl, body = _parts(entity)
    if control.activity is not None:
        return
    if control.rc[2] != 0 and sticks[2] == 0:  # the climb stick released: stop where the climb can
        control.hold_z = float(ctrl.loops.manual.stop_altitude(body))
    if any(sticks[:2]) or sticks[3]:
        control.hold_xy = None
    control.rc = tuple(sticks)


def _parts(entity: int):
    return (esper.component_for_entity(entity, SdkControl), esper.component_for_entity(entity, Controller),
            esper.component_for_entity(entity, RigidBody))


# -- every frame -------------------------------------------------------------------------------
class FlySdkCommands(esper.Processor):
    """Writes the setpoints of every drone under SDK control (a long-lived object)."""

    def __init__(self, app: App) -> None:
        self.app = app

    def process(self, dt: float) -> None:
        if not esper.get_component(SdkControl):  # no drone under the SDK (most games): the cheapest query
            return
        for entity, (control, ctrl, body, frame, collider) in esper.get_components(
                SdkControl, Controller, RigidBody, Airframe, Collider):
            if not control.active or ctrl.mode in ASSIST_MODES:
                continue
            if collider.crashed or ctrl.motor_power <= 0.0:
                if control.activity is not None:
                    control.activity = None
                    control.result = "error Motor stop"
                if ctrl.mode in (SDK_MODE, SDK_FLIP_MODE):
                    ctrl.loops.manual.clear()
                    _switch(self.app, entity, ctrl, body, Mode.MANUAL)
                continue
            if ctrl.mode not in (SDK_MODE, SDK_FLIP_MODE):
                # a take-off handed back (or the pilot flew it): hover here under the SDK
                _switch(self.app, entity, ctrl, body, SDK_MODE)
                control.hold_xy = None
                control.hold_z = float(ctrl.loops.manual.stop_altitude(body))
            self._fly(entity, control, ctrl, body, frame.vehicle, dt)

    def _fly(self, entity, control: SdkControl, ctrl: Controller, body: RigidBody, vehicle, dt: float) -> None:
        activity = control.activity
        if isinstance(activity, Flip):
            self._flip(entity, control, activity, ctrl, body, vehicle, dt)
            return
        if isinstance(activity, (Move, Turn)):
            if isinstance(activity, Move):
                sp = activity.update(dt)
                done = activity.arrived(body.position, body.velocity)
            else:
                sp = activity.update(heading_of(body.quaternion), dt)
                done = activity.arrived(world_yaw_rate(body))
            ctrl.target_velocity[:] = (sp.velocity[0], sp.velocity[1], 0.0)
            ctrl.hold_position = sp.hold_xy
            ctrl.hold_altitude = True
            ctrl.target_altitude = sp.altitude
            ctrl.target_yaw_rate = sp.yaw_rate
            if done or activity.timed_out():
                end = activity.target if isinstance(activity, Move) else activity.hold
                control.hold_xy, control.hold_z = (end[0], end[1]), end[2]
                control.activity = None
                control.result = "ok" if done else "error"
            return
        a, b, c, d = control.rc
        yaw = heading_of(body.quaternion)
        vx, vy, _ = body_to_world(yaw, (b / 100.0 * vehicle.max_horizontal_speed_m_s,
                                        -a / 100.0 * vehicle.max_horizontal_speed_m_s, 0.0))
        ctrl.target_velocity[:] = (vx, vy, c / 100.0 * vehicle.command_vertical_speed_m_s)
        ctrl.target_yaw_rate = -d / 100.0 * vehicle.control["max_yaw_rate"]
        if c != 0:
            ctrl.hold_altitude = False
        else:
            if control.hold_z is None:
                control.hold_z = float(ctrl.loops.manual.stop_altitude(body))
            ctrl.hold_altitude = True
            ctrl.target_altitude = control.hold_z
        if a or b:
            ctrl.hold_position = None
            return
        if control.hold_xy is None and math.hypot(body.velocity[0], body.velocity[1]) < vehicle.control["hold_capture_speed"]:
            control.hold_xy = (float(body.position[0]), float(body.position[1]))
        ctrl.hold_position = control.hold_xy

    def _flip(self, entity, control: SdkControl, flip: Flip, ctrl: Controller, body: RigidBody, vehicle,
              dt: float) -> None:
        if flip.phase != "recover":
            collective, stick = flip.update(body.angular_velocity, dt)
            if flip.phase != "recover":
                if ctrl.mode != SDK_FLIP_MODE:
                    _switch(self.app, entity, ctrl, body, SDK_FLIP_MODE)
                scale = FLIP_RATE_RAD_S / float(vehicle.control["max_rate"][0])
                lab = ctrl.lab
                lab[COLLECTIVE] = collective
                lab[LAB_STICK], lab[LAB_STICK + 1] = stick[0] * scale, stick[1] * scale
                lab[LAB_YAW_STICK] = 0.0
                return
            # over: back to the stabilised controller, which levels the drone and stops it
            _switch(self.app, entity, ctrl, body, SDK_MODE)
        else:
            flip.elapsed += dt
        ctrl.target_velocity[:] = (0.0, 0.0, 0.0)
        ctrl.hold_position = flip.hold_xy
        ctrl.hold_altitude = True
        ctrl.target_altitude = flip.altitude
        ctrl.target_yaw_rate = 0.0
        if flip.recovered(tilt_of(body), body.velocity) or flip.timed_out():
            control.hold_xy, control.hold_z = flip.hold_xy, flip.altitude
            control.activity = None
            control.result = "ok" if flip.recovered(tilt_of(body), body.velocity) else "error"


class SdkFlightPlugin:
    """The Tello SDK's flight: its two modes and the system that flies its commands. Idle (no
    drone carries an SdkControl) unless `donify tello` puts drones under SDK control."""

    name = "sdk-flight"

    def build(self, app: App) -> None:
        modes = app.resource(FlightModes)
        modes.register(ModeSpec(SDK_MODE, None, LAW_STABILISED, pilot=False))
        modes.register(ModeSpec(SDK_FLIP_MODE, None, LAW_ACRO, pilot=False))
        # after the assists (a take-off hands over to it), before the crash rule's motor cut
        app.add_system(FlySdkCommands(app), Stage.ASSIST, after=RunAssists, before=KeepCrashedMotorsOff)
