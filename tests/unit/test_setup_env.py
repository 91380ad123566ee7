"""scripts/setup-env.sh (behind ./run.sh and ./test.sh): no pip when nothing changed, a venv
made by another Python rebuilt, a python3.1x picked when python3 is too old.

The script runs for real in a temporary copy of the project with a venv made without pip
and a stand-in `pip` that only logs its calls, so no network and no real install is needed.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASE_PYTHON = getattr(sys, "_base_executable", sys.executable)
MINOR = f"{sys.version_info[0]}.{sys.version_info[1]}"



def _venv_state():
    spec = importlib.util.spec_from_file_location("venv_state", ROOT / "scripts" / "venv_state.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FAKE_PIP = """import sys, pathlib
venv = pathlib.Path(sys.prefix)
with open(venv.parent / "pip.log", "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
(venv / "bin" / "donify").write_text("#!/bin/sh\\n")
"""


@pytest.fixture
def project(tmp_path):
    """A copy of what the script reads, with a pip-less venv whose pip only logs."""
    (tmp_path / "scripts").mkdir()
    for name in ("scripts/setup-env.sh", "scripts/venv_state.py", "pyproject.toml"):
        shutil.copy2(ROOT / name, tmp_path / name)
    subprocess.run([BASE_PYTHON, "-m", "venv", "--without-pip", str(tmp_path / ".venv")], check=True)
    site = next((tmp_path / ".venv" / "lib").glob("python3*/site-packages"))
    (site / "pip").mkdir()
    (site / "pip" / "__init__.py").write_text("")
    (site / "pip" / "__main__.py").write_text(FAKE_PIP)
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(BASE_PYTHON)  # python3 is this Python, whatever PATH says
    return tmp_path


def run_setup(project: Path, *args: str, path_first: Path | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DONIFY_PYTHON"}
    env["PATH"] = f"{path_first or project / 'fakebin'}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(["bash", str(project / "scripts" / "setup-env.sh"), *args], capture_output=True,
                          text=True, env=env, timeout=120)


def pip_calls(project: Path) -> list[str]:
    log = project / "pip.log"
    return log.read_text().splitlines() if log.exists() else []


def test_a_second_run_installs_nothing_until_pyproject_or_the_extras_change(project):
    first = run_setup(project)
    assert first.returncode == 0, first.stderr
    assert len(pip_calls(project)) == 1 and pip_calls(project)[0].endswith("-e .")
    assert run_setup(project).returncode == 0
    assert len(pip_calls(project)) == 1  # nothing changed: no pip at all
    assert run_setup(project, "[test]").returncode == 0
    assert pip_calls(project)[-1].endswith("-e .[test]") and len(pip_calls(project)) == 2
    assert run_setup(project).returncode == 0 and run_setup(project, "[test]").returncode == 0
    assert len(pip_calls(project)) == 2  # "[test]" includes the plain install
    with open(project / "pyproject.toml", "a") as fh:
        fh.write("\n# a change\n")
    assert run_setup(project).returncode == 0
    assert len(pip_calls(project)) == 3
    (project / ".venv" / "bin" / "donify").unlink()  # a broken install is not "nothing changed"
    assert run_setup(project).returncode == 0
    assert len(pip_calls(project)) == 4


def test_python3_too_old_picks_a_python3_1x(project):
    fakes = project / "oldbin"
    fakes.mkdir()
    (fakes / "python3").write_text("#!/bin/sh\n[ \"$1\" = --version ] && echo 'Python 3.9.2'\nexit 1\n")
    (fakes / "python3").chmod(0o755)
    for name in ("python3.14", "python3.13", "python3.12"):
        shutil.copy2(fakes / "python3", fakes / name)
    (fakes / "python3.11").symlink_to(BASE_PYTHON)
    result = run_setup(project, path_first=fakes)
    assert result.returncode == 0, result.stderr
    assert len(pip_calls(project)) == 1


def test_no_suitable_python_says_what_to_install(project):
    fakes = project / "oldbin"
    fakes.mkdir()
    for name in ("python3", "python3.14", "python3.13", "python3.12", "python3.11"):
        (fakes / name).write_text("#!/bin/sh\n[ \"$1\" = --version ] && echo 'Python 3.9.2'\nexit 1\n")
        (fakes / name).chmod(0o755)
    result = run_setup(project, path_first=fakes)
    assert result.returncode == 1
    assert "needs Python 3.11 or newer; python3 is Python 3.9.2" in result.stderr
    assert "apt-get install python3.11 python3.11-venv" in result.stderr
    assert pip_calls(project) == []
    assert "Traceback" not in result.stderr


# -- the decision itself (scripts/venv_state.py) ---------------------------------------------
def make_venv(path: Path, version: str, home: Path) -> Path:
    (path / "bin").mkdir(parents=True)
    (path / "bin" / "python").write_text("")
    (path / "pyvenv.cfg").write_text(f"home = {home}\ninclude-system-site-packages = false\nversion = {version}\n")
    return path


def test_a_venv_made_by_another_python_is_rebuilt(tmp_path):
    vs = _venv_state()
    venv = make_venv(tmp_path / ".venv", "3.9.2", tmp_path)
    assert vs.decide(venv, ROOT, "", "3.11").startswith("rebuild .venv was made by Python 3.9.2")
    (venv / "pyvenv.cfg").write_text(f"home = {tmp_path}\nversion_info = 3.12.1.final.0\n")  # uv's key
    assert vs.decide(venv, ROOT, "", "3.11").startswith("rebuild")
    assert vs.decide(venv, ROOT, "", "3.12") == "install"


def test_a_venv_whose_python_is_gone_is_rebuilt(tmp_path):
    vs = _venv_state()
    venv = make_venv(tmp_path / ".venv", "3.11.7", tmp_path / "removed-python" / "bin")
    assert vs.decide(venv, ROOT, "", "3.11").startswith("rebuild the Python that made .venv is gone")


def test_no_venv_is_created_and_a_broken_one_rebuilt(tmp_path):
    vs = _venv_state()
    assert vs.decide(tmp_path / ".venv", ROOT, "", "3.11") == "create"
    (tmp_path / ".venv").mkdir()
    assert vs.decide(tmp_path / ".venv", ROOT, "", "3.11").startswith("rebuild")


def test_the_stamp_is_keyed_on_pyproject_python_project_and_extras(tmp_path):
    vs = _venv_state()
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    venv = make_venv(project / ".venv", "3.11.7", tmp_path)
    (venv / "bin" / "donify").write_text("")
    assert vs.decide(venv, project, "", "3.11") == "install"
    vs.write_stamp(venv, project, "[test]", "3.11")
    assert vs.decide(venv, project, "", "3.11") == "ok"
    assert vs.decide(venv, project, "[test]", "3.11") == "ok"
    vs.write_stamp(venv, project, "", "3.11")  # extras installed under the same key stay
    assert vs.decide(venv, project, "[test]", "3.11") == "ok"
    (project / "pyproject.toml").write_text("[project]\nname = 'x'\ndependencies = ['numpy']\n")
    assert vs.decide(venv, project, "", "3.11") == "install"
    vs.write_stamp(venv, project, "", "3.11")
    assert vs.decide(venv, project, "[test]", "3.11") == "install"  # a new key forgets the old extras
    moved = tmp_path / "moved"
    shutil.copytree(project, moved, symlinks=True)
    assert vs.decide(moved / ".venv", moved, "", "3.11") == "install"
