"""Writing user files atomically: readers see the old file or the complete new one, never half.

`atomic_path(path)` yields a temporary path in the same directory; when the block ends
normally the temporary file is flushed to disk and renamed over `path` (`os.replace`, one
step on POSIX and Windows). If the block raises — an error, Ctrl-C — the temporary file is
removed and `path` is left as it was (absent, or the previous complete file).

A writer killed outright (SIGKILL, a power cut) cannot remove its temporary file, so every
temporary is recognisable: `.NAME.PID-RANDOM.tmp` beside NAME, PID being the writer's
process. `remove_stale_temporaries(path)` deletes those of `path` whose writer is gone (no
such process, or the file untouched for `STALE_AFTER_S`); `atomic_path` calls it before
each write, so the next run of the same writer cleans up after a killed one, and a live
writer's temporary is never touched.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Iterator

#: A temporary not written for this long is stale even if a process with its writer's id
#: exists (ids are reused; Windows cannot check them): a live writer keeps its file fresh.
STALE_AFTER_S = 3600.0


@contextlib.contextmanager
def atomic_path(path: str | Path, mode: int | None = None) -> Iterator[Path]:
    """Yield a temporary path beside `path`; on success it replaces `path`, with permission
    bits `mode` (default: those of a new file under the umask).

    Raises OSError if the directory does not exist or is not writable (before the block runs).
    """
    path = Path(path)
    remove_stale_temporaries(path)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}-", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        with open(tmp, "rb+") as file:  # the data must be on disk before the rename
            os.fsync(file.fileno())
        # mkstemp makes 0600; a normal new file honours the umask
        os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _temporary_pattern(path: Path) -> re.Pattern[str]:
    """What `atomic_path` names the temporaries of `path`; group 1 is the writer's process id."""
    return re.compile(rf"\.{re.escape(path.name)}\.(\d+)-[A-Za-z0-9_]+\.tmp")


def remove_stale_temporaries(path: str | Path, now_s: float | None = None) -> list[Path]:
    """Delete the temporary files of writes to `path` whose writer died before it could (see
    the module's docstring); the ones removed. Never raises: cleaning is a courtesy."""
    path = Path(path)
    pattern = _temporary_pattern(path)
    now_s = time.time() if now_s is None else now_s
    removed = []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if _alive(int(match.group(1))) and now_s - info.st_mtime < STALE_AFTER_S:
                continue
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed


def _alive(pid: int) -> bool:
    """Whether process `pid` may still be writing (when unsure: yes)."""
    if pid == os.getpid():
        return True  # another write of ours, maybe in progress on another thread
    if os.name != "posix":
        return True  # os.kill(pid, 0) would terminate it on Windows: rely on the age alone
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OverflowError, OSError):
        return True  # someone else's live process (or an id this system cannot hold)
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_output_path(path: str | Path, option: str) -> None:
    """ValueError (one line naming `option`) unless `path` can be an output file: not a
    directory, in an existing directory."""
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"{option} {path}: expected a file path, got a directory")
    if not p.parent.is_dir():
        raise ValueError(f"{option} {path}: expected a file in an existing directory, got no directory '{p.parent}'")
