"""A level's traffic routes: the `[[traffic]]` entries' flight scripts, read and checked.

A traffic drone flies a flight script (game/script.py, examples/README.md): its
`[[timeline]]` is played onto the drone's own pad by `systems.traffic` (the game gives
`level_routes` to its `TrafficPlugin`). The script file is named by the entry's `script`,
relative to the level's folder. What a route may hold is a flight script's, less what only
a whole flight has or what only the player's drone answers to:

- a header of `description` and `seconds` (the route's length: when a `loop` starts it
  again; default 2 s after its last action) — not `level`, `seed` or `[weather]`, which are
  the level's and the player's;
- the drone's buttons `A B X Y LS RS` — not `LB` (menu), `RB` (camera), `START` (pause) or
  `BACK` (restart), which act on the player's game (`select = "restart"` restarts the drone);
- `select` of the game's own drone entries (`manual`, `takeoff`, `land`, `mission`,
  `restart`, `angle`, `acro`) — not the weather, the air or a course, which are everyone's.

`route_problems(level)` lists every problem as one located line (the level's line for a
missing file, the route's own lines for its contents); `donify check-level` prints them.
"""

from __future__ import annotations

from pathlib import Path

from engine.datafile import DataFileError, read_toml
from game.script import BUTTON_ACTIONS, Script, ScriptPlayer, load_script
from systems.menu import MenuId
from systems.traffic import Route
from world.level import Level

#: Buttons a traffic drone answers to; the others are the player's game (menu, camera, pause, restart).
DRONE_BUTTONS = ("A", "B", "X", "Y", "LS", "RS")
DRONE_ENTRIES = tuple(str(entry) for entry in MenuId)
ROUTE_HEADER = ("description", "seconds")


def route_path(level: Level, index: int) -> Path:
    """The file of `level.traffic[index]`'s route: its `script` from the level file's folder
    (a level made in code, without a file: from the current folder)."""
    folder = Path(level.source).parent if level.source else Path.cwd()
    return folder / level.traffic[index].script


def _level_line(level: Level, path: tuple) -> str:
    """`FILE:LINE` of a key of the level file (`FILE` alone if it cannot be read again)."""
    if not level.source:
        return "<level>"
    try:
        return read_toml(level.source).locate(path)
    except DataFileError:
        return level.source


def load_route(level: Level, index: int) -> Script:
    """Read and check `level.traffic[index]`'s route; DataFileError lists every problem."""
    path = route_path(level, index)
    if not path.is_file():
        where = ("traffic", index, "script")
        raise DataFileError([f"{_level_line(level, where)}: traffic.{index}.script: expected a flight script file "
                             f"(relative to the level's folder), got {level.traffic[index].script!r}: no such file "
                             f"({path})"])
    script = load_script(path)
    problems = []
    for key in sorted(set(script.source.data) - {"timeline", *ROUTE_HEADER}):
        problems.append(f"{script.source.locate((key,))}: {key}: expected only {' and '.join(ROUTE_HEADER)} in a "
                        f"traffic route's header (the level and the player's flight set the rest), got {key}")
    for i, entry in enumerate(script.entries):
        for action in BUTTON_ACTIONS:
            for button in getattr(entry, action) or ():
                if button not in DRONE_BUTTONS:
                    problems.append(f"{script.where(i, action)}: timeline.{i}.{action}: expected a button a traffic drone "
                                    f"answers to ({' '.join(DRONE_BUTTONS)}), got {button} (the player's game: menu, "
                                    f"camera, pause, restart — select = \"restart\" restarts the drone)")
        if entry.select is not None and entry.select not in DRONE_ENTRIES:
            problems.append(f"{script.where(i, 'select')}: timeline.{i}.select: expected one of the drone's own entries "
                            f"({', '.join(DRONE_ENTRIES)}), got {entry.select!r} (weather, air and courses are everyone's)")
    if problems:
        raise DataFileError(problems)
    return script


def level_routes(level: Level) -> tuple[list[Route | None], list[str]]:
    """Every traffic entry's route (None where it has problems) and the problems, one line each."""
    routes: list[Route | None] = []
    problems: list[str] = []
    for index in range(len(level.traffic)):
        try:
            script = load_route(level, index)
        except DataFileError as exc:
            routes.append(None)
            problems += exc.lines
            continue
        routes.append(Route(player=_player_of(script), seconds=script.seconds))
    return routes, problems


def route_problems(level: Level) -> list[str]:
    """Every problem of the level's traffic routes, one located line each (`check-level`)."""
    problems: list[str] = []
    for index in range(len(level.traffic)):
        try:
            load_route(level, index)
        except DataFileError as exc:
            problems += exc.lines
    return problems


def _player_of(script: Script):
    def player(warn) -> ScriptPlayer:
        return ScriptPlayer(script, warn)
    return player
