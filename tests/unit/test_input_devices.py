"""InputDevices: the keyboard plus the gamepad backend the settings choose, sharing the Pad
through the one PadWriter they are given."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from components.pilot import Pad
from game.input.devices import InputDevices
from game.input.gamepads import GamepadManager
from game.input.inputs_backend import InputsGamepads
from game.input.keys import symbol_of
from game.input.padwriter import PadWriter
from game.settings import Settings


@pytest.mark.parametrize(("backend", "kind"), [("pyglet", GamepadManager), ("inputs", InputsGamepads), ("none", type(None))])
def test_the_backend_setting_picks_the_gamepad_backend(backend, kind):
    settings = Settings()
    settings.set("input.backend", backend)
    devices = InputDevices(PadWriter(Pad()), settings)
    assert isinstance(devices.gamepads, kind)
    devices.start()  # headless here: no gamepads, no exception
    devices.poll(1 / 60)
    devices.stop()


def test_keyboard_and_gamepad_write_one_pad_through_one_writer():
    settings = Settings()
    settings.set("input.backend", "none")
    pad = Pad()
    controls = settings.controls
    devices = InputDevices(PadWriter(pad, controls.dead_zone, controls.trigger_dead_zone), settings)
    gamepad = devices.writer.add("gamepad")
    devices.keyboard.on_key_press(symbol_of("UP"), 0)
    devices.poll(1 / 60)
    assert pad.left == (0.0, 1.0)
    gamepad.left = (0.04, 0.02)  # a resting stick's jitter never undoes the keyboard
    devices.writer.sync(gamepad)
    assert pad.left == (0.0, 1.0)
    gamepad.left = (-0.9, 0.0)  # moving it does: the device moved last wins
    devices.writer.sync(gamepad)
    assert pad.left == (-0.9, 0.0)
    devices.stop()
    assert pad.held == set()


def test_every_device_writes_through_the_writer_it_is_given():
    settings = Settings()
    settings.set("input.backend", "inputs")
    writer = PadWriter(Pad())
    devices = InputDevices(writer, settings)
    for device in (devices.keyboard, devices.gamepads):
        assert device.writer is writer and not hasattr(device, "pad")


def test_the_gamepad_backends_and_the_settings_do_not_load_each_other():
    """The settings read the button names (game/input/buttons.py) and the backends take the
    button map they are given: neither module imports the other."""
    root = Path(__file__).resolve().parents[2]
    for first, other in (("game.input.gamepads", "game.settings"), ("game.input.inputs_backend", "game.settings"),
                         ("game.settings", "game.input.gamepads"), ("game.settings", "game.input.inputs_backend")):
        code = f"import sys\nimport {first}\nprint({other!r} in sys.modules)"
        out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "False", f"importing {first} loads {other}"
