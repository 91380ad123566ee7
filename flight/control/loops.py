"""All of one drone's controllers: their loop state and the pilot-facing ManualFlight.

The compiled control laws keep their loop state (integrators, heading, setpoints of the
last outer update) in `state`, laid out by components/layout.py LOOP_STATE; the setpoints
they fly are the Controller's own arrays (`Controller.targets`, `Controller.lab`).
"""

from __future__ import annotations

from components.layout import HEADING, LOOP_STATE, Q_SP
from flight import quat
from flight.control.manual import ManualFlight
from flight.vehicle import Vehicle


class FlightLoops:
    def __init__(self, vehicle: Vehicle, state=None) -> None:
        """`state`: the array to keep the loop state in (a view into the drone's FleetStore row),
        or None for one of its own."""
        self.vehicle = vehicle
        self.state = LOOP_STATE.fresh() if state is None else state
        self.manual = ManualFlight(vehicle)
        self.reset((0.0, 0.0, 0.0, 1.0))

    def reset(self, quaternion) -> None:
        """Forget every integrator and setpoint; the heading setpoint becomes the present one."""
        self.state[:] = LOOP_STATE.fresh()
        self.state[Q_SP:Q_SP + 4] = quaternion
        self.state[HEADING] = quat.to_euler(quaternion)[2]
