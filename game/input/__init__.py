"""The pilot's input devices: keyboard and gamepads, all writing the one virtual `Pad`.

Scripts and tests write `sim.pad` directly; in the game window every device writes it
through one `PadWriter` (game/input/padwriter.py), so a button is held while any device holds
it and the device moved last sets a stick. The INPUT stage (systems/pilot_input.py) then
applies the radial dead zone and hands the flight a `PilotCommand`.

    devices = InputDevices(sim.pad, settings, emit=sim.app.emit, on_action=window_actions)
    window.push_handlers(devices.keyboard)      # on_key_press / on_key_release
    devices.start()                             # gamepads: the backend the settings choose
    apply_input_settings(sim.app, settings)     # the settings' stick dead zone for the INPUT stage
    # each frame, before sim.step():  devices.poll(dt)
    # on focus loss: devices.keyboard.release_all();  on quit: devices.stop()

| module | what |
|---|---|
| keys.py | key names ↔ pyglet key symbols, with no window |
| keyboard.py | `KeyboardInput`, the actions and the default key bindings |
| gamepads.py | `GamepadManager`: pyglet.input controllers, hot-plug, Xbox layout |
| inputs_backend.py | `InputsGamepads`: the `inputs` package fallback, reader threads |
| padwriter.py | how several devices share the Pad |
"""

from __future__ import annotations

from typing import Any, Callable

from components.pilot import Pad
from game.input.padwriter import PadWriter


class InputDevices:
    """Keyboard + the gamepad backend chosen by `settings.input.backend`.

    Args:
        pad: the virtual gamepad.
        settings: the user `Settings`.
        emit: `emit(event_name, *payload)` (e.g. `App.emit`) for controller connect/disconnect.
        on_action: called with a window action ("fullscreen", "screenshot") on its key.
    """

    def __init__(self, pad: Pad, settings: Any, emit: Callable[..., Any] | None = None,
                 on_action: Callable[[str], None] | None = None) -> None:
        from game.input.keyboard import KeyboardInput  # noqa: PLC0415 (keep `import game.input` light)

        controls = settings.controls
        self.writer = PadWriter(pad, controls.dead_zone, controls.trigger_dead_zone)
        self.keyboard = KeyboardInput(pad, controls.keys, on_action=on_action, writer=self.writer)
        self.gamepads: Any = None
        backend = settings.input.backend
        if backend == "pyglet":
            from game.input.gamepads import GamepadManager  # noqa: PLC0415

            self.gamepads = GamepadManager(pad, settings, emit, writer=self.writer)
        elif backend == "inputs":
            from game.input.inputs_backend import InputsGamepads  # noqa: PLC0415

            self.gamepads = InputsGamepads(pad, settings, emit, writer=self.writer)

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


def apply_input_settings(app: Any, settings: Any) -> None:
    """Give the INPUT stage the player's stick dead zone (it replaces the vehicle file's)."""
    from systems.pilot_input import ReadPilotInput  # noqa: PLC0415

    reader = app.get_system(ReadPilotInput)
    if reader is not None:
        reader.dead_zone = settings.controls.dead_zone
