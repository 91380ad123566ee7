"""`donify tello` in the game window: the server answers from the window's frame loop (drawn
headless through EGL here), on the game's own thread."""

from __future__ import annotations

import socket
import time

from game.settings import Settings
from game.tello.server import addresses
from game.tello.window import attach
from game.window import Game
from tests.tello.conftest import free_port


def test_the_window_loop_answers_and_flies():
    settings = Settings()
    settings.input.backend = "none"
    game = Game("street", settings=settings, width=320, height=240, visible=False, audio=False)
    server = None
    client = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    client.bind(("127.0.0.1", 0))
    client.setblocking(False)
    try:
        server, serve = attach(game, addresses("127.0.0.1", free_port(), 1), video=False)
        address = server.endpoints[0].address
        replies = []

        def frames(seconds: float, until=None) -> None:
            """The window's loop for `seconds` of wall time: a frame, then the server's turn."""
            end = last = time.monotonic()
            end += seconds
            while time.monotonic() < end and not (until and until()):
                time.sleep(1 / 120)
                now = time.monotonic()
                game.frame(now - last)
                serve(now - last)
                last = now
                try:
                    replies.append(client.recv(2048).decode())
                except BlockingIOError:
                    pass

        client.sendto(b"command", address)
        client.sendto(f"port {client.getsockname()[1]} 11111".encode(), address)
        frames(0.5)
        assert replies[:2] == ["ok", "ok"]
        replies.clear()
        client.sendto(b"takeoff", address)
        frames(10.0, until=lambda: "ok" in replies)
        assert "ok" in replies  # answered once the take-off assist handed over
        assert game.sim.telemetry().mode == "sdk"
        assert game.sim.telemetry().position[2] > 1.0
    finally:
        client.close()
        if server is not None:
            server.close()
        game.close()
