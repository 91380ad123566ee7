"""The shared inner loops: attitude → rate → torque → mixer → rotor thrusts.

Every flight mode ends here: MANUAL STABILISED and the assists produce an attitude setpoint
and a collective thrust, Angle does too, Acro produces body rates directly.
"""

from __future__ import annotations

from components.flight import RigidBody
from flight.control.attitude import AttitudeController
from flight.control.mixer import Mixer
from flight.control.rate import RateController
from flight.vehicle import Vehicle


class Cascade:
    def __init__(self, vehicle: Vehicle) -> None:
        c = vehicle.control
        self.attitude = AttitudeController(c["attitude_gain"], c["yaw_attitude_gain"], c["max_rate"])
        self.rate = RateController(vehicle.inertia_kgm2, c["rate_p"], c["rate_i"], c["rate_i_limit"])
        self.mixer = Mixer(vehicle)
        self.rate_setpoint = (0.0, 0.0, 0.0)  # rad/s, body, last update
        self.torque = (0.0, 0.0, 0.0)  # N·m, body, last update

    def reset(self) -> None:
        self.rate.reset()

    def from_attitude(self, body: RigidBody, q_sp, collective_n: float, max_thrust_n: float,
                      dt_s: float, yaw_rate_ff: float = 0.0, about_thrust_axis: bool = False) -> list[float]:
        rate_sp = self.attitude.update(body.quaternion, q_sp, yaw_rate_ff, about_thrust_axis)
        return self.from_rates(body, rate_sp, collective_n, max_thrust_n, dt_s)

    def from_rates(self, body: RigidBody, rate_sp, collective_n: float, max_thrust_n: float,
                   dt_s: float) -> list[float]:
        saturated = self.mixer.torque_scale[0] < 0.999
        torque = self.rate.update(body.angular_velocity, rate_sp, dt_s, saturated)
        self.rate_setpoint = tuple(rate_sp)
        self.torque = torque
        return self.mixer.mix(collective_n, torque, max_thrust_n)
