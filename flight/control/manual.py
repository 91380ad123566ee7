"""MANUAL STABILISED: what the pilot's inputs mean (docs/model.md#stabilised-manual-flight).

* MotorPower ∈ [0, 1] is the persistent propulsion and cruise setting: RT raises it, LT
  lowers it, 0.5 per second at full trigger, proportionally below; released triggers keep it.
* The left stick *chooses a direction* of travel, relative to the drone's heading at the
  moment of choice, remembered in the world frame (a yaw change does not rotate it). Outside
  the dead zone its amplitude does not set the speed: the target speed is 8 × MotorPower.
  Neutral keeps the setpoint; a new stick movement (another angle, or a new deflection from
  neutral) chooses again. The stabilised controller keeps the drone on the line so chosen
  (flight/control/stabilised.py), so wind and gusts never carry it aside for good.
* Y / A command +2 / −2 m/s vertically; on release an altitude target is kept at the
  predicted stop altitude (braked by gravity going up, by the thrust margin going down) and
  the vertical speed is brought back to zero.
* LS (brake) forgets the direction: horizontal travel stops, then the drone hovers over the
  point where it slowed down.
* At exactly MotorPower = 0 nothing is commanded (the cut); the next RT re-arms from the
  present state and the altitude hold brakes any fall already under way.

Most frames repeat the last one: the same stick held, no trigger, no button. After an update
whose repeat would change nothing (no trigger, no climb, a direction chosen or a hover point
taken), `update` notes the command and the setpoints it left; on the next frame, if the
command is the same objects (PilotCommand's values are replaced, never changed in place),
nothing is pressed and the setpoints are still those bytes (a crash stop, an assist or a mod
writing them would show), the update is skipped: it would have written the same values.
State changes from outside go through `clear` and `resume`, which forget the note.
"""
from __future__ import annotations

import math

from components.flight import Controller, RigidBody
from components.layout import (
    HOLD_POSITION, HOLD_POSITION_SET, MOTOR_POWER, POSITION, TARGET_VELOCITY, TARGET_YAW_RATE, VELOCITY,
)
from components.pilot import PilotCommand
from flight import quat
from flight.vehicle import Vehicle


