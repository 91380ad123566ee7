"""The level file: where levels live, reading and validating one, its JSON Schema.

A level is a folder under `levels/` holding `level.toml` (plus a README and a CHANGELOG);
what the file may say is the data model of `world.level`. This module turns a file into a
`Level`:

`load_level(path_or_name)` reads a file, a level folder or a shipped level's name and
returns a frozen `Level`, or raises `engine.datafile.DataFileError` with every problem of
the file as one line `FILE:LINE: key.path: expected …, got …` (syntax, types, bounds, then
the semantic checks of `world.level_checks`). `parse_level(text)` does the same for text.

`level_json_schema()` is the format as JSON Schema, for editors; `python -m world.level_file`
writes it to `levels/level.schema.json`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from engine.datafile import DataFileError, TomlSource, parse_toml, pydantic_errors, read_toml
from world.level import FORMAT_VERSION, Level
from world.level_checks import semantic_errors

LEVELS_DIR = Path(__file__).resolve().parent.parent / "levels"  # the shipped levels, one folder each
LEVEL_FILE = "level.toml"  # the file in a level folder


def level_path(path_or_name: str | Path) -> Path:
    """A shipped level's name ("street"), a level folder or a level file → the file's path."""
    candidate = Path(path_or_name)
    if isinstance(path_or_name, str) and "/" not in path_or_name and "\\" not in path_or_name \
            and not path_or_name.endswith(".toml") and (LEVELS_DIR / path_or_name / LEVEL_FILE).is_file():
        return LEVELS_DIR / path_or_name / LEVEL_FILE
    if candidate.is_dir():
        return candidate / LEVEL_FILE
    return candidate


def shipped_levels() -> list[str]:
    """Names of the levels shipped in `levels/` (one folder each)."""
    if not LEVELS_DIR.is_dir():
        return []
    return sorted(p.name for p in LEVELS_DIR.iterdir() if (p / LEVEL_FILE).is_file())


def load_level(path_or_name: str | Path) -> Level:
    """Read and validate a level; DataFileError lists every problem, one located line each."""
    path = level_path(path_or_name)
    if not path.exists() and isinstance(path_or_name, str) and "/" not in path_or_name and not path_or_name.endswith(".toml"):
        known = ", ".join(shipped_levels()) or "none"
        raise DataFileError([f"{path_or_name}: expected a shipped level name ({known}) or a level file path, got no such level"])
    source = read_toml(path)
    return level_from_source(source)


def parse_level(text: str, path: str | Path = "<level>") -> Level:
    """Validate level TOML given as text (tests, editors); errors name `path`."""
    return level_from_source(parse_toml(text, path))


def level_from_source(source: TomlSource) -> Level:
    """Validate parsed level TOML: the format version, the schema, then the semantic checks."""
    data = source.data
    version = data.get("format_version")
    if version is not None and version != FORMAT_VERSION and isinstance(version, int) and not isinstance(version, bool):
        raise DataFileError([f"{source.locate(('format_version',))}: format_version: expected {FORMAT_VERSION} "
                             f"(this Donify reads level format {FORMAT_VERSION}), got {version}"])
    try:
        level = Level.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(pydantic_errors(source, exc.errors())) from None
    except (RecursionError, OverflowError, ValueError) as exc:  # pathological input pydantic did not wrap
        raise DataFileError([f"{source.path}:1: expected a level, got unusable data ({type(exc).__name__})"]) from None
    errors = semantic_errors(level, source)
    if errors:
        raise DataFileError(errors)
    level._source = str(source.path)
    return level


def level_json_schema() -> dict[str, Any]:
    """The JSON Schema of a level file (written to `levels/level.schema.json`)."""
    schema = Level.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Donify level"
    schema["description"] = ("A Donify level file (levels/NAME/level.toml): metres and degrees, Z up; "
                             "see levels/README.md.")
    return schema


def write_schema(path: str | Path = LEVELS_DIR / "level.schema.json") -> Path:
    """Write the level JSON Schema (atomically) where editors find it."""
    path = Path(path)
    text = json.dumps(level_json_schema(), indent=2, ensure_ascii=False) + "\n"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path


if __name__ == "__main__":  # python -m world.level_file: regenerate levels/level.schema.json
    print(write_schema())
