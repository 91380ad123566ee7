"""The title screen in the window: what the game loop does while it is open, what choosing a
row does, and "Back to title" from the pause panel.

While the title screen is open the simulation does not step: the level behind it stays still,
shaded; the Pad's presses go to the title screen (keyboard, gamepad) and so does the mouse
(pointing chooses a row, a click selects it). Choosing a level flies it: when it is not the
level already loaded it is loaded in place (new geometry, spawn pad, weather presets; the
window's file watcher follows it), then the flight restarts from its spawn pad.
"""

from __future__ import annotations

import logging

import pyglet

from components import events
from engine.datafile import DataFileError
from game.render.passes.title import TitlePass
from game.render.title import TitleView
from game.title import TitleScreen
from world.level import ActiveLevel
from world.level_file import level_path

log = logging.getLogger("donify.title")


class TitleFlow:
    """Args:
        game: the window's `Game` (its sim, renderer, pause panel, settings).
        open_at_start: show the title screen now (`donify`, `donify play` without --level).
    """

    def __init__(self, game, open_at_start: bool) -> None:
        self.game = game
        self.screen = TitleScreen(game.settings, self.start, self.apply)
        renderer = game.renderer
        self.view = TitleView(renderer._font, self.screen)
        renderer.passes = (*renderer.passes, TitlePass(self.view))  # over everything
        self.view.layout(renderer.width, renderer.height, renderer.language)
        for line in self.screen.problems:
            log.warning("%s", line)
        game.window.push_handlers(on_resize=self.on_resize, on_mouse_motion=self.on_mouse_motion,
                                  on_mouse_press=self.on_mouse_press)
        if open_at_start:
            self.show()

    def show(self) -> None:
        """Open the title screen; the HUD hides behind it."""
        self.screen.show()
        self.game.renderer.frame.show_hud = False

    @property
    def open(self) -> bool:
        return self.screen.open

    def step(self, presses: list[str]) -> bool:
        """One frame while the title screen may be open: True when it took the frame (the
        simulation does not step)."""
        if not self.screen.open:
            return False
        self.game.sim.pad.presses.clear()
        self.screen.read_pad(self.game.sim.pad, presses)
        return True

    # -- what the rows do ------------------------------------------------------------------
    def start(self, name: str, course_id: str = "") -> None:
        """Fly the shipped level `name` (loaded in place if another one is flying), from its
        spawn pad; with `course_id`, start that course (its start pad, the countdown)."""
        game = self.game
        active = game.app.resource(ActiveLevel).level
        if active is None or not active.source or level_path(name).resolve() != level_path(active.source).resolve():
            try:
                game.sim.apply_level(name)
            except (DataFileError, OSError) as exc:
                game.renderer.hud.message(str(exc).splitlines()[0])
                self.show()
                return
            game.app.emit(events.LevelReloaded(()))  # the weather presets and the menu follow the level
            game.renderer.hud.messages.clear()  # … without "Level reloaded": it was chosen
            if game.level_watcher is not None:
                game.level_watcher.close()
            game.level_watcher = game._watch_level()
        game.renderer.frame.show_hud = True
        game.sim.reset()
        if course_id:
            game.courses.start(course_id)  # now, or after the first tick of a level just loaded
        game.renderer.player_hud.reset()
        game.sim.pad.neutral()
        game.devices.keyboard.release_all()
        if game.audio is not None:
            game.audio.resume()

    def apply(self, key: str) -> None:
        """A setting changed on the title screen, or Quit."""
        self.game.pause.changed = self.game.pause.changed or key != "quit"  # saved on quitting
        self.game._apply_setting(key)
        if key == "language":
            self.view.layout(self.game.renderer.width, self.game.renderer.height, self.game.settings.language)

    def back_to_title(self) -> None:
        """The pause panel's "Back to title": the flight stops, the title screen opens."""
        game = self.game
        if game.pause.open:
            game.pause.open = False
        if game.audio is not None:
            game.audio.suspend()
        self.view.layout(game.renderer.width, game.renderer.height, game.settings.language)
        self.show()

    # -- window events ---------------------------------------------------------------------
    def on_resize(self, width: int, height: int):
        self.view.layout(width, height, self.game.settings.language)
        return None  # the game resizes too

    def on_mouse_motion(self, x, y, dx, dy):
        if self.screen.open:
            row = self.view.hit(x, y)
            if row is not None:
                self.screen.select(row)
        return None

    def on_mouse_press(self, x, y, button, modifiers):
        if self.screen.open and button == pyglet.window.mouse.LEFT:
            row = self.view.hit(x, y)
            if row is not None:
                self.screen.select(row)
                self.screen.activate()
                return pyglet.event.EVENT_HANDLED
        return None
