"""Start-up: compiling the flight code before the first frame, with a measure of progress.

The per-tick flight code is compiled by numba on its first call and cached on disk
(flight/jit.py): a warm start loads machine code in a fraction of a second, a cold start
(first run, or the flight code changed) compiles it. The window calls `warm_up` on a worker
thread while it draws the loading screen (game/render/loading.py) from `compile_progress`;
`warm_up` flies a throwaway Simulation of the empty world in each flight mode for a few
frames, then one resting on a level's pad, which calls every compiled function the game's
first frames call, so the first frame
drawn never waits for the compiler. The contacts (world/collision.py), about as long to compile
as the flight code, are compiled meanwhile by a second process into the same cache, so a
cold start on two cores takes the longer of the two rather than their sum.

Not pure: it builds a Simulation (its own esper world; the window's App activates its own
again on its next update).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from flight.jit import DISPATCHERS
from game.simulation import Simulation
from world.collision import resolve_drone_contacts, resolve_level_contacts, warm_up_contacts

WARM_UP_MODES = ("manual", "angle", "acro")
WARM_UP_FRAMES = 6  # frames of 1/60 s in each mode
WARM_UP_LEVEL = "first-flight"  # the smallest shipped level


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
    contacts (the empty world has none to resolve). When the contacts need compiling, a second
    process compiles them at the same time; this one then loads them from the cache."""
    helper = None if _contacts_cached() else _compile_contacts_aside()
    with Simulation(level=None, position=(0.0, 0.0, 10.0)) as sim:
        sim.pad.rt = 1.0
        for mode in WARM_UP_MODES:
            sim.set_mode(mode)
            sim.run(WARM_UP_FRAMES / 60.0)
    if helper is not None:
        try:
            helper.wait(timeout=300)
        except subprocess.TimeoutExpired:
            helper.kill()
            helper.wait()
    warm_up_contacts()  # from the cache the helper filled (or compiled here, if it could not)
    with Simulation(level=WARM_UP_LEVEL) as sim:  # on its pad, ground and solids around: the whole
        sim.run(WARM_UP_FRAMES / 60.0)            # ticks with contacts (world/ticks.py), after the contacts


def _contacts_cached() -> bool:
    """Whether the contacts' machine code is in the on-disk cache already (numba's index files;
    if numba ever names them otherwise, they are compiled aside as on a first start)."""
    try:
        return all(Path(kernel._cache._cache_file._index_path).is_file()
                   for kernel in (resolve_level_contacts, resolve_drone_contacts))
    except AttributeError:
        return False


def _compile_contacts_aside() -> subprocess.Popen | None:
    """A process compiling the contacts into the shared on-disk cache, or None (no compiler,
    or it could not start: this process compiles them itself)."""
    if os.environ.get("DONIFY_NO_JIT"):
        return None
    root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH")))))
    try:
        return subprocess.Popen([sys.executable, "-c", "from world.collision import warm_up_contacts; warm_up_contacts()"],
                                env=env, cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    except OSError:
        return None
