"""Hot reload of a level file: notice a save, wait for it to settle, load it again.

`LevelWatcher(path).poll(now_s)` is called from the game loop (any clock in seconds). It
polls the file's modification time and size; once a change has been stable for `debounce_s`
(an editor may write a file in several steps) it loads the file and returns a
`ReloadResult`: the new `Level`, or `level=None` and the error lines — the caller keeps
the last good level. Between changes `poll` returns None and costs one `stat` every
`interval_s`. It loads on the caller's thread: right for the headless Simulation and tests.

`BackgroundLevelWatcher` is the game window's: the same polling, but the loading happens in
a worker process, and the result comes back over several frames, so no frame stalls on a
big level. Why a process and not a thread: parsing and checking a 20 000-box file is seconds
of pure Python, and a thread doing it shares the interpreter lock with the frame thread —
every GL call the frame makes releases the lock and then waits up to the switch interval to
get it back, and the worker's garbage collections and long numpy calls hold it for hundreds
of milliseconds at a time (measured: single frames of 1–3 s). In a process the parse costs
the frame nothing.

The result then has to cross into the game's process, and unpickling 20 000 level objects
in one `pickle.loads` is itself a ~250 ms stall. So the worker sends it in pieces: every
long list or tuple inside it (the level's boxes, the collision geometry's rows) is pickled
separately in chunks of `CHUNK_ITEMS` (`pack`), and the frame thread rebuilds the result a
few chunks per frame within a time budget (`unpack_steps`); numpy arrays (render meshes,
broad-phase bounds) travel whole — unpickling them is a copy. The worker also compiles the
collision geometry and, if asked (`prepare`), whatever else the caller would otherwise build
on the frame thread (the window's render meshes), so applying the result is only a swap.
"""

from __future__ import annotations

import gc
import io
import logging
import multiprocessing
import os
import pickle
import time
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Generator

from engine.datafile import DataFileError
from world.geometry import LevelGeometry
from world.level import Level, compile_level
from world.level_file import level_path, load_level

log = logging.getLogger("donify.level")

CHUNK_ITEMS = 256  # items per pickled chunk: ~3 ms to unpickle 256 level boxes on the test machine
FRAME_BUDGET_S = 0.006  # frame-thread time spent rebuilding a result, per poll


@dataclass(frozen=True)
class ReloadResult:
    path: Path
    level: Level | None  # None: the file has errors; keep flying the last good level
    errors: list[str] = field(default_factory=list)  # one located line per problem
    geometry: LevelGeometry | None = None  # the level's collision geometry, when already compiled
    prepared: Any = None  # what the watcher's `prepare` made of the level (BackgroundLevelWatcher)

    @property
    def ok(self) -> bool:
        return self.level is not None


class LevelWatcher:
    """Watches one level file. Args: path (file, folder or shipped name); debounce_s: quiet
    time after the last change before reloading; interval_s: time between two `stat`s."""

    def __init__(self, path: str | Path, debounce_s: float = 0.3, interval_s: float = 0.25) -> None:
        self.path = level_path(path)
        self.debounce_s = debounce_s
        self.interval_s = interval_s
        self._seen = self._signature()
        self._changed_at: float | None = None
        self._pending: tuple | None = None
        self._next_check = -float("inf")

    def _signature(self) -> tuple | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size)

    @property
    def changing(self) -> bool:
        """A change was seen and is waiting to settle."""
        return self._pending is not None

    def poll(self, now_s: float) -> ReloadResult | None:
        """A result when a saved change has settled; None otherwise."""
        return self.reload() if self.settled(now_s) else None

    def settled(self, now_s: float) -> bool:
        """True once per saved change, when it has been stable for `debounce_s`."""
        if now_s < self._next_check and self._pending is None:
            return False
        self._next_check = now_s + self.interval_s
        sig = self._signature()
        if sig != self._seen and sig != self._pending:
            self._pending, self._changed_at = sig, now_s  # a new change: (re)start the quiet time
            return False
        if self._pending is None or self._changed_at is None or now_s - self._changed_at < self.debounce_s:
            return False
        self._seen, self._pending, self._changed_at = self._pending, None, None
        return True

    def reload(self) -> ReloadResult:
        """Load the file now."""
        return load_result(self.path)


