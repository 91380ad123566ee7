"""The pilot's input devices: keyboard and gamepads, all writing the one virtual `Pad`.

Scripts and tests write `sim.pad` directly; in the game window every device writes it
through one `PadWriter` (game/input/padwriter.py), so a button is held while any device holds
it and the device moved last sets a stick. No device holds the Pad itself: each is given the
writer. The INPUT stage (systems/pilot_input.py) then applies the radial dead zone and hands
the flight a `PilotCommand`.

    controls = settings.controls
    writer = PadWriter(sim.pad, controls.dead_zone, controls.trigger_dead_zone)
    devices = InputDevices(writer, settings, emit=sim.app.emit, on_action=window_actions)
    window.push_handlers(devices.keyboard)      # on_key_press / on_key_release
    devices.start()                             # gamepads: the backend the settings choose
    apply_input_settings(sim.app, settings)     # the settings' stick dead zone for the INPUT stage
    # each frame, before sim.step():  devices.poll(dt)
    # on focus loss: devices.keyboard.release_all();  on quit: devices.stop()

| module | what |
|---|---|
| devices.py | `InputDevices` (the keyboard and the chosen gamepad backend), `apply_input_settings` |
| keys.py | key names ↔ pyglet key symbols, with no window |
| buttons.py | gamepad button names and the default Pad button → controller button map |
| keyboard.py | `KeyboardInput`, the actions and the default key bindings |
| gamepads.py | `GamepadManager`: pyglet.input controllers, hot-plug, Xbox layout |
| inputs_backend.py | `InputsGamepads`: the `inputs` package fallback, reader threads |
| padwriter.py | how several devices share the Pad |

This file imports nothing: the settings module reads the names in keys.py, buttons.py and
keyboard.py, and devices.py reads the settings, so importing a name never loads the devices.
"""
