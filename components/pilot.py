"""The pilot's inputs: the virtual gamepad every input device writes, and what it means.

`Pad` is the one pilot-input state (`sim.pad` of docs/api.md#the-headless-simulation): the keyboard, real
gamepads (pyglet or the `inputs` fallback), scripts and tests all write to it. Sticks are
(x right, y up) in [-1, 1]; triggers in [0, 1]; buttons are Xbox names.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

BUTTONS = ("A", "B", "X", "Y", "LB", "RB", "LS", "RS", "START", "BACK")


def _check_button(name: str) -> str:
    if name not in BUTTONS:
        raise ValueError(f"unknown button {name!r}: expected one of {', '.join(BUTTONS)}")
    return name


def _check_axis(name: str, value, low: float, high: float, length: int = 1):
    """A trigger is one number, a stick a pair of numbers: anything else raises ValueError here,
    at the bad write, not in the next frame."""
    values = value if isinstance(value, tuple) else (value,)
    if len(values) != length:
        shape = "a number" if length == 1 else f"{length} numbers"
        raise ValueError(f"pad.{name}: expected {shape} in [{low}, {high}], got {value!r}")
    for v in values:
        if not isinstance(v, (int, float)) or not math.isfinite(v) or not low <= v <= high:
            raise ValueError(f"pad.{name}: expected numbers in [{low}, {high}], got {value!r}")


@dataclass
class Pad:
    """Virtual gamepad. Writes are validated: bad values raise ValueError."""

    _left: tuple[float, float] = (0.0, 0.0)
    _right: tuple[float, float] = (0.0, 0.0)
    _lt: float = 0.0
    _rt: float = 0.0
    held: set[str] = field(default_factory=set)
    presses: list[str] = field(default_factory=list)  # edges since the input stage last read them

    @property
    def left(self) -> tuple[float, float]:
        return self._left

    @left.setter
    def left(self, value) -> None:
        value = tuple(value) if isinstance(value, (tuple, list)) else value
        _check_axis("left", value, -1.0, 1.0, 2)
        self._left = (float(value[0]), float(value[1]))

    @property
    def right(self) -> tuple[float, float]:
        return self._right

    @right.setter
    def right(self, value) -> None:
        value = tuple(value) if isinstance(value, (tuple, list)) else value
        _check_axis("right", value, -1.0, 1.0, 2)
        self._right = (float(value[0]), float(value[1]))

    @property
    def lt(self) -> float:
        return self._lt

    @lt.setter
    def lt(self, value: float) -> None:
        _check_axis("lt", value, 0.0, 1.0)
        self._lt = float(value)

    @property
    def rt(self) -> float:
        return self._rt

    @rt.setter
    def rt(self, value: float) -> None:
        _check_axis("rt", value, 0.0, 1.0)
        self._rt = float(value)

    def press(self, button: str) -> None:
        _check_button(button)
        if button not in self.held:
            self.held.add(button)
            self.presses.append(button)

    def release(self, button: str) -> None:
        _check_button(button)
        self.held.discard(button)

    def is_held(self, button: str) -> bool:
        return _check_button(button) in self.held

    def neutral(self) -> None:
        """Everything centred and released (menu close, focus loss, Restart)."""
        self._left = self._right = (0.0, 0.0)
        self._lt = self._rt = 0.0
        self.held.clear()
        self.presses.clear()


@dataclass(slots=True)
class PilotCommand:
    """The pad after dead zones, for this frame — what the flight systems read.

    The menu system replaces it with neutral while the menu is open, so flight logic never
    sees the deflection used to pick an entry.
    """

    left: tuple[float, float] = (0.0, 0.0)  # after the radial dead zone, rescaled
    right: tuple[float, float] = (0.0, 0.0)
    lt: float = 0.0
    rt: float = 0.0
    held: frozenset = frozenset()
    pressed: tuple[str, ...] = ()  # buttons pressed this frame
    raw: tuple = ()  # the pad's (left, right, lt, rt) as last read, before the dead zones

    def climb(self) -> float:
        """+1 climbing (Y), −1 descending (A), 0 both or neither."""
        return ("Y" in self.held) - ("A" in self.held)
