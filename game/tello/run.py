"""`donify tello`: the game with an SDK endpoint per drone, in the window where there is a
display, headless otherwise (game/tello/server.py says what the endpoints do)."""

from __future__ import annotations

from game.tello.server import TelloServer, addresses


def run_tello(level: str | None, host: str, port: int, drones: int, headless: bool, video: bool,
              plugins=(), strict_mods: bool = False, out=None) -> int:
    """`donify tello`: the game with an SDK endpoint per drone until Ctrl-C."""
    from game.simulation import Simulation  # noqa: PLC0415 (the flight code loads only when asked)

    if not 1 <= drones <= 16:
        raise ValueError(f"tello: --drones: expected 1 to 16, got {drones}")
    endpoints = addresses(host, port, drones)
    if not headless:
        from game.display import display_problem  # noqa: PLC0415

        problem = display_problem()
        if problem is not None:
            print(f"donify tello: {problem}: running headless (no window)", file=out)
            headless = True
    if not headless:
        from game.display import is_display_error  # noqa: PLC0415

        try:
            from game.tello.window import run_window  # noqa: PLC0415 (pyglet only with a window)

            return run_window(level, endpoints, video=video, plugins=plugins, strict_mods=strict_mods, out=out)
        except ImportError:
            print("donify tello: the game window is not available in this build: running headless", file=out)
        except Exception as exc:  # pyglet opens the display on import or with the window
            if not is_display_error(exc):
                raise
            print(f"donify tello: cannot open the display ({exc}): running headless", file=out)
    sim = Simulation(level, plugins=plugins, strict_mods=strict_mods)
    try:
        server = TelloServer(sim, endpoints, video=video, out=out)
    except OSError as exc:
        sim.close()
        raise ValueError(exc.strerror or str(exc)) from None
    for line in server.describe():
        print(line, file=out)
    print("donify tello: running headless at wall-clock speed; Ctrl-C stops", file=out, flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        sim.close()
    return 0
