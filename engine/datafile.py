"""Reading user-editable TOML data files with one-line, located errors.

Level designers and modders edit these files by hand, so every problem is reported as
`FILE:LINE: key.path: expected …, got …` — the line found in the TOML source — and a file
with several problems reports them at once: the first `MAX_REPORTED_PROBLEMS`, then one line
counting the rest (a generated file with 20 000 bad boxes should not print 20 000 lines).
Nothing here raises anything but `DataFileError`, whose `lines` are ready to print.

Files are hostile until read. Only a regular file is read (a named pipe would block for ever,
`/dev/zero` would never end), and at most `max_bytes` of it (`check_regular_file`,
`read_bytes`: the checks any reader of a user file can reuse). The text may start with a
UTF-8 byte-order mark (Windows editors write one): it is dropped. What the TOML parser
cannot survive is turned into located lines too: arrays or inline tables nested deeper than
`MAX_NESTING_DEPTH` (tomllib recurses, and Python's stack runs out near 500 levels), and
integers outside TOML's 64-bit range (a 5 000-digit integer makes `int()` refuse).

Locating a key path (`TomlSource.line_of`) uses an index of the file's headers and keys,
built once on the first look-up, so reporting N problems costs O(lines + N), not
O(lines × N).
"""

from __future__ import annotations

import math
import os
import re
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any, Iterable, Sequence

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"'.]+)\s*=")


#: A data file's size cap: the largest shipped-format level (100 000 boxes and 100 000
#: cylinders, one table each) is about 30 MB.
MAX_DATA_FILE_BYTES = 64 * 1024 * 1024
#: Any other text a user hands us (a telemetry file: ~1 KB a frame, 60 frames a second of
#: flight), read whole into memory: hours of telemetry, not an endless file.
MAX_TEXT_BYTES = 1024**3
#: Arrays / inline tables / dotted tables deeper than this are refused (levels use 3).
MAX_NESTING_DEPTH = 100
#: Problems reported one by one; the rest are counted in one more line.
MAX_REPORTED_PROBLEMS = 20
#: TOML integers are 64-bit signed: anything else must be refused, says the TOML spec.
TOML_INT_MIN, TOML_INT_MAX = -(2**63), 2**63 - 1


class DataFileError(Exception):
    """A data file could not be used. `lines` holds one located message per problem — the
    first `MAX_REPORTED_PROBLEMS`, then one line `FILE:LINE: … and K more problems` placed
    at the first of those not shown — and `problems` the count of all of them."""

    def __init__(self, lines: Sequence[str]) -> None:
        lines = list(lines)
        self.problems = len(lines)
        if len(lines) > MAX_REPORTED_PROBLEMS + 1:  # "and 1 more" would not save a line
            more = len(lines) - MAX_REPORTED_PROBLEMS
            place = _PLACE.match(lines[MAX_REPORTED_PROBLEMS])
            where = f"{place.group(1)}: " if place else ""
            lines = [*lines[:MAX_REPORTED_PROBLEMS],
                     f"{where}… and {more} more problems (the first of them here; fix these and check again)"]
        self.lines = lines
        super().__init__("\n".join(self.lines))


_PLACE = re.compile(r"^(.+?:\d+): ")


class TomlSource:
    """A TOML file's parsed data plus a way to find the source line of a key path."""

    def __init__(self, path: Path, text: str, data: dict[str, Any]) -> None:
        self.path = path
        self.text = text
        self.data = data
        self._index: _LineIndex | None = None  # built on the first look-up: most files have no problem

    def line_of(self, key_path: Sequence[str | int]) -> int:
        """Best-effort 1-based line of `key_path` (e.g. ("pads", 2, "size")); 1 if unknown.

        From the file's table headers ([a.b], the n-th [[a]] being a.n) and keys (`c = …`
        under a header, full path a.b.c): the line of `key_path` itself; else the first line
        inside it (a key or header it contains); else the line of its longest enclosing key
        or table (for an item of an inline array, the array's key).
        """
        if self._index is None:
            self._index = _LineIndex(self.text)
        return self._index.line_of(tuple(key_path))

    @property
    def line_scans(self) -> int:
        """How many times the file's lines were scanned to locate keys (once at most)."""
        return 0 if self._index is None else self._index.scans

    def locate(self, key_path: Sequence[str | int]) -> str:
        return f"{self.path}:{self.line_of(key_path)}"


