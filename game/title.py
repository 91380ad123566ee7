"""The title screen: what `donify` / `./run.sh` / `donify play` opens on (not `play --level L`).

Pure state, like the pause panel: the window reads the Pad for it (so keyboard, gamepad and
mouse all work the same way) and acts on what is chosen. Its rows:

- **Tutorial** — the shipped level `first-flight`, when it is there;
- **Free flight** — the street, the game's default level, with nothing asked of you;
- **LEVELS** — every shipped level (`world.level_file.shipped_levels()`), with its name, its
  description and its top view (game/render/title.py draws it from the level file);
- **COURSES** — every course of those levels (`courses()`): choosing one flies its level and
  starts the course (`course:<id>`: the start pad, the countdown);
- **Settings** — the language and the HUD at start (saved to the settings file);
- **Quit**.

Navigation: up/down (left stick, arrows, D-pad) chooses, left/right changes a setting, A /
Enter starts, B / Esc leaves the settings (on the main list Esc does nothing: Quit is a row).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from components.pilot import Pad
from systems.menu import StickSteps
from engine.datafile import DataFileError
from world.level import Level
from world.level_file import load_level, shipped_levels

TUTORIAL_LEVEL = "first-flight"
FREE_FLIGHT_LEVEL = "street"
SETTINGS_ROWS = ("language", "hud", "back")


@dataclass(frozen=True)
class TitleRow:
    """One row: its kind ("tutorial", "free", "level", "course", "settings", "quit"), the level
    it starts (a shipped level's name) and, for a level, the level itself (its name,
    description and top view)."""

    kind: str
    level_name: str = ""
    level: Level | None = None
    course_id: str = ""  # a course row's course (in `level`)

    @property
    def course_name(self) -> str:
        course = next((c for c in (self.level.courses if self.level else ()) if c.id == self.course_id), None)
        return course.name if course is not None else self.course_id


def courses(levels: list[TitleRow]) -> list[TitleRow]:
    """A row of kind "course" for every course of the `levels` rows' levels, in their order."""
    return [TitleRow("course", row.level_name, row.level, course.id)
            for row in levels if row.level is not None for course in row.level.courses]


def title_rows(names: list[str] | None = None) -> tuple[list[TitleRow], list[str]]:
    """The rows, and one line per level file that could not be read (it is left out)."""
    names = shipped_levels() if names is None else names
    rows: list[TitleRow] = []
    problems: list[str] = []
    levels: list[TitleRow] = []
    for name in names:
        try:
            level = load_level(name)
        except (DataFileError, OSError) as exc:
            problems.append(f"title screen: level {name!r} left out: {str(exc).splitlines()[0]}")
            continue
        levels.append(TitleRow("level", name, level))
    if any(r.level_name == TUTORIAL_LEVEL for r in levels):
        rows.append(TitleRow("tutorial", TUTORIAL_LEVEL))
    if any(r.level_name == FREE_FLIGHT_LEVEL for r in levels):
        rows.append(TitleRow("free", FREE_FLIGHT_LEVEL))
    rows += levels
    rows += courses(levels)
    rows += [TitleRow("settings"), TitleRow("quit")]
    return rows, problems


class TitleScreen:
    """Args:
        settings: the player's `game.settings.Settings` (language and HUD changed in place).
        start: called with the shipped level's name to fly (and, for a course row, the course id).
        apply: called with the dotted key of a setting changed ("language", "hud") or "quit".
        rows: the rows (default: `title_rows()`).
    """

    def __init__(self, settings, start: Callable[[str], None], apply: Callable[[str], None],
                 rows: list[TitleRow] | None = None) -> None:
        self.settings = settings
        self.start = start
        self.apply = apply
        if rows is None:
            rows, self.problems = title_rows()
        else:
            self.problems = []
        self.rows = rows
        self.open = False
        self.index = 0
        self.in_settings = False
        self.settings_index = 0
        self.changed = False
        self.steps = StickSteps()

    def show(self) -> None:
        self.open = True
        self.in_settings = False
        self.steps.latched = True

    @property
    def row(self) -> TitleRow:
        return self.rows[self.index]

    def preview_level(self) -> Level | None:
        """The level whose top view and description to show: the selected row's."""
        name = self.row.level_name
        for r in self.rows:
            if r.level is not None and r.level_name == name:
                return r.level
        return None

    # -- input -----------------------------------------------------------------------------
    def read_pad(self, pad: Pad, presses: list[str]) -> None:
        """One frame of input on the title screen: `presses` since the last frame."""
        if self.in_settings and ("B" in presses or "START" in presses):
            self.in_settings = False
            return
        down, right = self.steps.step(*pad.left)
        if down:
            self.move(down)
        elif right and self.in_settings:
            self.change(right)
        if "A" in presses:
            self.activate()

    def move(self, step: int) -> None:
        if self.in_settings:
            self.settings_index = (self.settings_index + step) % len(SETTINGS_ROWS)
        else:
            self.index = (self.index + step) % len(self.rows)

    def select(self, index: int) -> None:
        """The mouse: point at a row (then `activate` on a click)."""
        if self.in_settings:
            self.settings_index = max(0, min(len(SETTINGS_ROWS) - 1, index))
        else:
            self.index = max(0, min(len(self.rows) - 1, index))

    def change(self, step: int) -> None:
        entry = SETTINGS_ROWS[self.settings_index]
        s = self.settings
        if entry == "language":
            self._set("language", "fr" if s.language == "en" else "en")
        elif entry == "hud":
            self._set("hud", "engineering" if s.hud == "player" else "player")

    def activate(self) -> None:
        if self.in_settings:
            if SETTINGS_ROWS[self.settings_index] == "back":
                self.in_settings = False
            else:
                self.change(1)
            return
        row = self.row
        if row.kind == "settings":
            self.in_settings = True
            self.settings_index = 0
        elif row.kind == "quit":
            self.apply("quit")
        elif row.kind == "course":
            self.open = False
            self.start(row.level_name, row.course_id)
        elif row.level_name:
            self.open = False
            self.start(row.level_name)

    def _set(self, key: str, value) -> None:
        self.settings.set(key, value)
        self.changed = True
        self.apply(key)
