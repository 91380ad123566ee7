"""The pilot's inputs: the virtual gamepad every input device writes, and what it means.

`Pad` is the one pilot-input state (ARCHITECTURE §3's `sim.pad`): the keyboard, real
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


def _check_axis(name: str, value, low: float, high: float):
    values = value if isinstance(value, tuple) else (value,)
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
        value = tuple(float(v) for v in value) if isinstance(value, (tuple, list)) and len(value) == 2 else value
        _check_axis("left", value, -1.0, 1.0)
        self._left = value

    @property
    def right(self) -> tuple[float, float]:
        return self._right

    @right.setter
    def right(self, value) -> None:
        value = tuple(float(v) for v in value) if isinstance(value, (tuple, list)) and len(value) == 2 else value
        _check_axis("right", value, -1.0, 1.0)
        self._right = value

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

    def climb(self) -> float:
        """+1 climbing (Y), −1 descending (A), 0 both or neither."""
        return ("Y" in self.held) - ("A" in self.held)
