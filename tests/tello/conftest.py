"""The Tello SDK server on loopback, stepped at wall-clock speed in its own thread (the
simulation's thread: it alone touches the game), for the tests that fly it with the stock
DJITelloPy or raw UDP datagrams."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager

from game.simulation import Simulation
from game.tello.server import TelloServer, addresses


def free_port(host: str = "127.0.0.1", span: int = 1) -> int:
    """A UDP port free on `host` (and the `span - 1` after it, for several drones on loopback)."""
    for _ in range(50):
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        probe.bind((host, 0))
        port = probe.getsockname()[1]
        probe.close()
        if port + span < 65536 and port not in (8889, 8890, 11111):
            return port
    raise RuntimeError("no free UDP port")


@contextmanager
def serving(level="street", drones: int = 1, host: str = "127.0.0.1", position=None, **server_options):
    """(sim, server) with the server's loop running in its thread until the block ends."""
    sim = Simulation(level, position=position)
    server = TelloServer(sim, addresses(host, free_port(host, drones), drones), **server_options)
    stop = threading.Event()
    thread = threading.Thread(target=server.run, args=(stop,), daemon=True, name="donify-tello-test")
    thread.start()
    try:
        yield sim, server
    finally:
        stop.set()
        thread.join(10.0)
        server.close()
        sim.close()
        # a loop still stepping its game would switch esper's world under the next test's feet
        assert not thread.is_alive(), "the server's loop did not stop within 10 s"


class Lines:
    """The lines a subprocess writes, read by a thread (so waiting never blocks on a pipe)."""

    def __init__(self, stream) -> None:
        self.lines: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.append(line)

    def wait_for(self, text: str, process, seconds: float) -> list[str]:
        """The lines so far once one contains `text`; AssertionError if the process ends or
        the time runs out first."""
        deadline = time.monotonic() + seconds
        while not any(text in line for line in self.lines):
            assert process.poll() is None and time.monotonic() < deadline, "".join(self.lines)
            time.sleep(0.1)
        return list(self.lines)
