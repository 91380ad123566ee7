"""The pause panel (Esc / START): resume, and the settings a player changes while playing —
camera, HUD (player or engineering), volume, language of the HUD, v-sync, frame-rate cap,
fullscreen, the controls — back to the title screen, and quit. Pure state: the window reads the
Pad for it and applies what it changes.

Navigation reads the Pad, so every device works the same way: left stick (or the arrow keys)
up/down chooses, left/right changes a value, A (Enter) selects, B or START (Esc) resumes. The
stick must come back near neutral between two steps, as in the flight menu.
"""

from __future__ import annotations

from typing import Callable

from components.pilot import Pad
from systems.menu import StickSteps

ENTRIES = ("resume", "camera", "hud", "volume", "language", "vsync", "fps_cap", "fullscreen", "controls",
           "back_to_title", "quit")
CAMERA_VIEWS = ("chase", "fpv", "top")
FPS_CAPS = (0, 30, 60, 120, 144, 240)
VOLUME_STEP = 0.1


class PausePanel:
    """Args:
        settings: the player's `game.settings.Settings` (changed in place).
        apply: called with the dotted key of each setting changed ("display.vsync"…), or
            "quit" / "resume" for those entries.
    """

    def __init__(self, settings, apply: Callable[[str], None]) -> None:
        self.settings = settings
        self.apply = apply
        self.open = False
        self.index = 0
        self.show_controls = False
        self.changed = False
        self.steps = StickSteps()

    # -- opening ---------------------------------------------------------------------------
    def toggle(self) -> None:
        if self.open:
            self.close()
        else:
            self.open = True
            self.index = 0
            self.show_controls = False
            self.steps.latched = True

    def close(self) -> None:
        if self.open:
            self.open = False
            self.apply("resume")

    # -- input -----------------------------------------------------------------------------
    def read_pad(self, pad: Pad, presses: list[str]) -> None:
        """One paused frame of input: `presses` are the buttons pressed since the last frame."""
        if "START" in presses or "B" in presses:
            self.close()
            return
        down, right = self.steps.step(*pad.left)
        if down:
            self.move(down)
        elif right:
            self.change(right)
        if "A" in presses:
            self.activate()

    def move(self, step: int) -> None:
        self.index = (self.index + step) % len(ENTRIES)

    @property
    def entry(self) -> str:
        return ENTRIES[self.index]

    def change(self, step: int) -> None:
        """Left/right on the selected entry."""
        s = self.settings
        entry = self.entry
        if entry == "camera":
            views = CAMERA_VIEWS
            self._set("camera.default_view", views[(views.index(s.camera.default_view) + step) % len(views)])
        elif entry == "volume":
            self._set("audio.master", round(min(1.0, max(0.0, s.audio.master + step * VOLUME_STEP)), 2))
        elif entry == "language":
            self._set("language", "fr" if s.language == "en" else "en")
        elif entry == "hud":
            self._set("hud", "engineering" if s.hud == "player" else "player")
        elif entry == "vsync":
            self._set("display.vsync", not s.display.vsync)
        elif entry == "fps_cap":
            caps = FPS_CAPS
            current = s.display.fps_cap if s.display.fps_cap in caps else 0
            self._set("display.fps_cap", caps[(caps.index(current) + step) % len(caps)])
        elif entry == "fullscreen":
            self._set("display.fullscreen", not s.display.fullscreen)

    def activate(self) -> None:
        """A / Enter on the selected entry."""
        entry = self.entry
        if entry == "resume":
            self.close()
        elif entry == "quit":
            self.apply("quit")
        elif entry == "back_to_title":
            self.open = False
            self.apply("back_to_title")
        elif entry == "controls":
            self.show_controls = not self.show_controls
        else:
            self.change(1)

    def _set(self, key: str, value) -> None:
        self.settings.set(key, value)
        self.changed = True
        self.apply(key)

    # -- what it shows ---------------------------------------------------------------------
    def value_of(self, entry: str) -> str | None:
        """The entry's current value, language-neutral (the HUD translates on/off)."""
        s = self.settings
        if entry == "camera":
            return s.camera.default_view
        if entry == "volume":
            return f"{round(s.audio.master * 100):d} %"
        if entry == "language":
            return "English" if s.language == "en" else "Français"
        if entry == "hud":
            return f"hud_{s.hud}"  # the HUD translates it
        if entry == "vsync":
            return "on" if s.display.vsync else "off"
        if entry == "fps_cap":
            return "no_cap" if s.display.fps_cap == 0 else f"{s.display.fps_cap} fps"
        if entry == "fullscreen":
            return "on" if s.display.fullscreen else "off"
        return None
