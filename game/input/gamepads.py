"""Gamepads through `pyglet.input`: Xbox-layout controllers, hot-plugged, writing the Pad.

pyglet maps known pads (its SDL controller database) to one Xbox layout: buttons a b x y
leftshoulder rightshoulder leftstick rightstick start back guide; sticks leftx/lefty and
rightx/righty in [-1, 1] (y positive *down*, so the Pad's y is −lefty); triggers
lefttrigger/righttrigger in [0, 1]; a D-pad. Its `ControllerManager` reports pads plugged in
or pulled out while the game runs; each one emits `events.ControllerConnected` /
`CONTROLLER_DISCONNECTED` with the pad's name, for the HUD's message line.

Buttons arrive as pyglet events (a tap shorter than a frame is not lost); sticks and
triggers are read each frame in `poll()`. The D-pad drives the left stick while the stick
rests, so it picks menu entries and travel directions too. Dead zones: see PadWriter —
the Pad gets raw stick values and the INPUT stage applies the radial dead zone, once.

Where gamepads cannot work the manager says so in one info line and the game goes on:
`pyglet.input` cannot be imported in headless mode or without a display, and its Linux
backend raises FileNotFoundError where /dev/input does not exist (containers, CI).
Tests inject a fake manager and fake controllers (`manager=`): no device is needed.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping
from typing import Any, Callable

from components import events
from game.input.buttons import DEFAULT_GAMEPAD_BUTTONS, pad_buttons_of
from game.input.padwriter import DeviceState, PadWriter, stick_or_dpad

log = logging.getLogger("donify.input")


def _no_event(event: Any) -> None:
    return None


def pyglet_controller_manager() -> tuple[Any | None, str]:
    """pyglet's ControllerManager, or (None, why there is none)."""
    try:
        # pyglet reads PYGLET_HEADLESS when first imported: importing it here, when gamepads
        # start, leaves the choice to whoever opens the window (`import game.settings` loads this module)
        import pyglet

        if pyglet.options["headless"]:
            # importing pyglet.input would build a GL context and then fail on the X11 tablet module
            return None, "pyglet runs headless (PYGLET_HEADLESS): pyglet.input is not available"
        pyglet_input = importlib.import_module("pyglet.input")
    except Exception as exc:  # no display: NoSuchDisplayException; broken install: ImportError
        return None, f"pyglet.input is not available ({type(exc).__name__}: {exc})"
    try:
        return pyglet_input.ControllerManager(), ""
    except OSError as exc:  # Linux without /dev/input: FileNotFoundError
        where = f" {exc.filename}" if exc.filename else ""
        return None, f"no input devices to read ({exc.strerror or exc}{where})"


class GamepadManager:
    """Args:
        writer: the PadWriter every device writes the Pad through (its dead zones apply).
        buttons: Pad button → the controller button that presses it (`Settings.controls.gamepad`).
        emit: `App.emit`-like, called with the connect/disconnect events.
        manager: a pyglet-ControllerManager-like object (`get_controllers()`, `push_handlers`,
            `remove_handlers`, events `on_connect`/`on_disconnect`); default: pyglet's, at start().
    """

    def __init__(self, writer: PadWriter, buttons: Mapping[str, str] = DEFAULT_GAMEPAD_BUTTONS,
                 emit: Callable[..., Any] | None = None, *, manager: Any = None) -> None:
        self.writer = writer
        self.emit = emit or _no_event
        self.pad_buttons = pad_buttons_of(buttons)  # controller button → Pad buttons
        self.manager = manager
        self.connected: dict[int, tuple[Any, DeviceState]] = {}  # id(controller) → (controller, its state)
        self.started = False
        self.status = "not started"

    # -- life cycle ----------------------------------------------------------------------
    def start(self) -> bool:
        """Find the pads already plugged in and listen for hot-plug. False: no gamepads here."""
        if self.started:
            return self.manager is not None
        self.started = True
        if self.manager is None:
            self.manager, reason = pyglet_controller_manager()
            if self.manager is None:
                self.status = f"gamepads: none ({reason})"
                log.info(self.status)
                return False
        self.manager.push_handlers(self)  # on_connect / on_disconnect
        try:
            controllers = list(self.manager.get_controllers())
        except OSError as exc:
            controllers = []
            log.info("gamepads: cannot list controllers (%s)", exc.strerror or exc)
        for controller in controllers:
            self.on_connect(controller)
        self.status = f"gamepads: {len(self.connected)} connected, hot-plug on"
        return True

    def poll(self) -> None:
        """Each frame: read every connected pad's sticks, D-pad and triggers into the Pad."""
        for controller, device in self.connected.values():
            device.left = stick_or_dpad((float(controller.leftx), -float(controller.lefty)),
                                        (float(controller.dpadx), float(controller.dpady)), self.writer.dead_zone)
            device.right = (float(controller.rightx), -float(controller.righty))
            device.lt = float(controller.lefttrigger)
            device.rt = float(controller.righttrigger)
            self.writer.sync(device)

    def stop(self) -> None:
        """Close every pad, stop listening, and leave the Pad with nothing held by a gamepad."""
        for controller, _ in list(self.connected.values()):
            self._detach(controller, close=True)
        if self.manager is not None and self.started:
            try:
                self.manager.remove_handlers(self)
            except Exception:  # noqa: BLE001 (already removed: nothing to undo)
                pass
        self.started = False

    # -- ControllerManager events (hot-plug) ---------------------------------------------
    def on_connect(self, controller: Any) -> None:
        if id(controller) in self.connected:
            return
        name = _name(controller)
        try:
            controller.open()
        except Exception as exc:  # noqa: BLE001 (pyglet DeviceOpenException, OSError: pad busy or gone)
            log.warning("gamepad %s: cannot open it (%s); ignored", name, exc)
            return
        controller.push_handlers(self)  # on_button_press / on_button_release
        self.connected[id(controller)] = (controller, self.writer.add(name))
        log.info("gamepad connected: %s", name)
        self.emit(events.ControllerConnected(name))

    def on_disconnect(self, controller: Any) -> None:
        if id(controller) not in self.connected:
            return
        self._detach(controller, close=False)
        name = _name(controller)
        log.info("gamepad disconnected: %s", name)
        self.emit(events.ControllerDisconnected(name))

    # -- Controller events ---------------------------------------------------------------
    def on_button_press(self, controller: Any, button: str) -> None:
        entry = self.connected.get(id(controller))
        if entry is not None:
            for pad_button in self.pad_buttons.get(button, ()):
                self.writer.press(entry[1], pad_button)

    def on_button_release(self, controller: Any, button: str) -> None:
        entry = self.connected.get(id(controller))
        if entry is not None:
            for pad_button in self.pad_buttons.get(button, ()):
                self.writer.release(entry[1], pad_button)

    # ------------------------------------------------------------------------------------
    def _detach(self, controller: Any, close: bool) -> None:
        _, device = self.connected.pop(id(controller))
        self.writer.remove(device)  # an unplugged pad never leaves RT pulled or A held
        try:
            controller.remove_handlers(self)
            if close:
                controller.close()
        except Exception:  # noqa: BLE001 (the device is already gone)
            pass


def _name(controller: Any) -> str:
    return str(getattr(controller, "name", None) or "gamepad")
