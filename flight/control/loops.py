"""All of one drone's controllers: their state arrays and the pilot-facing ManualFlight.

The compiled control laws keep their loop state (integrators, heading, setpoints of the
last outer update) in `state`, laid out in flight/layout.py; `targets` and `lab` are the
inputs the CONTROL system fills each tick.
"""

from __future__ import annotations

import numpy as np

from flight import layout as L
from flight import quat
from flight.control.manual import ManualFlight
from flight.vehicle import Vehicle


class FlightLoops:
    def __init__(self, vehicle: Vehicle) -> None:
        self.vehicle = vehicle
        self.state = np.zeros(L.CONTROL_SIZE)
        self.targets = np.zeros(L.TARGETS_SIZE)
        self.lab = np.zeros(L.LAB_SIZE)
        self.manual = ManualFlight(vehicle)
        self.reset((0.0, 0.0, 0.0, 1.0))

    def reset(self, quaternion) -> None:
        """Forget every integrator and setpoint; the heading setpoint becomes the present one."""
        self.state[:] = 0.0
        self.state[L.TORQUE_SCALE_RP] = self.state[L.TORQUE_SCALE_YAW] = 1.0
        self.state[L.Q_SP:L.Q_SP + 4] = quaternion
        self.state[L.HEADING] = quat.to_euler(quaternion)[2]
