"""Reading user-editable TOML data files with one-line, located errors.

Level designers and modders edit these files by hand, so every problem is reported as
`FILE:LINE: key.path: expected …, got …` — the line found in the TOML source — and a file
with several problems reports them all at once. Nothing here raises anything but
`DataFileError`, whose `lines` are ready to print.
"""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path
from typing import Any, Iterable, Sequence

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"'.]+)\s*=")


class DataFileError(Exception):
    """A data file could not be used. `lines` holds one located message per problem."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = list(lines)
        super().__init__("\n".join(self.lines))


class TomlSource:
    """A TOML file's parsed data plus a way to find the source line of a key path."""

    def __init__(self, path: Path, text: str, data: dict[str, Any]) -> None:
        self.path = path
        self.text = text
        self.data = data
        self._lines = text.splitlines()

    def line_of(self, key_path: Sequence[str | int]) -> int:
        """Best-effort 1-based line of `key_path` (e.g. ("pads", 2, "size")); 1 if unknown.

        Walks the file's table headers: for a path a.b.c it finds the header [a.b] (or the
        n-th [[a]] for an integer index) and then the line `c = …` under it; it falls back to
        the nearest enclosing table found.
        """
        parts = list(key_path)
        best = 1
        array_counts: dict[str, int] = {}
        current: list[str | int] = []
        for number, raw in enumerate(self._lines, start=1):
            header = _HEADER.match(raw)
            if header:
                names: list[str | int] = [n.strip().strip("\"'") for n in header.group(1).split(".")]
                if raw.lstrip().startswith("[["):
                    key = ".".join(map(str, names))
                    array_counts[key] = array_counts.get(key, -1) + 1
                    names.append(array_counts[key])
                current = names
                if _is_prefix(current, parts):
                    best = number
                    if len(current) == len(parts):
                        return number
                continue
            key = _KEY.match(raw)
            if key:
                full = [*current, *(n.strip().strip("\"'") for n in key.group(1).split("."))]
                if _is_prefix(parts, full) or _is_prefix(full, parts):
                    return number
        return best

    def locate(self, key_path: Sequence[str | int]) -> str:
        return f"{self.path}:{self.line_of(key_path)}"


def _is_prefix(prefix: Sequence[Any], whole: Sequence[Any]) -> bool:
    return len(prefix) <= len(whole) and list(whole[: len(prefix)]) == list(prefix)


def read_text(path: str | Path, expected: str = "a TOML file") -> str:
    """A user file's UTF-8 text; any problem becomes a one-line `DataFileError`."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise DataFileError([f"{path}: file not found"]) from None
    except IsADirectoryError:
        raise DataFileError([f"{path}: expected {expected}, got a directory"]) from None
    except OSError as exc:
        raise DataFileError([f"{path}: cannot read: {exc.strerror or exc}"]) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataFileError([f"{path}:{line}: expected UTF-8 text, got byte 0x{raw[exc.start]:02x}"]) from None


def read_toml(path: str | Path) -> TomlSource:
    """Read and parse a TOML file; any problem becomes a one-line `DataFileError`."""
    path = Path(path)
    return parse_toml(read_text(path), path)


def parse_toml(text: str, path: str | Path) -> TomlSource:
    """Parse TOML text (a file's, or an editor's); a syntax error becomes a one-line
    `DataFileError` naming `path` and the line."""
    path = Path(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        line = m.group(1) if m else "1"
        reason = re.sub(r"\s*\(at .*\)$", "", msg)
        raise DataFileError([f"{path}:{line}: expected valid TOML, got: {reason}"]) from None
    return TomlSource(path, text, data)


def describe(value: Any, limit: int = 40) -> str:
    """A short, printable rendering of a bad value for an error message."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pydantic_errors(source: TomlSource, errors: Iterable[dict[str, Any]], prefix: Sequence[str | int] = ()) -> list[str]:
    """Turn pydantic's `ValidationError.errors()` into located one-line messages."""
    lines = []
    for err in errors:
        loc = [*prefix, *[p for p in err.get("loc", ()) if not (isinstance(p, str) and p.startswith("function-"))]]
        # pydantic puts union branch / tag names in the loc: keep only data keys
        loc = [p for p in loc if isinstance(p, int) or not str(p).endswith("]")]
        key = ".".join(str(p) for p in loc) or "(top level)"
        kind = err.get("type", "")
        got = describe(err.get("input"))
        if kind == "missing":
            text = f"{key}: expected a value, got nothing (missing key)"
        elif kind == "extra_forbidden":
            text = f"{key}: expected no such key (unknown key; check its spelling), got {got}"
        else:
            expected = err.get("msg", "a valid value")
            expected = re.sub(r"^(Input should be|Value error, )\s*", "", expected)
            text = f"{key}: expected {expected}, got {got}"
        lines.append(f"{source.locate(loc)}: {text}")
    return lines
