"""A drone flown through the Tello SDK (game/tello): what it has been asked to do.

Plain data. The server (game/tello/server.py) writes `activity`, `rc` and `flip_requested`
from the commands it receives; the ASSIST system of systems/sdk_flight.py flies them and
writes `result` ("ok" or an error string) when an activity ends, which the server sends as
the command's reply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class SdkControl:
    activity: Any = None  # a flight.sdk_moves Move, Turn or Flip in progress, or None
    rc: tuple[int, int, int, int] = (0, 0, 0, 0)  # the last `rc a b c d`, each in -100..100
    hold_xy: tuple[float, float] | None = None  # where the drone hovers when idle (world m); None: taken once slow
    hold_z: float | None = None  # the altitude it holds when idle (world m); None: taken at once
    result: str | None = None  # the finished activity's reply, for the server to send
    active: bool = True  # False: the drone is not under SDK control (its pilot flies it)
