"""The SDK server fed fuzzed datagrams (random bytes, huge, unicode, near-commands) straight
into its handler, with the game stepping in between.

A module of its own: it steps a Simulation of its own on this thread, and esper's worlds are
not to be switched from two threads at once — in test_server_rules.py a module-wide server
steps its game in a background thread for the whole module."""

from __future__ import annotations

import socket

from hypothesis import given, settings
from hypothesis import strategies as st

from game.simulation import Simulation
from game.tello.server import TelloServer, addresses
from tests.tello.conftest import free_port


def test_fuzzed_datagrams_never_break_the_server():
    """Random bytes, huge datagrams, unicode and near-commands straight into the server, with the
    game stepping in between: never an exception, never a reply to rc, at most one reply each."""
    words = st.sampled_from(["rc", "takeoff", "land", "up", "cw", "go", "curve", "flip", "f", "speed", "stop",
                             "emergency", "command", "battery?", "port", "mon", "m1", "20", "-100", "500", "1e3",
                             "é", "🚁", "\x00", "  "])
    datagrams = st.one_of(st.binary(max_size=2500), st.text(max_size=200).map(str.encode),
                          st.lists(words, max_size=9).map(lambda w: " ".join(w).encode()))
    listener = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    listener.bind(("127.0.0.1", 0))
    listener.setblocking(False)
    with Simulation("street") as sim:
        server = TelloServer(sim, addresses("127.0.0.1", free_port(), 1), video=False)
        endpoint = server.endpoints[0]
        sender = listener.getsockname()

        def drain() -> list[bytes]:
            out = []
            while True:
                try:
                    out.append(listener.recv(4096))
                except BlockingIOError:
                    return out

        @settings(max_examples=150, deadline=None)
        @given(datagrams)
        def fly(data):
            endpoint.state_port = sender[1] + 1  # the state goes elsewhere: only replies come here
            server.handle(endpoint, data, sender)
            direct = drain()  # what this datagram itself was answered
            if data.split()[:1] == [b"rc"]:
                assert direct == []
            assert len(direct) <= 1
            sim.step()
            server.after_step(1 / 60)
            assert len(drain()) <= 1  # at most the reply of a command that finished

        try:
            fly()
        finally:
            server.close()
            listener.close()