def load_result(path: Path, prepare: Callable[[Level], Any] | None = None) -> ReloadResult:
    """Load and check `path`; on success compile its geometry and `prepare(level)` too."""
    try:
        level = load_level(path)
    except DataFileError as exc:
        return ReloadResult(path, None, exc.lines)
    return ReloadResult(path, level, [], compile_level(level), prepare(level) if prepare is not None else None)


class BackgroundLevelWatcher:
    """A `LevelWatcher` whose loads run in a worker process (see the module docstring).

    `poll(now_s)` is called once a frame, as `LevelWatcher.poll`; it returns a `ReloadResult`
    a few frames after the load finished, having spent at most about `budget_s` of each frame
    rebuilding it. `prepare(level)`, run in the worker, must be a module-level function (it
    is pickled by name); its return value comes back as `result.prepared`. The worker
    process starts when a change is first seen (its start-up overlaps the debounce) and stays
    for later saves; `close()` stops it. A save that settles while a load is running is
    loaded after it. If no worker process can be started the loads run in the caller's
    thread, as `LevelWatcher` does. The worker is started by "spawn", which imports the main
    module again: a script that makes a game window must keep its top level import-safe
    (`if __name__ == "__main__":`), as `donify` and pytest do.
    """

    def __init__(self, path: str | Path, prepare: Callable[[Level], Any] | None = None, *,
                 debounce_s: float = 0.3, interval_s: float = 0.25, budget_s: float = FRAME_BUDGET_S) -> None:
        self.watcher = LevelWatcher(path, debounce_s, interval_s)
        self.path = self.watcher.path
        self.prepare = prepare
        self.budget_s = budget_s
        self._executor: ProcessPoolExecutor | None = None
        self._future: Future | None = None
        self._unpacking: Generator[None, None, ReloadResult] | None = None
        self._ready: ReloadResult | None = None  # rebuilt, returned by the next poll
        self._again = False  # a newer save settled while loading
        self._inline = False  # no worker process could be started

    @property
    def busy(self) -> bool:
        """A load is running or its result is being rebuilt."""
        return self._future is not None or self._unpacking is not None or self._ready is not None

    def poll(self, now_s: float) -> ReloadResult | None:
        if self._ready is not None:
            ready, self._ready = self._ready, None
            return self._finished(ready)
        if self.watcher.settled(now_s):
            if self.busy:
                self._again = True
            else:
                result = self._submit()
                if result is not None:
                    return result
        elif self.watcher.changing and self._executor is None and not self._inline:
            self._start()
        if self._future is not None and self._future.done():
            future, self._future = self._future, None
            try:
                pieces, skeleton = future.result()
            except BrokenExecutor as exc:  # the worker died (killed, out of memory): load here from now on
                log.warning("level worker lost (%s): loading on the game thread", exc)
                self._stop()
                self._inline = True
                return self._finished(load_result(self.path, self.prepare))
            except Exception as exc:  # noqa: BLE001 (a bug met by this file: keep the level, say why)
                log.exception("reloading %s failed", self.path)
                return self._finished(ReloadResult(self.path, None, [f"{self.path}: {type(exc).__name__}: {exc}"]))
            self._unpacking = unpack_steps(pieces, skeleton)
        if self._unpacking is not None:
            result = _advance(self._unpacking, self.budget_s)
            # The rebuilt objects (~10 per level box) are long-lived: left to the collector they
            # soon trigger a full collection, which walks every object of the game — 100–250 ms
            # in one frame, measured. Frozen, the collector never walks them again. The game
            # makes no cyclic garbage frame to frame (measured: none in 300 frames), so nothing
            # collectable is frozen with them.
            gc.freeze()
            if result is not None:  # handed over at the next poll: applying it is a frame's work of its own
                self._unpacking, self._ready = None, result
        return None

    def _finished(self, result: ReloadResult) -> ReloadResult:
        if self._again:
            self._again = False
            self._ready = self._submit()  # None while the worker loads it; loaded already without one
        return result

    def _start(self) -> None:
        try:
            # spawn, not fork: the game process has GL and audio threads that a fork would copy
            # half-way through whatever they were doing
            self._executor = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_background_priority)
        except (OSError, ImportError, NotImplementedError) as exc:  # e.g. no /dev/shm for its semaphores
            log.warning("no level worker process (%s): hot reload loads on the game thread", exc)
            self._inline = True

    def _submit(self) -> ReloadResult | None:
        """Start loading the file; a result at once only when loading on this thread."""
        if self._executor is None and not self._inline:
            self._start()
        if self._inline:
            return load_result(self.path, self.prepare)
        try:
            self._future = self._executor.submit(load_packed, self.path, self.prepare)
        except Exception as exc:  # noqa: BLE001 (a broken pool: same as no pool)
            log.warning("level worker unavailable (%s): loading on the game thread", exc)
            self._stop()
            self._inline = True
            return load_result(self.path, self.prepare)
        return None

    def _stop(self) -> None:
        executor, self._executor, self._future = self._executor, None, None
        if executor is None:
            return
        # a load of a huge file may be running: the game should not wait for it to quit
        processes = list((getattr(executor, "_processes", None) or {}).values())  # no public API before 3.14
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()

    def close(self) -> None:
        self._unpacking = self._ready = None
        self._stop()


