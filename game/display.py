"""Whether a window can open here, decided before pyglet's window module is imported.

pyglet opens its display the moment `pyglet.window` is imported (it makes a hidden "shadow"
window to own the GL context), so a display that is named but unusable fails at import time
with a long `NoSuchDisplayException` traceback, before the game has a chance to fall back.
That happens more often than "no display at all":

- `DISPLAY` names an X server that is not there: a stale `ssh -X` session, WSL without an X
  server, a container that inherited the variable;
- only `WAYLAND_DISPLAY` is set: pyglet 2.1 draws on Linux through X11 only (Xlib and GLX, or
  headless EGL), so a Wayland session without XWayland has nothing it can open.

`display_problem()` answers the question without pyglet and without a subprocess: with
`DISPLAY` set it opens and closes a connection to that X server through libX11 (the library
pyglet would use), on a helper thread so a server that never answers (a dead ssh tunnel)
costs a bounded wait instead of a hang. It returns None when a window can open, else a short
reason for a one-line message. `use_headless()` then makes pyglet draw through EGL with no
window system, as the tests do, so `donify screenshot` and `bench --render` still work.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading

NO_DISPLAY = "no display found"
X_TIMEOUT_S = 3.0  # an X server answers in milliseconds; a dead tunnel may never answer
_LIBX11 = ("libX11.so.6", "libX11.so")  # the names pyglet loads too


def has_display() -> bool:
    """A game window can open here."""
    return display_problem() is None


def display_problem(environ=None) -> str | None:
    """None when a game window can open; else why not, in a few words.

    `environ`: the environment to judge (default `os.environ`). PYGLET_HEADLESS set counts as
    no display: it asks pyglet for EGL without a window system.
    """
    env = os.environ if environ is None else environ
    if env.get("PYGLET_HEADLESS"):
        return NO_DISPLAY
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return None  # Windows and macOS always have their window system
    display = env.get("DISPLAY")
    if display:
        return _x_problem(display)
    if env.get("WAYLAND_DISPLAY"):
        return "a Wayland display only (no DISPLAY, which the window needs: X11 or XWayland)"
    return NO_DISPLAY


def has_display(environ=None) -> bool:
    return display_problem(environ) is None


def use_headless() -> None:
    """Make pyglet draw through EGL with no window system (before `pyglet.window` is imported).

    pyglet reads PYGLET_HEADLESS when it is first imported; if it already was (its base
    module is harmless: only `pyglet.window` opens the display), its option is set as well.
    """
    os.environ["PYGLET_HEADLESS"] = "1"
    pyglet = sys.modules.get("pyglet")
    if pyglet is not None:
        pyglet.options.headless = True


def _x_problem(display: str) -> str | None:
    lib = _load_libx11()
    if lib is None:
        return f"DISPLAY is {display!r} but the X11 library (libX11) is not installed"
    answer: list[bool] = []

    def connect() -> None:
        # ctypes releases the GIL during the call, so the caller's timed join really waits
        handle = lib.XOpenDisplay(display.encode())
        if handle:
            lib.XCloseDisplay(handle)
        answer.append(bool(handle))

    thread = threading.Thread(target=connect, name="donify-x-probe", daemon=True)
    thread.start()
    thread.join(X_TIMEOUT_S)
    if not answer:
        return f"the X display {display!r} does not answer"
    return None if answer[0] else f"cannot connect to the X display {display!r}"


def _load_libx11():
    for name in _LIBX11:
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        lib.XOpenDisplay.restype = ctypes.c_void_p
        lib.XCloseDisplay.argtypes = [ctypes.c_void_p]
        lib.XCloseDisplay.restype = ctypes.c_int
        return lib
    return None


def is_display_error(exc: BaseException) -> bool:
    """An exception pyglet raises when the display cannot be opened (its class is defined per
    platform, so it is recognised by name rather than imported)."""
    return type(exc).__name__ == "NoSuchDisplayException"