class _LineIndex:
    """Key path → line, from one pass over a TOML text's lines.

    `exact` holds the line of each header and key; `inside` the first line of anything
    strictly inside a path (so a table written only through dotted keys or `[a.b]` headers
    is still found). Paths are cut at `MAX_NESTING_DEPTH + 1` parts: a hostile 10 000-part
    header would otherwise cost O(parts²) here.
    """

    def __init__(self, text: str) -> None:
        self.exact: dict[tuple, int] = {}
        self.inside: dict[tuple, int] = {}
        self.scans = 1
        cap = MAX_NESTING_DEPTH + 1
        array_counts: dict[tuple, int] = {}  # resolved path of an array of tables → its last index
        names_trie: dict[tuple[int, str], int] = {}  # (parent node, name) → node: a header's names, one step each
        arrays: dict[int, int] = {}  # node of an array of tables' names (`courses`) → its element now open
        current: list[str | int] = []
        # "\n" alone ends a line, as for tomllib: splitlines() would also split at a U+2028 in a string
        for number, raw in enumerate(text.split("\n"), start=1):
            header = _HEADER.match(raw)
            if header:
                names: list[str | int] = [n.strip().strip("\"'") for n in header.group(1).split(".", cap)[:cap]]
                is_array = raw.lstrip().startswith("[[")
                path: list[str | int] = []
                node = 0
                for k, name in enumerate(names):  # `[[a.b]]` inside the element of `[[a]]` now open
                    path.append(name)
                    node = names_trie.setdefault((node, name), len(names_trie) + 1)
                    if is_array and k == len(names) - 1:
                        key = tuple(path)
                        array_counts[key] = index = array_counts.get(key, -1) + 1
                        arrays[node] = index
                        path.append(index)
                    elif node in arrays:
                        path.append(arrays[node])
                names = path
                current = names
                self._add(tuple(names), number)
                continue
            key = _KEY.match(raw)
            if key:
                parts = [n.strip().strip("\"'") for n in key.group(1).split(".", cap)[:cap]]
                self._add(tuple([*current, *parts][:cap]), number)

    def _add(self, path: tuple, number: int) -> None:
        self.exact.setdefault(path, number)
        for k in range(len(path) - 1, 0, -1):
            if path[:k] in self.inside:
                break  # its shorter prefixes were recorded with it, at an earlier line
            self.inside[path[:k]] = number

    def line_of(self, path: tuple) -> int:
        if path in self.exact:
            return self.exact[path]
        if path in self.inside:
            return self.inside[path]
        for k in range(min(len(path) - 1, MAX_NESTING_DEPTH + 1), 0, -1):  # the index holds no longer paths
            if path[:k] in self.exact:
                return self.exact[path[:k]]
        return 1


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "another kind of file")


def _size(size_bytes: int) -> str:
    return f"{size_bytes / 1024**2:.0f} MiB" if size_bytes >= 1024**2 else f"{size_bytes} bytes"


def _refuse(path: Path, st: os.stat_result, max_bytes: int, expected: str) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise DataFileError([f"{path}: expected {expected} (a regular file), got {_kind(st.st_mode)}"])
    if st.st_size > max_bytes:
        raise DataFileError([f"{path}: expected {expected} of at most {_size(max_bytes)}, got {st.st_size:,} bytes"])


