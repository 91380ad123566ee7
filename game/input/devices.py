"""The input devices of the game window, together: the keyboard and the gamepad backend the
settings choose, all writing the Pad through one `PadWriter` (see game/input/__init__.py)."""

from __future__ import annotations

from typing import Any, Callable

from engine.app import App
from game.input.gamepads import GamepadManager
from game.input.inputs_backend import InputsGamepads
from game.input.keyboard import KeyboardInput
from game.input.padwriter import PadWriter
from game.settings import Settings
from systems.pilot_input import ReadPilotInput


class InputDevices:
    """Keyboard + the gamepad backend chosen by `settings.input.backend`, all writing through
    one PadWriter.

    Args:
        writer: the PadWriter over the virtual gamepad (with the settings' dead zones).
        settings: the user `Settings` (key bindings, gamepad buttons, backend).
        emit: `App.emit`-like, called with the controller connect/disconnect events.
        on_action: called with a window action ("fullscreen", "screenshot") on its key.
    """

    def __init__(self, writer: PadWriter, settings: Settings, emit: Callable[..., Any] | None = None,
                 on_action: Callable[[str], None] | None = None) -> None:
        controls = settings.controls
        self.writer = writer
        self.keyboard = KeyboardInput(writer, controls.keys, on_action=on_action)
        self.gamepads: GamepadManager | InputsGamepads | None = None
        backend = settings.input.backend
        if backend == "pyglet":
            self.gamepads = GamepadManager(writer, controls.gamepad, emit)
        elif backend == "inputs":
            self.gamepads = InputsGamepads(writer, controls.gamepad, emit)

    def start(self) -> None:
        if self.gamepads is not None:
            self.gamepads.start()

    def poll(self, dt: float) -> None:
        """Each frame, before the app update: keyboard axes, then the gamepads."""
        self.keyboard.update(dt)
        if self.gamepads is not None:
            self.gamepads.poll()

    def stop(self) -> None:
        self.keyboard.release_all()
        if self.gamepads is not None:
            self.gamepads.stop()


def apply_input_settings(app: App, settings: Settings) -> None:
    """Give the INPUT stage the player's stick dead zone (it replaces the vehicle file's)."""
    reader = app.get_system(ReadPilotInput)
    if reader is not None:
        reader.dead_zone = settings.controls.dead_zone
