"""The loading screen: drawn in the game window while the flight code compiles (cold start).

`run_with_loading_screen(window, work, progress)` runs `work` on a worker thread and, if it
is still running after `SHOW_AFTER_S` (a warm start is done before: no flash), draws every
`FRAME_S` a dark screen with the title, what is happening, a progress bar filled by
`progress()` → (done, total) and the seconds elapsed, dispatching the window's events so it
stays responsive. Drawn with pyglet's own shapes and labels (no game renderer: it may not be
ready, and nothing here touches the App).
"""

from __future__ import annotations

import threading
import time
from typing import Callable

import pyglet
from pyglet import gl

SHOW_AFTER_S = 0.3
FRAME_S = 0.1
BACKGROUND = (0.09, 0.11, 0.14)
BAR_COLOUR = (255, 200, 60, 255)
BAR_BACK = (60, 66, 76, 255)
TEXT_COLOUR = (230, 234, 240, 255)

WORDS = {
    "en": ("Donify", "Compiling the flight code — first start only", "functions", "s"),
    "fr": ("Donify", "Compilation du code de vol — au premier lancement seulement", "fonctions", "s"),
}


class LoadingScreen:
    """The screen's shapes and labels, laid out for the window's size."""

    def __init__(self, window, language: str = "en") -> None:
        self.window = window
        self.words = WORDS.get(language, WORDS["en"])
        self.batch = pyglet.graphics.Batch()
        self.title = pyglet.text.Label(self.words[0], font_name="DejaVu Sans", font_size=32, weight="bold",
                                       anchor_x="center", anchor_y="center", color=TEXT_COLOUR, batch=self.batch)
        self.line = pyglet.text.Label(self.words[1], font_name="DejaVu Sans", font_size=14,
                                      anchor_x="center", anchor_y="center", color=TEXT_COLOUR, batch=self.batch)
        self.count = pyglet.text.Label("", font_name="DejaVu Sans Mono", font_size=12,
                                       anchor_x="center", anchor_y="center", color=TEXT_COLOUR, batch=self.batch)
        self.bar_back = pyglet.shapes.Rectangle(0, 0, 1, 1, color=BAR_BACK, batch=self.batch)
        self.bar = pyglet.shapes.Rectangle(0, 0, 1, 1, color=BAR_COLOUR, batch=self.batch)
        self.fraction = 0.0

    def bar_box(self) -> tuple[int, int, int, int]:
        """(x, y, width, height) of the whole bar, window pixels from the bottom left."""
        w, h = self.window.width, self.window.height
        width = int(w * 0.5)
        return (w - width) // 2, int(h * 0.4), width, max(6, h // 40)

    def update(self, done: int, total: int, elapsed_s: float) -> None:
        w, h = self.window.width, self.window.height
        self.fraction = done / total if total else 1.0
        x, y, width, height = self.bar_box()
        self.title.position = (w / 2, h * 0.62, 0)
        self.line.position = (w / 2, h * 0.5, 0)
        self.count.position = (w / 2, y - 2.5 * height, 0)
        self.count.text = f"{done}/{total} {self.words[2]} · {elapsed_s:.0f} {self.words[3]}"
        self.bar_back.x, self.bar_back.y, self.bar_back.width, self.bar_back.height = x, y, width, height
        self.bar.x, self.bar.y, self.bar.height = x, y, height
        self.bar.width = max(1, int(width * min(1.0, self.fraction)))

    def draw(self) -> None:
        window = self.window
        window.switch_to()
        fb_w, fb_h = window.get_framebuffer_size()
        gl.glViewport(0, 0, fb_w, fb_h)
        window.projection = pyglet.math.Mat4.orthogonal_projection(0, window.width, 0, window.height, -255, 255)
        gl.glClearColor(*BACKGROUND, 1.0)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
        gl.glDisable(gl.GL_DEPTH_TEST)
        gl.glDisable(gl.GL_CULL_FACE)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        self.batch.draw()
        gl.glBindVertexArray(0)

    def delete(self) -> None:
        for item in (self.title, self.line, self.count, self.bar_back, self.bar):
            item.delete()


def run_with_loading_screen(window, work: Callable[[], None], progress: Callable[[], tuple[int, int]],
                            language: str = "en", flip: bool = True) -> bool:
    """Run `work` on a worker thread, drawing the loading screen while it runs (see the module
    docstring); its exception, if any, is raised here. Returns whether the screen was shown."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # noqa: BLE001 (raised again on the window's thread)
            failure.append(exc)

    start = time.perf_counter()
    worker = threading.Thread(target=run, name="donify-warm-up", daemon=True)
    worker.start()
    worker.join(SHOW_AFTER_S)
    screen = None
    try:
        while worker.is_alive():
            if screen is None:
                screen = LoadingScreen(window, language)
            screen.update(*progress(), time.perf_counter() - start)
            screen.draw()
            if flip:
                window.flip()
            window.dispatch_events()
            worker.join(FRAME_S)
    finally:
        if screen is not None:
            screen.delete()
    if failure:
        raise failure[0]
    return screen is not None