def _background_priority() -> None:
    """The worker's first act: yield the CPU to the game. On two cores the parse otherwise
    takes a core from the software renderer's raster threads and the frames slow down."""
    try:
        os.nice(10)
    except (AttributeError, OSError):  # no nice on Windows: the default priority will do
        pass


def load_packed(path: Path, prepare: Callable[[Level], Any] | None) -> tuple[list, bytes]:
    """The worker's job: `load_result`, packed for a rebuild in small steps (`pack`)."""
    return pack(load_result(path, prepare))


# -- moving a large result between processes in small pieces --------------------------------
class _Packer(pickle.Pickler):
    """Pickles an object with each list or tuple longer than CHUNK_ITEMS left out, as a
    reference to a piece: the sequence pickled separately, CHUNK_ITEMS items per chunk."""

    def __init__(self, file, pieces: list, shared: dict) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.pieces, self.shared = pieces, shared

    def persistent_id(self, obj):  # noqa: D102 (pickle's hook, called for every object)
        if type(obj) not in (list, tuple) or len(obj) <= CHUNK_ITEMS:
            return None
        known = self.shared.get(id(obj))
        if known is None:
            chunks = [_dumps(obj[i:i + CHUNK_ITEMS], self.pieces, self.shared) for i in range(0, len(obj), CHUNK_ITEMS)]
            # after its chunks: a piece inside a chunk gets a smaller index, so it is rebuilt first
            self.pieces.append((type(obj) is tuple, chunks))
            known = self.shared[id(obj)] = (len(self.pieces) - 1, obj)  # obj kept: its id stays unique
        return known[0]


def _dumps(obj, pieces: list, shared: dict) -> bytes:
    buffer = io.BytesIO()
    _Packer(buffer, pieces, shared).dump(obj)
    return buffer.getvalue()


def pack(obj) -> tuple[list, bytes]:
    """(pieces, skeleton): `obj` pickled with its long sequences in separate chunks."""
    pieces: list = []
    skeleton = _dumps(obj, pieces, {})
    return pieces, skeleton


class _Unpacker(pickle.Unpickler):
    def __init__(self, data: bytes, built: list) -> None:
        super().__init__(io.BytesIO(data))
        self.built = built

    def persistent_load(self, pid):  # noqa: D102 (pickle's hook)
        return self.built[pid]


def unpack_steps(pieces: list, skeleton: bytes) -> Generator[None, None, Any]:
    """Rebuild what `pack` packed, one chunk per step; the generator's return value is the
    object. Drive it with `_advance` (a time budget per call) or `unpack` (all at once)."""
    built: list = []
    for is_tuple, chunks in pieces:
        items: list = []
        for chunk in chunks:
            items.extend(_Unpacker(chunk, built).load())
            yield
        built.append(tuple(items) if is_tuple else items)
    return _Unpacker(skeleton, built).load()


def unpack(pieces: list, skeleton: bytes) -> Any:
    steps = unpack_steps(pieces, skeleton)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def _advance(steps: Generator[None, None, Any], budget_s: float) -> Any:
    """Run `steps` for about `budget_s`; its result when it finished, else None."""
    deadline = time.perf_counter() + budget_s
    try:
        while True:
            next(steps)
            if time.perf_counter() >= deadline:
                return None
    except StopIteration as done:
        return done.value
