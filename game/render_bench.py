"""`donify bench --render`: frame times of the game window, drawn headless through EGL.

The scene: the street level at 1280×720 with the drone cruising along the street, its trail
and the HUD, driven through the real game loop (`Game.step` — input, simulation, RENDER-stage
preparation — then `Renderer.draw` and a buffer flip), 1/120 s of game time per frame. Sound
is left out (it is not drawing). Beside it, in the same run and the same context, an empty
frame (clear + flip). Reported, as medians over the runs:

- frame time: frames back to back, as the game loop runs them (no `glFinish` between
  frames, so the software renderer — Mesa's llvmpipe — rasterises one frame while Python
  prepares the next; one `glFinish` closes each run and is counted). Target ≤ 8.3 ms
  (120 fps).
- frame latency: the same frames with a `glFinish` after each, so nothing overlaps; and the
  empty frame measured that way (back to back, llvmpipe folds empty frames into nothing).
- the Python side of a frame: the simulation step with the RENDER stage, and issuing the draw
  calls (this includes the driver's own work on the calling thread: vertex shading and
  binning, for llvmpipe).

`donify bench --render --drones 1,10,50` (or `python -m game.render_bench 1 10 50`): the
same frame with that many drones in the street — its own traffic left out, the player's and
the others in rows of seven across the road ahead, every one flown as the player's — one line
per count (`run_fleet_render_bench`).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from components.pilot import Pad
from game.display import has_display
from game.settings import MSAA_AUTO_SAMPLES, Settings  # imports no pyglet: PYGLET_HEADLESS can still be chosen
from systems.scene import drone_components, spawn_drone
from world.level_file import load_level

TARGET_MS = 8.3
FRAME_S = 1.0 / 120.0
WIDTH, HEIGHT = 1280, 720


def _ensure_headless_if_no_display() -> None:
    if "pyglet" in sys.modules:
        return
    if not os.environ.get("PYGLET_HEADLESS") and not has_display():
        os.environ["PYGLET_HEADLESS"] = "1"


def _fly_into_the_street(game, pads=None) -> None:
    """Arm, climb and cruise so the frame has a moving drone and a trail; `pads` (default the
    player's alone): every drone given, flown the same way."""
    pads = [game.sim.pad] if pads is None else pads
    for pad in pads:
        pad.rt = 1.0
    for _ in range(60):
        game.step(1 / 60)
    for pad in pads:
        pad.rt = 0.0
        pad.press("Y")
    for _ in range(60):
        game.step(1 / 60)
    for pad in pads:
        pad.release("Y")
        pad.left = (0.0, 1.0)
    game.step(1 / 60)
    for pad in pads:
        pad.left = (0.0, 0.0)
    for _ in range(240):
        game.step(1 / 60)


def fleet_positions(count: int, ground_z: float) -> list[tuple[float, float, float]]:
    """Where the bench's other drones rest: rows of seven across the road, 1 m apart, from 2 m
    ahead of the start pad (east, the way the player flies), so the chase camera has them all
    ahead of it."""
    return [(2.0 + 1.0 * (i // 7), -3.0 + 1.0 * (i % 7), ground_z) for i in range(count)]


def _street_with(drones: int, settings, width: int, height: int):
    """The game in the street with `drones` drones in all: the level's traffic left out, the
    player's and `drones` − 1 more on `fleet_positions`, every one flown as the player's."""
    from game.window import Game  # noqa: PLC0415 (as in `measure`: pyglet after the headless choice)

    level = load_level("street").model_copy(update={"traffic": []})
    game = Game(level, settings=settings, width=width, height=height, visible=False, audio=False)
    config = game.sim.config
    z = 0.5 * game.sim.vehicle.envelope_size_m[2]
    others = [spawn_drone(game.app, config, p, 0.0) for p in fleet_positions(drones - 1, z)]
    return game, [game.sim.pad, *(drone_components(game.app, Pad, entity=e)[0] for e in others)]


def measure(frames: int = 120, runs: int = 5, width: int = WIDTH, height: int = HEIGHT, msaa: int | None = None,
            drones: int | None = None) -> dict:
    """Median figures in milliseconds (see the module docstring); `msaa`: display.msaa (None:
    the default setting); `drones`: that many drones in the street, all flying (None: the
    street as shipped, with its traffic)."""
    _ensure_headless_if_no_display()
    # pyglet reads PYGLET_HEADLESS when first imported: only now may it be
    from game.window import Game  # noqa: PLC0415 (first: it sets the renderer's options before GL loads)
    from pyglet import gl  # noqa: PLC0415

    settings = Settings()
    settings.display.vsync = False
    settings.input.backend = "none"
    if msaa is not None:
        settings.set("display.msaa", msaa)
    if drones is None:
        game, pads = Game("street", settings=settings, width=width, height=height, visible=False, audio=False), None
    else:
        game, pads = _street_with(drones, settings, width, height)
    figures: dict[str, list[float]] = {"scene": [], "empty": [], "latency": [], "sim": [], "draw": []}
    try:
        _fly_into_the_street(game, pads)
        window = game.window

        def empty_frame() -> None:
            window.switch_to()
            gl.glViewport(0, 0, width, height)
            gl.glClearColor(0.5, 0.6, 0.7, 1.0)
            gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
            window.flip()

        for _ in range(runs):
            start = time.perf_counter()
            for _ in range(frames):
                game.step(FRAME_S)
                game.draw()
                window.flip()
            gl.glFinish()
            figures["scene"].append((time.perf_counter() - start) / frames * 1e3)
            empty = []
            for _ in range(frames):
                t0 = time.perf_counter()
                empty_frame()
                gl.glFinish()  # back to back, llvmpipe folds empty frames into nothing
                empty.append(time.perf_counter() - t0)
            figures["empty"].append(statistics.median(empty) * 1e3)
            latency, sim, draw = [], [], []
            for _ in range(frames):
                t0 = time.perf_counter()
                game.step(FRAME_S)
                t1 = time.perf_counter()
                game.draw()
                t2 = time.perf_counter()
                window.flip()
                gl.glFinish()
                latency.append(time.perf_counter() - t0)
                sim.append(t1 - t0)
                draw.append(t2 - t1)
            figures["latency"].append(statistics.median(latency) * 1e3)
            figures["sim"].append(statistics.median(sim) * 1e3)
            figures["draw"].append(statistics.median(draw) * 1e3)
        renderer_info = gl.gl_info.get_renderer()
        samples = game.window.config.samples or 0
    finally:
        game.close()
    out = {f"{k}_ms": statistics.median(v) for k, v in figures.items()}
    out.update(renderer=renderer_info, samples=samples, frames=frames, runs=runs, threads=os.environ.get("LP_NUM_THREADS", ""))
    return out


def run_render_bench(runs: int = 5, out=print, frames: int = 120) -> dict:
    f = measure(frames=frames, runs=runs)
    _report(f, runs, frames, out)
    # display.msaa "auto" chose by the GL: the other choice beside it, for the record
    other = measure(frames=frames, runs=runs, msaa=0 if f["samples"] else MSAA_AUTO_SAMPLES)
    out(f"    with display.msaa = {other['samples']}: frame time {other['scene_ms']:6.2f} ms, latency"
        f" {other['latency_ms']:6.2f} ms (the default, \"auto\", gave {f['samples']} samples: {f['scene_ms']:.2f} ms)")
    return f


def run_fleet_render_bench(counts=(1, 10, 50), runs: int = 3, out=print, frames: int = 120) -> list[dict]:
    """`donify bench --render --drones 1,10,50`: the window's frame with that many drones in the
    street (its traffic left out), every one flying and in front of the chase camera."""
    results = []
    out(f"  render, many drones: street level without its traffic, {WIDTH}x{HEIGHT}, headless EGL; the drones in rows"
        f" of 7 across the road ahead, all flown as the player's; median of {runs} runs x {frames} frames of 1/120 s")
    out("    drones   frame time   latency   Python: simulation + RENDER stage, draw calls")
    for count in counts:
        f = measure(frames=frames, runs=runs, drones=count)
        f["drones"] = count
        results.append(f)
        out(f"    {count:6d}   {f['scene_ms']:7.2f} ms  {f['latency_ms']:6.2f} ms   {f['sim_ms']:6.2f} ms"
            f" + {f['draw_ms']:5.2f} ms   ({f['renderer']}, {f['samples']}x MSAA)")
    return results


def _report(f: dict, runs: int, frames: int, out) -> None:
    scene = f["scene_ms"]
    verdict = "met" if scene <= TARGET_MS else "NOT met"
    out(f"  render: street level, drone + trail + HUD, {WIDTH}x{HEIGHT}, headless EGL on {f['renderer']}"
        f" ({f['threads'] or 'default'} raster threads, {f['samples']}x MSAA); median of {runs} runs x {frames}"
        " frames of 1/120 s")
    out(f"    frame time           {scene:6.2f} ms  ({1000.0 / scene:4.0f} fps)  back to back, as the game loop runs"
        f"  (target ≤ {TARGET_MS:g} ms: {verdict})")
    out(f"    frame latency        {f['latency_ms']:6.2f} ms  (glFinish after every frame: nothing overlaps)")
    out(f"    empty frame          {f['empty_ms']:6.2f} ms  (clear + flip + glFinish, same context)")
    out(f"    Python side          {f['sim_ms'] + f['draw_ms']:6.2f} ms  = simulation + RENDER stage {f['sim_ms']:.2f} ms"
        f" + issuing draw calls (with the driver's vertex work) {f['draw_ms']:.2f} ms")


if __name__ == "__main__":
    if len(sys.argv) > 1:  # python -m game.render_bench 1 10 50: many drones
        run_fleet_render_bench([int(n) for n in sys.argv[1:]])
    else:
        run_render_bench(runs=3)