class ManualFlight:
    """Turns a PilotCommand into MotorPower, ManualTargetVelocity and ManualTargetAltitude."""

    def __init__(self, vehicle: Vehicle) -> None:
        self.vehicle = vehicle
        self.direction: tuple[float, float] | None = None  # unit vector, world frame
        self.stick_angle_rad: float | None = None  # left-stick angle of the last choice
        self.stick_was_neutral = True
        self.climbing = False
        self.altitude_hold = True
        # after an update a repeat of which would change nothing: (left, right, held, the
        # setpoints' view, their bytes, the targets array); None: update in full
        self._settled: tuple | None = None
        self._watched: tuple | None = None  # (targets array, the view of its setpoints)

    def clear(self) -> None:
        self.direction = None
        self.stick_angle_rad = None
        self.stick_was_neutral = True
        self.climbing = False
        self.altitude_hold = True
        self._settled = None

    def resume(self, ctrl: Controller, body: RigidBody, keep_velocity: bool = True) -> None:
        """Take over from an assist or re-arm: continue the present motion, no setpoint jump.

        The direction becomes the present horizontal velocity's, and MotorPower keeps at
        least the fraction of 8 m/s that velocity is, so the cruise continues; the altitude
        target is the predicted stop altitude.
        """
        self._settled = None
        vx, vy = body.velocity[0], body.velocity[1]
        speed = math.hypot(vx, vy)
        if keep_velocity and speed > 0.05:
            self.direction = (vx / speed, vy / speed)
            ctrl.motor_power = max(ctrl.motor_power, min(1.0, speed / self.vehicle.max_horizontal_speed_m_s))
        else:
            self.direction = None
        ctrl.hold_position = None
        self.stick_angle_rad = None
        self.stick_was_neutral = True
        self.climbing = False
        ctrl.hold_altitude = True
        ctrl.target_altitude = self.stop_altitude(body)
        self._apply_speed(ctrl.targets, ctrl.motor_power)
        ctrl.target_velocity[2] = 0.0

    def update_hover_point(self, ctrl: Controller, body: RigidBody) -> None:
        """Without a travel direction the drone hovers over a point, taken once it has slowed
        below the capture speed (so braking is never a jump back); travelling releases it."""
        targets = ctrl.targets  # read by slot, as Python floats: this runs every frame
        if self.direction is not None:
            if targets.item(HOLD_POSITION_SET) != 0.0:
                ctrl.hold_position = None
        elif targets.item(HOLD_POSITION_SET) == 0.0:
            state = body.state
            vx, vy = state.item(VELOCITY), state.item(VELOCITY + 1)
            if math.hypot(vx, vy) < self.vehicle.control["hold_capture_speed"]:
                ctrl.hold_position = [state.item(POSITION), state.item(POSITION + 1)]

    def stop_altitude(self, body: RigidBody) -> float:
        """Where a vertical stop at the planned deceleration ends: z + v|v| / (2 a). Going up,
        gravity brakes (`vertical_brake_decel`); going down, the thrust margin does (a share
        of it at the rated max motor speed)."""
        vz = body.velocity[2]
        c = self.vehicle.control
        if vz > 0.0:
            decel = c["vertical_brake_decel"]
        else:
            decel = max(c["vertical_brake_thrust_share"] * self.vehicle.thrust_margin_m_s2,
                        0.1 * self.vehicle.gravity_m_s2)
        return body.position[2] + vz * abs(vz) / (2.0 * decel)

    def _apply_speed(self, targets, power: float) -> None:
        """The horizontal velocity setpoint in the Controller's `targets`: 8 m/s × MotorPower
        (`power`) along the chosen direction, zero without one."""
        direction = self.direction
        if direction is None:
            targets[TARGET_VELOCITY] = targets[TARGET_VELOCITY + 1] = 0.0
        else:
            speed = self.vehicle.max_horizontal_speed_m_s * power
            targets[TARGET_VELOCITY] = direction[0] * speed
            targets[TARGET_VELOCITY + 1] = direction[1] * speed

    def update(self, ctrl: Controller, body: RigidBody, cmd: PilotCommand, dt_s: float) -> None:
        settled = self._settled
        if settled is not None and cmd.left is settled[0] and cmd.right is settled[1] and cmd.held is settled[2] \
                and not cmd.pressed and cmd.rt == cmd.lt and ctrl.targets is settled[5] \
                and settled[3].tobytes() == settled[4]:
            return  # the last frame again: the same setpoints would be written
        self._update(ctrl, body, cmd, dt_s)
        self._settle(ctrl, cmd)

    def _settle(self, ctrl: Controller, cmd: PilotCommand) -> None:
        """Note the command and setpoints if a repeat of this update would change nothing:
        no trigger (MotorPower holds), no climb under way, and a direction chosen or a hover
        point taken (else the capture waits on the speed, frame after frame)."""
        targets = ctrl.targets
        if cmd.rt != cmd.lt or self.climbing or (cmd.held and cmd.climb()) or \
                (self.direction is None and targets.item(HOLD_POSITION_SET) == 0.0):
            self._settled = None
            return
        watched = self._watched
        if watched is None or watched[0] is not targets:
            # every target slot the manual flight writes: MotorPower … hold_position
            watched = self._watched = (targets, targets[MOTOR_POWER:HOLD_POSITION + 2])
        view = watched[1]
        self._settled = (cmd.left, cmd.right, cmd.held, view, view.tobytes(), targets)

    def _update(self, ctrl: Controller, body: RigidBody, cmd: PilotCommand, dt_s: float) -> None:
        # every frame of every manual drone: the Controller's array is read and written by its
        # slots (components/layout.py TARGETS), not through the named fields, a third the cost
        v = self.vehicle
        c = v.control
        targets = ctrl.targets
        was = power = targets.item(MOTOR_POWER)
        trigger = cmd.rt - cmd.lt
        if trigger:
            power += c["motor_power_rate"] * trigger * dt_s
        # clamped to [0, 1] by comparisons: the min and max builtins cost several times more
        power = (power if power < 1.0 else 1.0) if power > 0.0 else 0.0
        if power != was:
            targets[MOTOR_POWER] = power
            if was <= 0.0 < power:
                # re-arm from the present state: brake a fall, keep the current motion
                self.resume(ctrl, body, keep_velocity=False)
                power = targets.item(MOTOR_POWER)

        # direction of travel
        lx, ly = cmd.left
        if lx or ly:  # outside the dead zone (PilotCommand is already dead-zoned)
            angle = math.atan2(-lx, ly)  # 0 = stick up = forward; positive = to the left
            new = self.stick_was_neutral or self.stick_angle_rad is None or \
                abs(math.remainder(angle - self.stick_angle_rad, math.tau)) > c["direction_change"]
            if new:
                heading = quat.to_euler(body.quaternion)[2]
                world = heading + angle
                self.direction = (math.cos(world), math.sin(world))
                self.stick_angle_rad = angle
            self.stick_was_neutral = False
        else:
            self.stick_was_neutral = True
        if "LS" in cmd.pressed:
            self.direction = None
            self.stick_angle_rad = None
        self._apply_speed(targets, power)
        self.update_hover_point(ctrl, body)

        # vertical
        climb = cmd.climb() if cmd.held else 0
        if climb:
            ctrl.target_velocity[2] = climb * v.command_vertical_speed_m_s
            self.climbing = True
            ctrl.hold_altitude = False
            ctrl.target_altitude = body.position[2]
        elif self.climbing:
            self.climbing = False
            ctrl.hold_altitude = True
            ctrl.target_velocity[2] = 0.0
            ctrl.target_altitude = self.stop_altitude(body)

        targets[TARGET_YAW_RATE] = -cmd.right[0] * c["max_yaw_rate"]
