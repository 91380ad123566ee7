"""Start-up: compiling the flight code before the first frame, with a measure of progress.

The per-tick flight code is compiled by numba on its first call and cached on disk
(flight/jit.py): a warm start loads machine code in a fraction of a second, a cold start
(first run, or the flight code changed) compiles it, ~10 s on a two-core machine. The window
calls `warm_up` on a worker thread while it draws the loading screen (game/render/loading.py)
from `compile_progress`; `warm_up` flies a throwaway Simulation of the empty world in each
flight mode for a few frames, which calls every compiled function the game's first frames
call, so the first frame drawn never waits for the compiler.

Not pure: it builds a Simulation (its own esper world; the window's App activates its own
again on its next update).
"""

from __future__ import annotations

from flight.jit import DISPATCHERS
from game.simulation import Simulation
from world.collision import warm_up_contacts

WARM_UP_MODES = ("manual", "angle", "acro")
WARM_UP_FRAMES = 6  # frames of 1/60 s in each mode


def compile_progress() -> tuple[int, int]:
    """(compiled, total) of the flight code's compiled functions; (0, 0) without numba."""
    total = len(DISPATCHERS)
    done = sum(1 for dispatcher in DISPATCHERS if dispatcher.signatures)
    return done, total


def needs_compiling() -> bool:
    """Whether a compiled function has no machine code loaded yet (before `warm_up`, always
    true: numba loads even a cached function on its first call)."""
    done, total = compile_progress()
    return done < total


def warm_up() -> None:
    """Call the flight code once in each flight mode (compiling what the cache lacks), and the
    contacts (the empty world has none to resolve)."""
    warm_up_contacts()
    with Simulation(level=None, position=(0.0, 0.0, 10.0)) as sim:
        sim.pad.rt = 1.0
        for mode in WARM_UP_MODES:
            sim.set_mode(mode)
            sim.run(WARM_UP_FRAMES / 60.0)
