"""Gamepads through pyglet.input, driven by a fake controller and a fake ControllerManager
(pyglet EventDispatchers with pyglet's event names; no device): hot-plug events reach the
game's events, buttons and sticks reach the Pad with the Xbox layout, an unplugged pad
leaves nothing pulled, and where pyglet.input cannot work the game goes on with one line."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import types

import pytest
from pyglet.event import EventDispatcher

from components.pilot import Pad
from components import events
from game.input.gamepads import GamepadManager, pyglet_controller_manager
from game.input.padwriter import PadWriter
from game.settings import Settings, load_settings


def gamepads_for(pad: Pad, settings: Settings, emit=None, **options) -> GamepadManager:
    """A GamepadManager writing `pad` as the window builds it: through a PadWriter with the
    settings' dead zones, with the settings' button map."""
    controls = settings.controls
    writer = PadWriter(pad, controls.dead_zone, controls.trigger_dead_zone)
    return GamepadManager(writer, controls.gamepad, emit, **options)


class FakeController(EventDispatcher):
    """The parts of pyglet.input.Controller the game uses."""

    def __init__(self, name: str = "Fake Xbox pad", fail_open: bool = False) -> None:
        self.name = name
        self.fail_open = fail_open
        self.opened = self.closed = 0
        self.leftx = self.lefty = self.rightx = self.righty = 0.0
        self.lefttrigger = self.righttrigger = 0.0
        self.dpadx = self.dpady = 0.0

    def open(self, window=None, exclusive=False):
        if self.fail_open:
            raise OSError(16, "Device or resource busy")
        self.opened += 1

    def close(self):
        self.closed += 1

    def press(self, button: str) -> None:
        self.dispatch_event("on_button_press", self, button)

    def release(self, button: str) -> None:
        self.dispatch_event("on_button_release", self, button)


FakeController.register_event_type("on_button_press")
FakeController.register_event_type("on_button_release")


class FakeManager(EventDispatcher):
    def __init__(self, *controllers: FakeController) -> None:
        self.controllers = list(controllers)

    def get_controllers(self):
        return list(self.controllers)

    def plug(self, controller: FakeController) -> None:
        self.controllers.append(controller)
        self.dispatch_event("on_connect", controller)

    def unplug(self, controller: FakeController) -> None:
        self.controllers.remove(controller)
        self.dispatch_event("on_disconnect", controller)


FakeManager.register_event_type("on_connect")
FakeManager.register_event_type("on_disconnect")


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple] = []

    def emit(self, event) -> None:
        self.events.append(event)


@pytest.fixture
def rig():
    pad, rec, manager = Pad(), Recorder(), FakeManager()
    gamepads = gamepads_for(pad, Settings(), rec.emit, manager=manager)
    return types.SimpleNamespace(pad=pad, rec=rec, manager=manager, gamepads=gamepads)


def test_a_pad_present_at_start_is_opened_and_announced():
    pad, rec = Pad(), Recorder()
    controller = FakeController("Xbox 360 Controller")
    gamepads = gamepads_for(pad, Settings(), rec.emit, manager=FakeManager(controller))
    assert gamepads.start() is True
    assert controller.opened == 1
    assert rec.events == [events.ControllerConnected("Xbox 360 Controller")]


def test_hot_plug_connect_and_disconnect_emit_events(rig):
    rig.gamepads.start()
    assert rig.rec.events == []
    pad_1, pad_2 = FakeController("Pad one"), FakeController("Pad two")
    rig.manager.plug(pad_1)
    rig.manager.plug(pad_2)
    rig.manager.unplug(pad_1)
    assert rig.rec.events == [events.ControllerConnected("Pad one"), events.ControllerConnected("Pad two"),
                              events.ControllerDisconnected("Pad one")]
    pad_1.press("a")  # an unplugged pad is not listened to any more
    assert not rig.pad.is_held("A")


# Xbox layout → the shared pad meaning
@pytest.mark.parametrize(("button", "pad_button"), [
    ("a", "A"), ("b", "B"), ("x", "X"), ("y", "Y"), ("leftshoulder", "LB"), ("rightshoulder", "RB"),
    ("leftstick", "LS"), ("rightstick", "RS"), ("start", "START"), ("back", "BACK"),
])
def test_buttons_press_and_release_the_pad(rig, button, pad_button):
    rig.gamepads.start()
    controller = FakeController()
    rig.manager.plug(controller)
    controller.press(button)
    assert rig.pad.is_held(pad_button) and rig.pad.presses == [pad_button]
    controller.release(button)
    assert not rig.pad.is_held(pad_button)


def test_the_guide_button_does_nothing(rig):
    rig.gamepads.start()
    controller = FakeController()
    rig.manager.plug(controller)
    controller.press("guide")
    assert rig.pad.held == set()


def test_sticks_and_triggers_reach_the_pad_raw_with_y_up(rig):
    rig.gamepads.start()
    controller = FakeController()
    rig.manager.plug(controller)
    controller.leftx, controller.lefty = 0.6, -0.8  # pyglet: y positive down → the stick is pushed up
    controller.rightx, controller.righty = -0.5, 0.0
    controller.righttrigger, controller.lefttrigger = 0.75, 0.0
    rig.gamepads.poll()
    assert rig.pad.left == (0.6, 0.8)
    assert rig.pad.right == (-0.5, 0.0)
    assert rig.pad.rt == 0.75 and rig.pad.lt == 0.0


def test_the_dpad_drives_the_left_stick_while_it_rests(rig):
    rig.gamepads.start()
    controller = FakeController()
    rig.manager.plug(controller)
    controller.dpady = 1.0
    rig.gamepads.poll()
    assert rig.pad.left == (0.0, 1.0)
    controller.dpadx = 1.0  # diagonal: length 1
    rig.gamepads.poll()
    assert rig.pad.left == pytest.approx((0.5 ** 0.5, 0.5 ** 0.5))
    controller.dpadx = controller.dpady = 0.0
    rig.gamepads.poll()
    assert rig.pad.left == (0.0, 0.0)


def test_unplugging_leaves_nothing_held_or_pulled(rig):
    rig.gamepads.start()
    controller = FakeController()
    rig.manager.plug(controller)
    controller.righttrigger = 1.0
    controller.leftx = 1.0
    controller.press("y")
    rig.gamepads.poll()
    assert rig.pad.rt == 1.0 and rig.pad.is_held("Y")
    rig.manager.unplug(controller)
    assert rig.pad.rt == 0.0 and rig.pad.left == (0.0, 0.0) and rig.pad.held == set()


def test_a_pad_that_cannot_be_opened_is_skipped_with_a_warning(rig, caplog):
    rig.gamepads.start()
    with caplog.at_level(logging.WARNING, logger="donify.input"):
        rig.manager.plug(FakeController("Busy pad", fail_open=True))
    assert rig.rec.events == []
    assert len(caplog.records) == 1 and "Busy pad" in caplog.records[0].getMessage()


def test_stop_closes_pads_and_stops_listening(rig):
    controller = FakeController()
    rig.manager.controllers.append(controller)
    rig.gamepads.start()
    controller.press("a")
    rig.gamepads.stop()
    assert controller.closed == 1 and rig.pad.held == set()
    rig.manager.plug(FakeController("Late pad"))
    assert rig.rec.events == [events.ControllerConnected("Fake Xbox pad")]


def test_button_remapping_from_the_settings_file(tmp_path):
    (tmp_path / "settings.toml").write_text('[controls.gamepad]\nA = "x"\nX = "a"\n')
    pad, manager = Pad(), FakeManager()
    gamepads = gamepads_for(pad, load_settings(tmp_path), manager=manager)
    gamepads.start()
    controller = FakeController()
    manager.plug(controller)
    controller.press("a")
    assert pad.held == {"X"}


def test_the_events_reach_app_handlers(make_sim):
    """Through App.emit, the path the HUD listens on."""
    sim = make_sim(level=None, density=0.0, wind=(0.0, 0.0, 0.0), position=(0.0, 0.0, 100.0))
    class Hud:
        def __init__(self):
            self.lines = []

        def connected(self, event):
            self.lines.append(f"connected {event.name}")

        def disconnected(self, event):
            self.lines.append(f"disconnected {event.name}")

    hud = Hud()
    sim.app.on(events.ControllerConnected, hud.connected)
    sim.app.on(events.ControllerDisconnected, hud.disconnected)
    manager = FakeManager()
    gamepads = gamepads_for(sim.pad, Settings(), sim.app.emit, manager=manager)
    gamepads.start()
    controller = FakeController("Pad")
    manager.plug(controller)
    controller.righttrigger = 1.0
    for _ in range(60):  # one second of full RT: MotorPower 0 → 0.5 (docs/model.md#stabilised-manual-flight)
        gamepads.poll()
        sim.step(1 / 60)
    manager.unplug(controller)
    sim.step(1 / 60)
    assert hud.lines == ["connected Pad", "disconnected Pad"]
    assert sim.telemetry().motor_power == pytest.approx(0.5, abs=0.5 / 60 + 1e-9)


# -- where pyglet.input cannot work ---------------------------------------------------------
def test_headless_construct_and_start_do_not_crash(caplog):
    assert os.environ.get("PYGLET_HEADLESS")  # the suite runs headless
    with caplog.at_level(logging.INFO, logger="donify.input"):
        gamepads = gamepads_for(Pad(), Settings())
        assert gamepads.start() is False
        gamepads.poll()
        gamepads.stop()
    assert [r.getMessage() for r in caplog.records] == [gamepads.status]
    assert gamepads.status.startswith("gamepads: none (") and "headless" in gamepads.status


def test_no_dev_input_is_one_line_not_a_crash(monkeypatch):
    import pyglet

    class NoDevInput:
        def ControllerManager(self):  # noqa: N802 (pyglet's name)
            raise FileNotFoundError(2, "No such file or directory", "/dev/input")

    monkeypatch.setattr(pyglet.options, "headless", False)  # as in a windowed game
    monkeypatch.setitem(sys.modules, "pyglet.input", NoDevInput())
    manager, reason = pyglet_controller_manager()
    assert manager is None and reason == "no input devices to read (No such file or directory /dev/input)"


def test_no_display_and_not_headless_is_one_line_not_a_crash():
    env = {k: v for k, v in os.environ.items() if k not in ("PYGLET_HEADLESS", "DISPLAY", "WAYLAND_DISPLAY")}
    code = ("from components.pilot import Pad; from game.input.gamepads import GamepadManager; "
            "from game.input.padwriter import PadWriter; "
            "g = GamepadManager(PadWriter(Pad())); print(g.start()); print(g.status)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert out.returncode == 0, out.stderr
    started, status = out.stdout.splitlines()
    assert started == "False" and status.startswith("gamepads: none (pyglet.input is not available")
