"""Best course times, kept in the user data folder (`best_times.json`).

One JSON file (`$DONIFY_DATA_DIR/best_times.json`, else the platform's user data folder):

    {"format": "donify-best-times", "version": 1,
     "entries": {"<level name>|<level sha256>|<course id>":
                 {"level": "The street", "level_sha256": "…", "course": "street-run",
                  "time_s": 20.34, "splits": [4.34, 8.09, …], "date": "2026-12-01T01:40:00+00:00"}}}

Keyed by the level's name, its content hash (`game.replay.level_hash`: a changed level is a
new track, its times start afresh) and the course id. A time replaces the kept one only if it
is better. Every save is atomic (game/atomic.py): a save killed half-way leaves the previous
file whole. A file that cannot be read as best times (not JSON, another format, a bad entry)
is reported in one line and renamed `best_times.json.corrupt-<n>` beside it — never
overwritten, never a crash; the game starts afresh.

`keep_best_times(app, best)` wires a `BestTimes` into a running App: the course run reads the
best splits from it (deltas at each gate) and each `CourseFinished` is recorded.
"""

from __future__ import annotations

import datetime
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from components import events
from engine.app import App
from game.atomic import atomic_path
from game.plugins import DATA_DIR_ENV
from game.replay import level_hash
from systems.course import CourseState
from world.level import ActiveLevel, Level

FILE_NAME = "best_times.json"
FORMAT = "donify-best-times"
VERSION = 1


def default_path() -> Path:
    """`best_times.json` in the user data folder ($DONIFY_DATA_DIR, else the platform's)."""
    base = os.environ.get(DATA_DIR_ENV) or platformdirs.user_data_dir("donify", appauthor=False)
    return Path(base) / FILE_NAME


@dataclass(frozen=True)
class BestTime:
    """One course's best run."""

    level: str
    level_sha256: str
    course: str
    time_s: float
    splits: tuple[float, ...]
    date: str  # ISO 8601, UTC

    def as_dict(self) -> dict:
        return {"level": self.level, "level_sha256": self.level_sha256, "course": self.course,
                "time_s": self.time_s, "splits": list(self.splits), "date": self.date}


def key(level: Level, course_id: str) -> str:
    return f"{level.name}|{level_hash(level)}|{course_id}"


class BestTimes:
    """The best-times file. `problems`: one line per problem met (a corrupt file set aside, a
    failed save); nothing here raises for a bad file or a full disk."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.entries: dict[str, BestTime] = {}
        self.problems: list[str] = []
        self.writable = True
        self._load()

    # -- reading -------------------------------------------------------------------------
    def _load(self) -> None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except (OSError, UnicodeDecodeError) as exc:
            if isinstance(exc, UnicodeDecodeError):
                self._set_aside("expected best times (UTF-8 JSON), got undecodable bytes")
            else:
                self.problems.append(f"{self.path}: cannot read it ({exc.strerror or exc}); best times not kept this time")
                self.writable = False  # never overwrite what could not be read
            return
        try:
            self.entries = _parse(text)
        except ValueError as exc:
            self._set_aside(str(exc))

    def _set_aside(self, why: str) -> None:
        n = 1
        while (aside := self.path.with_name(f"{self.path.name}.corrupt-{n}")).exists():
            n += 1
        try:
            os.replace(self.path, aside)
        except OSError as exc:
            self.problems.append(f"{self.path}: {why}; could not set it aside ({exc.strerror or exc}): "
                                 "best times not kept this time")
            self.writable = False
            return
        self.problems.append(f"{self.path}: {why}; set aside as {aside.name}, best times start afresh")

    def get(self, level: Level, course_id: str) -> BestTime | None:
        return self.entries.get(key(level, course_id))

    # -- writing -------------------------------------------------------------------------
    def record(self, level: Level, course_id: str, time_s: float, splits, date: str | None = None) -> bool:
        """Keep this run if it beats the kept one (or there is none); True if it was kept (and saved)."""
        time_s = float(time_s)
        if not math.isfinite(time_s) or time_s < 0.0:
            return False
        k = key(level, course_id)
        old = self.entries.get(k)
        if old is not None and old.time_s <= time_s:
            return False
        date = date or datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()
        self.entries[k] = BestTime(level.name, level_hash(level) or "", course_id, time_s,
                                   tuple(float(s) for s in splits), date)
        self.save()
        return True

    def save(self) -> bool:
        if not self.writable:
            return False
        data = {"format": FORMAT, "version": VERSION,
                "entries": {k: e.as_dict() for k, e in sorted(self.entries.items())}}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with atomic_path(self.path) as tmp:
                tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        except OSError as exc:
            self.problems.append(f"{self.path}: cannot write it ({exc.strerror or exc}); this best time is not kept")
            return False
        return True


def _parse(text: str) -> dict[str, BestTime]:
    """The entries of a best-times file; ValueError saying what was expected."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        where = f"line {exc.lineno}: " if isinstance(exc, json.JSONDecodeError) else ""
        raise ValueError(f"{where}expected best times (JSON), got unreadable text") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"expected a JSON object with \"format\": \"{FORMAT}\", got something else")
    if data.get("version") != VERSION:
        raise ValueError(f"expected version {VERSION}, got {data.get('version')!r}")
    entries = data.get("entries")
    if not isinstance(entries, dict):
        raise ValueError("entries: expected an object of best times, got something else")
    out: dict[str, BestTime] = {}
    for k, e in entries.items():
        try:
            splits = e["splits"]
            best = BestTime(str(e["level"]), str(e["level_sha256"]), str(e["course"]), _time(e["time_s"]),
                            tuple(_time(s) for s in splits) if isinstance(splits, list) else _bad(), str(e["date"]))
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"entries.{k}: expected level, level_sha256, course, time_s, splits and date, "
                             "got a broken entry") from None
        out[k] = best
    return out


def _time(value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ValueError("a time")
    return float(value)


def _bad():
    raise ValueError("splits")


class BestTimesKeeper:
    """A `BestTimes` wired into an App (a long-lived handler): the course run's best splits
    come from it and every finished course is recorded in it."""

    def __init__(self, app: App, best: BestTimes) -> None:
        self.app = app
        self.best = best
        self.last_kept: bool = False  # whether the last finished run was a new best

    def lookup(self, course_id: str) -> tuple[float, tuple[float, ...]] | None:
        level = self.app.resource(ActiveLevel).level
        entry = None if level is None else self.best.get(level, course_id)
        return None if entry is None else (entry.time_s, entry.splits)

    def on_finished(self, event: events.CourseFinished) -> None:
        level = self.app.resource(ActiveLevel).level
        if level is None:
            return
        state = self.app.resource(CourseState)
        self.last_kept = self.best.record(level, event.course_id, event.time_s, state.splits)


def keep_best_times(app: App, best: BestTimes) -> BestTimesKeeper:
    """Wire `best` into `app`; keep the returned keeper alive (events hold weak references)."""
    keeper = BestTimesKeeper(app, best)
    app.resource(CourseState).best_lookup = keeper.lookup
    app.on(events.CourseFinished, keeper.on_finished)
    return keeper
