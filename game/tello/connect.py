"""The third way to reach `donify tello` from a DJITelloPy script on the same machine: one call
before the first `Tello()`, nothing else changed.

    from game.tello.connect import use_donify
    use_donify()                       # then the script as it was: Tello(), connect(), …

DJITelloPy would bind `*:8889` for its commands, which is where a Tello — here Donify, started
with `donify tello` (127.0.0.1:8889 by default) — listens. `use_donify()` gives DJITelloPy a
command socket on a free port instead and starts DJITelloPy's own receiver threads with it (the
server answers whichever port a command came from), and makes `Tello()`'s default address
Donify's. The state still comes to the client's port 8890, as from a Tello.
"""

from __future__ import annotations

import inspect
import socket
import threading


def use_donify(host: str = "127.0.0.1", port: int = 8889) -> None:
    """Point DJITelloPy at `donify tello` on (host, port); call it before the first `Tello()`.
    RuntimeError if DJITelloPy already made its sockets (a Tello was made first)."""
    from djitellopy import tello as djitellopy_tello  # noqa: PLC0415 (the user's library, not Donify's)

    Tello = djitellopy_tello.Tello
    if djitellopy_tello.threads_initialized:
        raise RuntimeError("use_donify(): call it before the first Tello(): DJITelloPy has already bound its ports")
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("", 0))
    djitellopy_tello.client_socket = sock
    for receiver in (Tello.udp_response_receiver, Tello.udp_state_receiver):
        threading.Thread(target=receiver, daemon=True).start()
    djitellopy_tello.threads_initialized = True
    Tello.CONTROL_UDP_PORT = port  # the address Tello() sends to: (host, CONTROL_UDP_PORT)
    init = inspect.unwrap(Tello.__init__)  # DJITelloPy wraps its methods to check their types
    defaults = list(init.__defaults__)
    defaults[0] = host  # Tello(host=…): Donify's by default
    init.__defaults__ = tuple(defaults)
