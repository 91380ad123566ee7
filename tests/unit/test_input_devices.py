"""InputDevices: the keyboard plus the gamepad backend the settings choose, sharing the Pad."""

from __future__ import annotations

import pytest

from components.pilot import Pad
from game.input import InputDevices
from game.input.gamepads import GamepadManager
from game.input.inputs_backend import InputsGamepads
from game.input.keys import symbol_of
from game.settings import Settings


@pytest.mark.parametrize(("backend", "kind"), [("pyglet", GamepadManager), ("inputs", InputsGamepads), ("none", type(None))])
def test_the_backend_setting_picks_the_gamepad_backend(backend, kind):
    settings = Settings()
    settings.set("input.backend", backend)
    devices = InputDevices(Pad(), settings)
    assert isinstance(devices.gamepads, kind)
    devices.start()  # headless here: no gamepads, no exception
    devices.poll(1 / 60)
    devices.stop()


def test_keyboard_and_gamepad_write_one_pad_through_one_writer():
    settings = Settings()
    settings.set("input.backend", "none")
    pad = Pad()
    devices = InputDevices(pad, settings)
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
