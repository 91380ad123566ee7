"""What scripts/setup-env.sh must do to the project's .venv: nothing, install, or rebuild.

Run by the Python chosen for the venv (3.11 or newer), standard library only:

    python scripts/venv_state.py check VENV EXTRA   prints one line: "ok", "install", "create"
                                                     or "rebuild <reason>"
    python scripts/venv_state.py stamp VENV EXTRA   records a successful install of EXTRA

An install is recorded in VENV/.donify-install (JSON): the hash of pyproject.toml, the
project's folder, the Python version (major.minor) and the extras installed ("" for none,
"[test]"). While those still hold, `./run.sh` and `./test.sh` start without running pip.
A venv made by another Python (pyvenv.cfg's `version`), or whose Python is gone (its
`home`), is rebuilt: after installing Python 3.11 the old venv of 3.9 is not reused.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

STAMP = ".donify-install"


def pyvenv_cfg(venv: Path) -> dict[str, str]:
    """The `key = value` lines of VENV/pyvenv.cfg ({} when there is none)."""
    try:
        text = (venv / "pyvenv.cfg").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    cfg = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            cfg[key.strip().lower()] = value.strip()
    return cfg


def minor_version(text: str) -> str | None:
    """'3.11.7' → '3.11'; None when `text` is not a version."""
    parts = text.strip().split(".")
    if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
        return f"{int(parts[0])}.{int(parts[1])}"
    return None


def install_key(project: Path, python: str) -> dict[str, str]:
    """What an install depends on: pyproject.toml's content, where the project is, the Python."""
    digest = hashlib.sha256((project / "pyproject.toml").read_bytes()).hexdigest()
    return {"pyproject_sha256": digest, "project": str(project.resolve()), "python": python}


def read_stamp(venv: Path) -> dict:
    try:
        stamp = json.loads((venv / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def decide(venv: Path, project: Path, extra: str, python: str) -> str:
    """'ok', 'install', 'create' or 'rebuild <reason>' for a venv at `venv` that must run
    the project at `project` with `extra` installed, on Python `python` ('3.11')."""
    cfg = pyvenv_cfg(venv)
    if not cfg or not (venv / "bin" / "python").exists():
        return "rebuild .venv is incomplete (no pyvenv.cfg or bin/python)" if venv.exists() else "create"
    made_by = minor_version(cfg.get("version", cfg.get("version_info", "")))
    if made_by != python:
        found = cfg.get("version") or cfg.get("version_info") or "an unknown Python"
        return f"rebuild .venv was made by Python {found}; setting it up again with Python {python}"
    home = cfg.get("home")
    if home and not Path(home).is_dir():
        return f"rebuild the Python that made .venv is gone ({home})"
    stamp = read_stamp(venv)
    key = install_key(project, python)
    if any(stamp.get(k) != v for k, v in key.items()):
        return "install"
    if extra and extra not in stamp.get("extras", []):
        return "install"
    if not (venv / "bin" / "donify").exists():
        return "install"
    return "ok"


def write_stamp(venv: Path, project: Path, extra: str, python: str) -> None:
    """Record that `extra` is installed; extras installed before under the same key stay."""
    key = install_key(project, python)
    old = read_stamp(venv)
    extras = set(old.get("extras", [])) if all(old.get(k) == v for k, v in key.items()) else set()
    extras.add(extra)
    stamp = dict(key, extras=sorted(extras))
    tmp = venv / (STAMP + ".tmp")
    tmp.write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")
    tmp.replace(venv / STAMP)


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[0] not in ("check", "stamp"):
        print("usage: venv_state.py check|stamp VENV EXTRA", file=sys.stderr)
        return 2
    command, venv, extra = argv[0], Path(argv[1]), argv[2]
    project = Path(__file__).resolve().parent.parent
    python = f"{sys.version_info[0]}.{sys.version_info[1]}"
    if command == "check":
        print(decide(venv, project, extra, python))
    else:
        write_stamp(venv, project, extra, python)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
