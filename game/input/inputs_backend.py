"""The `inputs` package (0.5) as a fallback gamepad backend, for pads pyglet cannot map.

Chosen with `input.backend = "inputs"` in the settings file. `inputs` reads the kernel's raw
event codes, so it works with pads missing from pyglet's controller database; in exchange:
- it sees only the devices present when it is first imported (no hot-plug: plug the pad in
  before starting the game);
- `device.read()` blocks until the pad sends something, so each pad gets a reader thread.
  The thread only queues (device, code, value); `poll()` applies the queue to the Pad in the
  game's thread, so the Pad is never written from two threads. `stop()` sets a stop flag and
  joins each thread with a timeout. A thread blocked in `read()` ends at the pad's next event;
  it is a daemon thread, so it never keeps the game from exiting;
- values are raw integers. Sticks are scaled by their largest magnitude so far (starting
  from the signed 16-bit range of Linux xpad/evdev pads), triggers by their largest value
  so far (starting from 255; a pad reporting 0..1023 widens it on the first full pull). Pads
  reporting sticks as unsigned 0..255 are not handled.

Raw codes → controls, named as pyglet names them so the settings' `[controls.gamepad]`
remapping applies to both backends: ABS_X/ABS_Y left stick, ABS_RX/ABS_RY right stick (y is
positive down on Linux: flipped), ABS_Z/ABS_RZ left/right trigger, ABS_HAT0X/ABS_HAT0Y
D-pad; BTN_SOUTH a, BTN_EAST b, BTN_WEST x, BTN_NORTH y, BTN_TL/BTN_TR shoulders,
BTN_THUMBL/BTN_THUMBR stick clicks, BTN_START start, BTN_SELECT back, BTN_MODE guide.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Mapping
from typing import Any, Callable

from components import events
from game.input.buttons import DEFAULT_GAMEPAD_BUTTONS, pad_buttons_of
from game.input.padwriter import DeviceState, PadWriter, stick_or_dpad

log = logging.getLogger("donify.input")

# raw code → (control, component index, sign); components: left/right/dpad (x, y), lt/rt
RAW_AXES: dict[str, tuple[str, int, float]] = {
    "ABS_X": ("left", 0, 1.0), "ABS_Y": ("left", 1, -1.0),
    "ABS_RX": ("right", 0, 1.0), "ABS_RY": ("right", 1, -1.0),
    "ABS_Z": ("lt", 0, 1.0), "ABS_RZ": ("rt", 0, 1.0),
    "ABS_HAT0X": ("dpad", 0, 1.0), "ABS_HAT0Y": ("dpad", 1, -1.0),
}
RAW_BUTTONS: dict[str, str] = {  # raw code → pyglet's controller button name
    "BTN_SOUTH": "a", "BTN_EAST": "b", "BTN_WEST": "x", "BTN_NORTH": "y",
    "BTN_TL": "leftshoulder", "BTN_TR": "rightshoulder", "BTN_THUMBL": "leftstick", "BTN_THUMBR": "rightstick",
    "BTN_START": "start", "BTN_SELECT": "back", "BTN_MODE": "guide",
}
STICK_FULL_SCALE = 32767.0  # signed 16-bit, the Linux evdev range of Xbox-style pads
TRIGGER_FULL_SCALE = 255.0
_GONE = None  # code of the queue item that says the device stopped reading


class _Pad:
    """One `inputs` device: its reader thread and its latest normalised controls."""

    def __init__(self, device: Any, state: DeviceState) -> None:
        self.device = device
        self.state = state
        self.sticks = {"left": [0.0, 0.0], "right": [0.0, 0.0], "dpad": [0.0, 0.0]}
        self.triggers = {"lt": 0.0, "rt": 0.0}
        self.full_scale: dict[str, float] = {}
        self.thread: threading.Thread | None = None

    def apply_axis(self, code: str, raw: int) -> None:
        control, index, sign = RAW_AXES[code]
        value = float(raw)
        if control == "dpad":
            self.sticks["dpad"][index] = sign * max(-1.0, min(1.0, value))
            return
        default = TRIGGER_FULL_SCALE if control in self.triggers else STICK_FULL_SCALE
        scale = self.full_scale[code] = max(self.full_scale.get(code, default), abs(value))
        if control in self.triggers:
            self.triggers[control] = max(0.0, value / scale)
        else:
            self.sticks[control][index] = sign * value / scale


class InputsGamepads:
    """Args:
        writer: the PadWriter every device writes the Pad through (its dead zones apply).
        buttons: Pad button → the controller button that presses it (`Settings.controls.gamepad`).
        emit: `App.emit`-like, called with the connect/disconnect events.
        devices: objects with `read()` → list of events (`ev_type`, `code`, `state`) and a
            `name`; default: `inputs.devices.gamepads`, imported at start().
        join_timeout_s: how long stop() waits for each reader thread, seconds.
    """

    def __init__(self, writer: PadWriter, buttons: Mapping[str, str] = DEFAULT_GAMEPAD_BUTTONS,
                 emit: Callable[..., Any] | None = None, *, devices: list[Any] | None = None,
                 join_timeout_s: float = 0.5) -> None:
        self.writer = writer
        self.emit = emit or (lambda event, *payload: None)
        self.pad_buttons = pad_buttons_of(buttons)  # pyglet button name → Pad buttons
        self.devices = devices
        self.join_timeout_s = join_timeout_s
        self.pads: list[_Pad] = []
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.stopping = threading.Event()  # a fresh one per start(): an old blocked reader stays stopped
        self.status = "not started"

    # -- life cycle ----------------------------------------------------------------------
    def start(self) -> bool:
        """Start one reader thread per pad `inputs` found. False: no gamepads here."""
        if self.pads:
            return True
        devices = self.devices
        if devices is None:
            try:
                import inputs  # scans /dev/input once, at this first import

                devices = list(inputs.devices.gamepads)
            except Exception as exc:  # noqa: BLE001 (any platform trouble: no gamepads, game goes on)
                devices = []
                self.status = f"gamepads (inputs): none (the inputs package failed: {type(exc).__name__}: {exc})"
        if not devices:
            if self.status == "not started":
                self.status = "gamepads (inputs): none found (inputs sees only pads plugged in before the game starts)"
            log.info(self.status)
            return False
        self.stopping, self.queue = threading.Event(), queue.SimpleQueue()
        for index, device in enumerate(devices):
            name = str(getattr(device, "name", None) or f"gamepad {index + 1}")
            entry = _Pad(device, self.writer.add(name))
            entry.thread = threading.Thread(target=self._read, args=(index, device, self.stopping, self.queue),
                                            daemon=True, name=f"donify-inputs-{index}")
            self.pads.append(entry)
            entry.thread.start()
            self.emit(events.ControllerConnected(name))
        self.status = f"gamepads (inputs): {len(self.pads)} found, no hot-plug"
        log.info(self.status)
        return True

    def poll(self) -> None:
        """Each frame: apply what the reader threads queued, then write the Pad."""
        touched: set[int] = set()
        while True:
            try:
                index, code, value = self.queue.get_nowait()
            except queue.Empty:
                break
            entry = self.pads[index] if index < len(self.pads) else None
            if entry is None or entry.thread is None:
                continue  # already gone
            if code is _GONE:
                self._gone(entry, value)
            elif code in RAW_AXES:
                entry.apply_axis(code, value)
                touched.add(index)
            elif code in RAW_BUTTONS and value in (0, 1):  # 2 is key auto-repeat
                for pad_button in self.pad_buttons.get(RAW_BUTTONS[code], ()):
                    (self.writer.press if value else self.writer.release)(entry.state, pad_button)
        for index in touched:
            entry = self.pads[index]
            if entry.thread is None:
                continue
            state = entry.state
            state.left = stick_or_dpad(tuple(entry.sticks["left"]), tuple(entry.sticks["dpad"]), self.writer.dead_zone)
            state.right = tuple(entry.sticks["right"])
            state.lt, state.rt = entry.triggers["lt"], entry.triggers["rt"]
            self.writer.sync(state)

    def stop(self) -> bool:
        """Stop reading: True if every reader thread ended within its join timeout."""
        self.stopping.set()
        all_stopped = True
        for entry in self.pads:
            if entry.thread is not None:
                entry.thread.join(self.join_timeout_s)
                all_stopped &= not entry.thread.is_alive()
                entry.thread = None
                self.writer.remove(entry.state)
        if not all_stopped:
            log.debug("inputs backend: a reader is still blocked in read(); it ends at the pad's next event")
        self.pads = []
        return all_stopped

    # ------------------------------------------------------------------------------------
    @staticmethod
    def _read(index: int, device: Any, stopping: threading.Event, out: queue.SimpleQueue) -> None:
        """The reader thread: queue raw codes until stopped or the device fails."""
        put = out.put
        while not stopping.is_set():
            try:
                batch = device.read()
            except Exception as exc:  # noqa: BLE001 (OSError ENODEV when unplugged, inputs.UnpluggedError)
                if not stopping.is_set():
                    put((index, _GONE, f"{type(exc).__name__}: {exc}"))
                return
            for event in batch or ():
                if getattr(event, "ev_type", None) in ("Absolute", "Key"):
                    put((index, event.code, event.state))

    def _gone(self, entry: _Pad, reason: str) -> None:
        entry.thread = None  # the thread has returned
        self.writer.remove(entry.state)
        log.info("gamepad disconnected: %s (%s)", entry.state.name, reason)
        self.emit(events.ControllerDisconnected(entry.state.name))
