"""The frame's stages, declared once.

A frame flows one way through these stages. Frame stages run once per rendered frame with
the frame's dt; fixed stages run together, in order, once per fixed tick (1/240 s), as many
ticks as the frame's time allows (see `engine.clock`). Each stage maps to an esper priority
(higher runs first), so ordering is never a loose integer written in some other file.
"""

from __future__ import annotations

import enum


class Stage(enum.Enum):
    """Where a system runs in the frame. `fixed` stages run per fixed tick."""

    INPUT = (900, False)
    MENU = (800, False)
    ASSIST = (700, False)
    CONTROL = (600, True)
    DYNAMICS = (500, True)
    COLLISION = (400, True)
    GAMEPLAY = (300, False)
    AUDIO = (200, False)
    RENDER = (100, False)

    def __init__(self, priority: int, fixed: bool) -> None:
        self.priority = priority
        self.fixed = fixed


ORDER: tuple[Stage, ...] = tuple(sorted(Stage, key=lambda s: -s.priority))