def check_regular_file(path: str | Path, max_bytes: int = MAX_DATA_FILE_BYTES, expected: str = "a TOML file") -> None:
    """Refuse, as a one-line `DataFileError`, what must not be read as a user file: anything
    but a regular file once links are followed (a named pipe blocks the reader for ever, a
    link to /dev/zero never ends), or a file over `max_bytes`. For a check before handing
    the path to something else (an importer); to read the file, `read_bytes` checks the
    file it actually opened."""
    path = Path(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise DataFileError([f"{path}: file not found"]) from None
    except OSError as exc:
        raise DataFileError([f"{path}: cannot read: {exc.strerror or exc}"]) from None
    _refuse(path, st, max_bytes, expected)


def read_bytes(path: str | Path, max_bytes: int = MAX_DATA_FILE_BYTES, expected: str = "a TOML file") -> bytes:
    """A user file's bytes, if it is a regular file of at most `max_bytes`; any problem
    becomes a one-line `DataFileError`.

    The file is opened without blocking and checked through its descriptor, so a named pipe
    swapped in after a check cannot hang the reader, and no more than `max_bytes` + 1 bytes
    are read even from a file that grows meanwhile."""
    path = Path(path)
    flags = os.O_RDONLY | os.O_NONBLOCK if hasattr(os, "O_NONBLOCK") else os.O_RDONLY
    for extra in ("O_NOCTTY", "O_BINARY", "O_CLOEXEC"):  # never adopt a terminal; Windows text mode off
        flags |= getattr(os, extra, 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise DataFileError([f"{path}: file not found"]) from None
    except IsADirectoryError:
        raise DataFileError([f"{path}: expected {expected}, got a directory"]) from None
    except OSError as exc:
        raise DataFileError([f"{path}: cannot read: {exc.strerror or exc}"]) from None
    try:
        st = os.fstat(fd)
        _refuse(path, st, max_bytes, expected)
        chunks: list[bytes] = []
        remaining = max_bytes + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
    except OSError as exc:
        raise DataFileError([f"{path}: cannot read: {exc.strerror or exc}"]) from None
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    if len(raw) > max_bytes:
        raise DataFileError([f"{path}: expected {expected} of at most {_size(max_bytes)}, got more (it grew while read)"])
    return raw


def read_text(path: str | Path, expected: str = "a TOML file", max_bytes: int = MAX_TEXT_BYTES) -> str:
    """A user file's UTF-8 text, without a leading byte-order mark; any problem (not a
    regular file, over `max_bytes`, not UTF-8) becomes a one-line `DataFileError`."""
    path = Path(path)
    raw = read_bytes(path, max_bytes, expected)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataFileError([f"{path}:{line}: expected UTF-8 text, got byte 0x{raw[exc.start]:02x}"]) from None
    return text.removeprefix(_BOM)


_BOM = "\ufeff"  # U+FEFF at the start: a byte-order mark (EF BB BF in UTF-8), not text


def read_toml(path: str | Path, max_bytes: int = MAX_DATA_FILE_BYTES) -> TomlSource:
    """Read and parse a TOML file; any problem becomes a one-line `DataFileError`."""
    path = Path(path)
    return parse_toml(read_text(path, max_bytes=max_bytes), path)


def parse_toml(text: str, path: str | Path) -> TomlSource:
    """Parse TOML text (a file's, or an editor's); a syntax error becomes a one-line
    `DataFileError` naming `path` and the line, as do nesting deeper than
    `MAX_NESTING_DEPTH` and integers outside TOML's 64-bit range."""
    path = Path(path)
    text = text.removeprefix(_BOM)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        line = m.group(1) if m else "1"
        reason = re.sub(r"\s*\(at .*\)$", "", msg)
        raise DataFileError([f"{path}:{line}: expected valid TOML, got: {reason}"]) from None
    except RecursionError:  # tomllib recurses into arrays and inline tables
        line, depth = _deepest_nesting(text)
        got = "deeper" if depth > MAX_NESTING_DEPTH else f"{depth} deep, more than the parser's stack allows here"
        raise DataFileError([f"{path}:{line}: expected arrays and inline tables nested at most {MAX_NESTING_DEPTH} "
                             f"deep, got {got}"]) from None
    except ValueError as exc:  # int() refuses more than sys.get_int_max_str_digits() digits
        line, digits = _longest_digit_run(text)
        if digits > sys.get_int_max_str_digits():
            raise DataFileError([f"{path}:{line}: expected an integer from -2^63 to 2^63-1 (TOML's range), "
                                 f"got one of {digits} digits"]) from None
        raise DataFileError([f"{path}:1: expected valid TOML, got: {exc}"]) from None
    source = TomlSource(path, text, data)
    problems = _hostile_values(source)
    if problems:
        raise DataFileError(problems)
    return source


def _deepest_nesting(text: str) -> tuple[int, int]:
    """(line, depth) where brackets and braces outside strings and comments first nest deeper
    than MAX_NESTING_DEPTH, else where they nest deepest. Only run on a file tomllib could not
    parse for its depth: a character loop in Python."""
    depth = deepest = 0
    line = where = 1
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        elif c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif c in "\"'":
            quote = c * 3 if text.startswith(c * 3, i) else c
            j = i + len(quote)
            while j < n and not text.startswith(quote, j):
                if text[j] == "\\" and c == '"':
                    j += 1
                elif text[j] == "\n" and len(quote) == 1:
                    break  # an unterminated one-line string: tomllib would have said so
                j += 1
            line += text.count("\n", i, j)
            i = j + len(quote)
            continue
        elif c in "[{":
            depth += 1
            if depth > deepest:
                deepest, where = depth, line
                if depth > MAX_NESTING_DEPTH:
                    return where, depth
        elif c in "]}":
            depth -= 1
        i += 1
    return where, deepest


def _longest_digit_run(text: str) -> tuple[int, int]:
    """(line, length) of the longest run of digits (and `_`) in the text."""
    best, line = 0, 1
    for m in re.finditer(r"[0-9_]{%d,}" % max(1, sys.get_int_max_str_digits()), text):
        digits = sum(ch.isdigit() for ch in m.group())
        if digits > best:
            best, line = digits, text.count("\n", 0, m.start()) + 1
    return line, best


def _hostile_values(source: TomlSource) -> list[str]:
    """Located lines for what parsed but must not reach the loaders: nesting deeper than
    MAX_NESTING_DEPTH (dotted keys and [a.b.c] headers nest without brackets; deep data
    sends pydantic and `repr` into the same recursion) and integers outside 64 bits (TOML
    allows no others; `math.isfinite(10**400)` raises). An explicit stack: no recursion."""
    problems: list[tuple[int, str]] = []  # (line, message): reported in file order
    stack: list[tuple[Any, tuple]] = [(source.data, ())]
    while stack:
        value, where = stack.pop()
        if isinstance(value, dict):
            items: Iterable = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            continue
        if len(where) >= MAX_NESTING_DEPTH:
            line = source.line_of(where)
            problems.append((line, f"{source.path}:{line}: {_dotted(where)}: expected tables and arrays nested at "
                                   f"most {MAX_NESTING_DEPTH} deep, got deeper"))
            continue
        for key, item in items:
            if type(item) is int and not TOML_INT_MIN <= item <= TOML_INT_MAX:
                place = (*where, key)
                line = source.line_of(place)
                problems.append((line, f"{source.path}:{line}: {_dotted(place)}: expected an integer from -2^63 "
                                       f"to 2^63-1 (TOML's range), got {describe(item)}"))
            elif isinstance(item, (dict, list)):
                stack.append((item, (*where, key)))
    return [message for _line, message in sorted(problems, key=lambda p: p[0])]


def _dotted(path: Sequence[str | int], parts: int = 6) -> str:
    """A key path for a message, its middle elided when it is long."""
    names = [str(p) for p in path]
    if len(names) > parts:
        names = [*names[: parts // 2], "…", *names[-(parts // 2):]]
    return ".".join(names)


def describe(value: Any, limit: int = 40) -> str:
    """A short, printable rendering of a bad value for an error message."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        try:
            return f"an integer of {len(str(abs(value)))} digits"
        except ValueError:  # str() refuses integers over sys.get_int_max_str_digits() digits
            return f"an integer of about {math.floor(abs(value).bit_length() * math.log10(2)) + 1} digits"
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
