"""The `inputs` fallback backend with fake devices (no /dev/input): raw codes reach the Pad
through the reader threads, the threads start and stop cleanly, an unplugged pad is
announced and leaves nothing held."""

from __future__ import annotations

import queue
import threading
import time
from types import SimpleNamespace

import pytest

from components.pilot import Pad
from components import events
from game.input.inputs_backend import InputsGamepads
from game.input.padwriter import PadWriter
from game.settings import Settings

WAIT_S = 2.0


class FakeDevice:
    """Like an inputs GamePad: read() returns the next batch of events the pad sent.

    While idle it returns an empty batch every 10 ms. With `blocking=True` it behaves like a
    real pad at rest instead: read() waits, here until `unblock` is set."""

    def __init__(self, name: str = "Generic USB Joystick", blocking: bool = False) -> None:
        self.name = name
        self.batches: queue.SimpleQueue = queue.SimpleQueue()
        self.blocking = blocking
        self.unblock = threading.Event()
        self.failure: Exception | None = None
        self.reads = 0

    def send(self, *codes: tuple[str, str, int]) -> None:
        self.batches.put([SimpleNamespace(ev_type=t, code=c, state=v) for t, c, v in codes]
                         + [SimpleNamespace(ev_type="Sync", code="SYN_REPORT", state=0)])

    def read(self):
        self.reads += 1
        if self.failure is not None:
            raise self.failure
        if self.blocking:
            self.unblock.wait()
            return []
        try:
            return self.batches.get(timeout=0.01)
        except queue.Empty:
            return []


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple] = []

    def emit(self, event) -> None:
        self.events.append(event)


def poll_until(backend: InputsGamepads, condition) -> bool:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        backend.poll()
        if condition():
            return True
        time.sleep(0.002)
    return False


def backend_for(pad: Pad, emit=None, **options) -> InputsGamepads:
    """The backend writing `pad` as the window builds it: through a PadWriter with the default
    settings' dead zones, with their button map."""
    controls = Settings().controls
    writer = PadWriter(pad, controls.dead_zone, controls.trigger_dead_zone)
    return InputsGamepads(writer, controls.gamepad, emit, **options)


@pytest.fixture
def rig():
    device, pad, rec = FakeDevice(), Pad(), Recorder()
    backend = backend_for(pad, rec.emit, devices=[device], join_timeout_s=1.0)
    yield SimpleNamespace(device=device, pad=pad, rec=rec, backend=backend)
    backend.stop()


def test_the_reader_thread_starts_and_stops_cleanly(rig):
    assert rig.backend.start() is True
    (entry,) = rig.backend.pads
    thread = entry.thread
    assert thread.is_alive() and thread.daemon
    assert rig.rec.events == [events.ControllerConnected("Generic USB Joystick")]
    started = time.monotonic()
    assert rig.backend.stop() is True
    assert time.monotonic() - started < 1.0 and not thread.is_alive()
    assert rig.backend.pads == []


def test_raw_sticks_buttons_and_triggers_reach_the_pad(rig):
    rig.backend.start()
    rig.device.send(("Absolute", "ABS_X", 16384), ("Absolute", "ABS_Y", -32768),  # left stick right-half, full up
                    ("Absolute", "ABS_RX", -32767), ("Absolute", "ABS_RZ", 255), ("Key", "BTN_SOUTH", 1))
    assert poll_until(rig.backend, lambda: rig.pad.is_held("A"))
    assert rig.pad.left == pytest.approx((16384 / 32767, 1.0))
    assert rig.pad.right == pytest.approx((-1.0, 0.0))
    assert rig.pad.rt == 1.0
    rig.device.send(("Key", "BTN_SOUTH", 0), ("Absolute", "ABS_X", 0), ("Absolute", "ABS_Y", 0))
    assert poll_until(rig.backend, lambda: not rig.pad.is_held("A") and rig.pad.left == (0.0, 0.0))


@pytest.mark.parametrize(("code", "pad_button"), [
    ("BTN_SOUTH", "A"), ("BTN_EAST", "B"), ("BTN_WEST", "X"), ("BTN_NORTH", "Y"), ("BTN_TL", "LB"),
    ("BTN_TR", "RB"), ("BTN_THUMBL", "LS"), ("BTN_THUMBR", "RS"), ("BTN_START", "START"), ("BTN_SELECT", "BACK"),
])
def test_button_codes_follow_the_xbox_layout(rig, code, pad_button):
    rig.backend.start()
    rig.device.send(("Key", code, 1))
    assert poll_until(rig.backend, lambda: rig.pad.is_held(pad_button))
    assert rig.pad.held == {pad_button}


def test_a_trigger_reporting_0_to_1023_widens_its_range(rig):
    rig.backend.start()
    rig.device.send(("Absolute", "ABS_Z", 1023))
    assert poll_until(rig.backend, lambda: rig.pad.lt == 1.0)
    rig.device.send(("Absolute", "ABS_Z", 512))
    assert poll_until(rig.backend, lambda: rig.pad.lt == pytest.approx(512 / 1023))


def test_an_unplugged_pad_is_announced_and_releases_everything(rig):
    rig.backend.start()
    rig.device.send(("Key", "BTN_NORTH", 1), ("Absolute", "ABS_RZ", 255))
    assert poll_until(rig.backend, lambda: rig.pad.is_held("Y") and rig.pad.rt == 1.0)
    thread = rig.backend.pads[0].thread
    rig.device.failure = OSError(19, "No such device")
    assert poll_until(rig.backend, lambda: len(rig.rec.events) == 2)
    assert rig.rec.events[-1] == events.ControllerDisconnected("Generic USB Joystick")
    assert rig.pad.held == set() and rig.pad.rt == 0.0
    thread.join(WAIT_S)
    assert not thread.is_alive()


def test_a_reader_blocked_in_read_does_not_hold_up_stop():
    """A real pad at rest sends nothing: its thread waits in read(). stop() gives up after the
    join timeout (the daemon thread then ends at the pad's next event)."""
    device = FakeDevice(blocking=True)
    backend = backend_for(Pad(), devices=[device], join_timeout_s=0.05)
    backend.start()
    thread = backend.pads[0].thread
    assert poll_until(backend, lambda: device.reads >= 1)
    started = time.monotonic()
    assert backend.stop() is False
    assert time.monotonic() - started < 0.5
    assert thread.daemon
    device.unblock.set()  # the pad's next event: the thread sees the stop flag and returns
    thread.join(WAIT_S)
    assert not thread.is_alive()


def test_no_devices_is_one_line_and_no_thread():
    backend = backend_for(Pad(), devices=[])
    before = threading.active_count()
    assert backend.start() is False
    assert "none found" in backend.status and threading.active_count() == before


def test_the_real_inputs_package_never_crashes_start_or_stop():
    backend = backend_for(Pad(), join_timeout_s=0.05)
    backend.start()  # this machine may or may not have a pad: either way, no exception
    backend.poll()
    backend.stop()
    assert backend.status.startswith("gamepads (inputs):")
