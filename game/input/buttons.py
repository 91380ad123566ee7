"""Gamepad buttons by the names of pyglet's Xbox layout, and which one presses each Pad button.

The settings file remaps them (`[controls.gamepad]`: Pad button = controller button) and both
gamepad backends read the map, so the names live here, apart from either: the settings check
a name without loading a backend, and no backend needs the settings module.
"""

from __future__ import annotations

from collections.abc import Mapping

CONTROLLER_BUTTONS = ("a", "b", "x", "y", "leftshoulder", "rightshoulder", "leftstick", "rightstick",
                      "start", "back", "guide")
DEFAULT_GAMEPAD_BUTTONS = {  # Pad button → the controller button that presses it
    "A": "a", "B": "b", "X": "x", "Y": "y", "LB": "leftshoulder", "RB": "rightshoulder",
    "LS": "leftstick", "RS": "rightstick", "START": "start", "BACK": "back",
}


def pad_buttons_of(gamepad_map: Mapping[str, str]) -> dict[str, list[str]]:
    """Controller button → the Pad buttons it presses, from a Pad button → controller button map
    (one controller button may press several Pad buttons)."""
    pressed: dict[str, list[str]] = {}
    for pad_button, controller_button in gamepad_map.items():
        pressed.setdefault(controller_button, []).append(pad_button)
    return pressed
