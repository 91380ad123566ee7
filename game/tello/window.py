"""`donify tello` in the game window: the SDK endpoints answered from the window's frame loop.

The window's own loop steps the game (game/window.py `Game`); the SDK server reads its
datagrams and sends its replies, state and video from a function scheduled on the same pyglet
clock, so everything stays on the main thread. The window shows the flight as in `donify play`
(the pad still flies the player's drone when the SDK leaves it in Manual; `F` follows the next
drone). Closing the window stops the server.
"""

from __future__ import annotations

import pyglet

from game.tello.server import TelloServer
from game.window import Game


def attach(game: Game, endpoints, *, video: bool = True, out=None):
    """The SDK server of `game`'s drones and the per-frame function that serves it (schedule it
    on the pyglet clock: `pyglet.clock.schedule(serve)`)."""
    server = TelloServer(game.sim, endpoints, video=video, window=game.window, out=out)

    def serve(dt: float) -> None:
        server.receive()
        server.after_step(dt)

    return server, serve


def run_window(level: str | None, endpoints, *, video: bool = True, plugins=(), strict_mods: bool = False,
               out=None) -> int:
    game = Game(level or "street", plugins=plugins, strict_mods=strict_mods, title=False, user_data=False)
    try:
        server, serve = attach(game, endpoints, video=video, out=out)
    except OSError as exc:
        game.close()
        raise ValueError(exc.strerror or str(exc)) from None
    for line in server.describe():
        print(line, file=out)
    print("donify tello: the game window flies the drones; closing it stops the server", file=out, flush=True)
    pyglet.clock.schedule(serve)
    try:
        if not game.warm_up():
            return 0
        return game.run()
    finally:
        pyglet.clock.unschedule(serve)
        server.close()
