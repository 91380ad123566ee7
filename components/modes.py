"""The flight modes: one name each, used by the controller, the assists, the menu, the HUD and
telemetry alike.

`Mode` is a string enum, so `Mode.ACRO == "acro"` and telemetry, flight scripts and settings
keep the plain lower-case names players and modders write.
"""

from __future__ import annotations

import enum


class Mode(enum.StrEnum):
    MANUAL = "manual"  # MANUAL STABILISED: velocity / altitude hold
    ANGLE = "angle"  # laboratory: sticks command tilt, PROPULSION is direct collective
    ACRO = "acro"  # laboratory: sticks command body rates, PROPULSION is direct collective
    TAKEOFF = "takeoff"  # assist
    LANDING = "landing"  # assist
    MISSION = "mission"  # assist: flies the level's route
