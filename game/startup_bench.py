"""`donify bench`: start-up times, from process start to the first frame drawn.

Each start is a fresh Python process (`python -m game.startup_bench --child`) doing what
`donify play` does, headless through EGL when there is no display: import the game, open
the 1280×720 window (hidden), build the Simulation and renderer, load or compile the flight
code (`Game.warm_up`, with the loading screen while it compiles), draw the first frame and
read it back (so it was really drawn). The parent measures from just before starting the
process to the child's report line.

- warm: the user's compiled-code cache as it is (filled by one start before the runs);
  target ≤ 2 s;
- cold: an empty temporary compiled-code cache (DONIFY_JIT_CACHE), so everything compiles —
  one run: it takes ~10–15 s on two cores.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

WARM_TARGET_S = 2.0
READY = "donify-first-frame"


def _child() -> None:
    from game.render_bench import _ensure_headless_if_no_display  # noqa: PLC0415 (before pyglet)

    _ensure_headless_if_no_display()
    from game.settings import Settings  # noqa: PLC0415
    from game.window import Game  # noqa: PLC0415

    settings = Settings()
    settings.input.backend = "none"
    game = Game("street", settings=settings, width=1280, height=720, visible=False, audio=False)
    game.warm_up()
    game.frame(1.0 / 60.0)
    game.pixels()
    print(READY, flush=True)
    game.close()


def time_to_first_frame(jit_cache: str | None = None) -> float:
    """Seconds from starting a fresh process to its first frame drawn."""
    env = dict(os.environ)
    if jit_cache is not None:
        env["DONIFY_JIT_CACHE"] = jit_cache
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "game.startup_bench", "--child"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert child.stdout is not None
    elapsed = None
    for line in child.stdout:
        if line.strip() == READY:
            elapsed = time.perf_counter() - start
    if child.wait() != 0 or elapsed is None:
        raise RuntimeError(f"the start-up child failed (exit code {child.returncode})")
    return elapsed


def run_startup_bench(runs: int = 5, out=print) -> dict:
    time_to_first_frame()  # fills the user's cache if it was cold: the warm runs are warm
    warm = statistics.median(time_to_first_frame() for _ in range(runs))
    with tempfile.TemporaryDirectory(prefix="donify-cold-") as empty:
        cold = time_to_first_frame(empty)
    verdict = "met" if warm <= WARM_TARGET_S else "NOT met"
    out("  start-up: process start → first frame drawn, street level 1280x720, headless")
    out(f"    warm start           {warm:6.2f} s   median of {runs} (target ≤ {WARM_TARGET_S:g} s: {verdict})")
    out(f"    cold start           {cold:6.2f} s   empty compiled-code cache, 1 run (the loading screen shows)")
    return {"warm_s": warm, "cold_s": cold}


if __name__ == "__main__":
    if "--child" in sys.argv:
        _child()
    else:
        run_startup_bench(runs=3)
