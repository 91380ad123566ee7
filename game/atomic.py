"""Writing user files atomically: readers see the old file or the complete new one, never half.

`atomic_path(path)` yields a temporary path in the same directory; when the block ends
normally the temporary file is flushed to disk and renamed over `path` (`os.replace`, one
step on POSIX and Windows). If the block raises — an error, Ctrl-C — the temporary file is
removed and `path` is left as it was (absent, or the previous complete file).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Iterator


@contextlib.contextmanager
def atomic_path(path: str | Path, mode: int | None = None) -> Iterator[Path]:
    """Yield a temporary path beside `path`; on success it replaces `path`, with permission
    bits `mode` (default: those of a new file under the umask).

    Raises OSError if the directory does not exist or is not writable (before the block runs).
    """
    path = Path(path)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
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
