"""Laboratory models Angle and Acro (MODEL §10): direct collective, not MANUAL STABILISED.

Angle: the left stick sets roll (x) and pitch (y) angles up to `angle_max_tilt`; the right
stick's x turns the heading at up to `max_yaw_rate` (stick right → clockwise).
Acro: the left stick sets roll and pitch body rates and the right stick's x the yaw rate,
up to `max_rate`. In both the collective thrust is direct: `collective` ∈ [0, 1] of the
four rotors' thrust at max_motor_speed (22 000 rpm at 3.8 V).
"""

from __future__ import annotations

import math

from components.flight import RigidBody
from flight import quat
from flight.control.cascade import Cascade
from flight.vehicle import Vehicle


def full_collective_n(vehicle: Vehicle, density_kg_m3: float) -> float:
    """Four rotors at the reference max speed: the collective's full scale, N."""
    return 4.0 * vehicle.thrust_coefficient * vehicle.max_motor_speed_rad_s ** 2 * density_kg_m3 / vehicle.reference_air_density_kg_m3


class AngleController:
    def __init__(self, vehicle: Vehicle, cascade: Cascade) -> None:
        self.vehicle = vehicle
        self.cascade = cascade
        self.heading_rad: float | None = None

    def reset(self, body: RigidBody) -> None:
        self.heading_rad = quat.to_euler(body.quaternion)[2]

    def update(self, body: RigidBody, stick_xy, yaw_stick: float, collective: float,
               density_kg_m3: float, max_thrust_n: float, dt_s: float) -> list[float]:
        c = self.vehicle.control
        if self.heading_rad is None:
            self.reset(body)
        yaw_rate = -yaw_stick * c["max_yaw_rate"]
        self.heading_rad = math.remainder(self.heading_rad + yaw_rate * dt_s, math.tau)
        tilt = c["angle_max_tilt"]
        q_sp = quat.from_euler(stick_xy[0] * tilt, stick_xy[1] * tilt, self.heading_rad)
        collective_n = collective * full_collective_n(self.vehicle, density_kg_m3)
        return self.cascade.from_attitude(body, q_sp, collective_n, max_thrust_n, dt_s, yaw_rate)


class AcroController:
    def __init__(self, vehicle: Vehicle, cascade: Cascade) -> None:
        self.vehicle = vehicle
        self.cascade = cascade

    def update(self, body: RigidBody, stick_xy, yaw_stick: float, collective: float,
               density_kg_m3: float, max_thrust_n: float, dt_s: float) -> list[float]:
        mx, my, mz = self.vehicle.control["max_rate"]
        rate_sp = (stick_xy[0] * mx, stick_xy[1] * my, -yaw_stick * mz)
        collective_n = collective * full_collective_n(self.vehicle, density_kg_m3)
        return self.cascade.from_rates(body, rate_sp, collective_n, max_thrust_n, dt_s)
