"""Several devices, one Pad: how the keyboard and the gamepads share the virtual gamepad.

Each device keeps its own `DeviceState`; a `PadWriter` merges them into the one `Pad`
(components/pilot.py) that the INPUT stage reads:

- a button is held while any device holds it, and released when the last one lets go;
- a stick or a trigger is written only when *that device's* value changes, so the device
  moved last wins and a device at rest never overwrites another one's deflection;
- "at rest" for a stick means inside the dead zone. Outside it the Pad receives the raw value:
  the INPUT stage (systems/pilot_input.py) applies the radial dead zone and rescales, once.
  Inside it the device writes exact neutral once and then stays silent, so a stick's jitter
  around centre never fights the keyboard;
- a trigger below `trigger_dead_zone` counts as released: a resting trigger reading 0.02 would
  otherwise creep MotorPower up (the INPUT stage passes triggers through unchanged);
- a device that goes away (unplugged, window focus lost) releases what it held and centres
  what it deflected, so an unplugged pad never leaves RT pulled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from components.pilot import Pad

NEUTRAL_STICK = (0.0, 0.0)
AXES = ("left", "right", "lt", "rt")


@dataclass(eq=False)  # identity equality: states are dictionary keys
class DeviceState:
    """What one device currently asks: raw sticks (x right, y up), triggers 0..1, buttons."""

    name: str
    left: tuple[float, float] = NEUTRAL_STICK
    right: tuple[float, float] = NEUTRAL_STICK
    lt: float = 0.0
    rt: float = 0.0
    held: set[str] = field(default_factory=set)
    written: dict[str, object] = field(default_factory=lambda: {"left": NEUTRAL_STICK, "right": NEUTRAL_STICK, "lt": 0.0, "rt": 0.0})


def stick_or_dpad(stick: tuple[float, float], dpad: tuple[float, float], dead_zone: float) -> tuple[float, float]:
    """The left stick, or the D-pad's direction (length 1) while the stick rests: the D-pad
    then picks menu entries and travel directions like the stick."""
    n = math.hypot(*dpad)
    if math.hypot(*stick) <= dead_zone and n > 0.0:
        return (dpad[0] / n, dpad[1] / n)
    return stick


def _clamp(value: float, low: float, high: float) -> float:
    value = float(value)
    if not math.isfinite(value):
        return 0.0
    return min(high, max(low, value))


class PadWriter:
    """Args:
        pad: the virtual gamepad to write.
        dead_zone: radial stick dead zone (fraction of full travel) below which a device's
            stick counts as at rest. The same value the INPUT stage uses.
        trigger_dead_zone: trigger travel (0..1) below which a trigger counts as released.
    """

    def __init__(self, pad: Pad, dead_zone: float = 0.0, trigger_dead_zone: float = 0.0) -> None:
        self.pad = pad
        self.dead_zone = dead_zone
        self.trigger_dead_zone = trigger_dead_zone
        self.devices: list[DeviceState] = []
        self._holders: dict[str, set[DeviceState]] = {}
        self.last_used: DeviceState | None = None  # the device that last pressed or deflected something

    def add(self, name: str) -> DeviceState:
        device = DeviceState(name)
        self.devices.append(device)
        return device

    def press(self, device: DeviceState, button: str) -> None:
        self.last_used = device
        device.held.add(button)
        self._holders.setdefault(button, set()).add(device)
        if not self.pad.is_held(button):  # a button another device holds gives no new press
            self.pad.press(button)

    def release(self, device: DeviceState, button: str) -> None:
        device.held.discard(button)
        holders = self._holders.get(button, set())
        holders.discard(device)
        if not holders:
            self.pad.release(button)

    def filtered(self, device: DeviceState, axis: str):
        """The value the Pad gets for `axis` of `device`: raw outside the dead zone, else neutral."""
        if axis in ("left", "right"):
            x, y = (_clamp(v, -1.0, 1.0) for v in getattr(device, axis))
            return (x, y) if math.hypot(x, y) > self.dead_zone else NEUTRAL_STICK
        value = _clamp(getattr(device, axis), 0.0, 1.0)
        return value if value >= self.trigger_dead_zone and value > 0.0 else 0.0

    def sync(self, device: DeviceState) -> None:
        """Write each of the device's sticks and triggers that changed since last written."""
        for axis in AXES:
            value = self.filtered(device, axis)
            if value != device.written[axis]:
                setattr(self.pad, axis, value)
                device.written[axis] = value
                if value not in (0.0, NEUTRAL_STICK):
                    self.last_used = device

    def remove(self, device: DeviceState) -> None:
        """The device is gone: release its buttons and centre what it (still) deflects."""
        for button in list(device.held):
            self.release(device, button)
        for axis in AXES:
            neutral = NEUTRAL_STICK if axis in ("left", "right") else 0.0
            if device.written[axis] != neutral and getattr(self.pad, axis) == device.written[axis]:
                setattr(self.pad, axis, neutral)
            device.written[axis] = neutral
        device.left = device.right = NEUTRAL_STICK
        device.lt = device.rt = 0.0
        if device in self.devices:
            self.devices.remove(device)
        if self.last_used is device:
            self.last_used = None
