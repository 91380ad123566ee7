"""All of one drone's controllers, sharing one inner cascade (held by its Controller)."""

from __future__ import annotations

from flight.control.cascade import Cascade
from flight.control.lab import AcroController, AngleController
from flight.control.manual import ManualFlight
from flight.control.stabilised import StabilisedController
from flight.vehicle import Vehicle


class FlightLoops:
    def __init__(self, vehicle: Vehicle) -> None:
        self.cascade = Cascade(vehicle)
        self.stabilised = StabilisedController(vehicle, self.cascade)
        self.angle = AngleController(vehicle, self.cascade)
        self.acro = AcroController(vehicle, self.cascade)
        self.manual = ManualFlight(vehicle)
