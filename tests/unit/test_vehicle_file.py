"""The vehicle file: validated, with one located line per problem, never a traceback."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.datafile import DataFileError
from flight.vehicle import DEFAULT_VEHICLE, load_vehicle

TEXT = DEFAULT_VEHICLE.read_text()


def broken(tmp_path, old, new):
    assert old in TEXT
    path = tmp_path / "tello.toml"
    path.write_text(TEXT.replace(old, new, 1))
    with pytest.raises(DataFileError) as exc:
        load_vehicle(path)
    return exc.value.lines, path


def line_of(path, needle):
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(needle)


def test_every_entry_has_unit_bounds_kind_and_description():
    import tomllib
    data = tomllib.loads(TEXT)
    for section in ("params", "control"):
        for key, entry in data[section].items():
            assert {"value", "unit", "min", "max", "kind", "description"} <= set(entry), key


def test_out_of_bounds_value(tmp_path):
    lines, path = broken(tmp_path, "value = 0.087", "value = 12.0")
    assert len(lines) == 1
    assert lines[0] == f"{path}:{line_of(path, 'value = 12.0')}: params.mass.value: expected 0.01 ≤ value ≤ 5.0 kg, got 12.0"


def test_wrong_unit(tmp_path):
    lines, path = broken(tmp_path, 'value = 0.035\nunit = "s"', 'value = 35\nunit = "ms"')
    number = line_of(path, 'unit = "ms"')
    assert f"{path}:{number}: params.motor_time_constant_up.unit: expected 's', got 'ms'" in lines
    assert f"{path}:{number - 1}: params.motor_time_constant_up.value: expected 0.001 ≤ value ≤ 1.0 s, got 35.0" in lines


def test_wrong_type_and_missing_key_reported_together(tmp_path):
    text = TEXT.replace("value = 7.2e-8", 'value = "fast"', 1).replace("[params.gravity]", "[params.gravityy]", 1)
    path = tmp_path / "tello.toml"
    path.write_text(text)
    with pytest.raises(DataFileError) as exc:
        load_vehicle(path)
    lines = exc.value.lines
    assert any("params.thrust_coefficient.value" in l and "'fast'" in l for l in lines), lines
    assert all(re.match(rf"{re.escape(str(path))}:\d+: ", l) for l in lines)


def test_unknown_and_missing_entries(tmp_path):
    lines, path = broken(tmp_path, "[params.gravity]", "[params.gravityy]")
    assert any("params.gravity: expected an entry" in l for l in lines)
    assert any("params.gravityy: expected one of the known params entries" in l and f":{line_of(path, 'gravityy')}:" in l for l in lines)


def test_not_toml_and_not_utf8(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("name = \n")
    with pytest.raises(DataFileError) as exc:
        load_vehicle(path)
    assert exc.value.lines[0].startswith(f"{path}:1: expected valid TOML")
    path.write_bytes(b'name = "\xff"\n')
    with pytest.raises(DataFileError) as exc:
        load_vehicle(path)
    assert exc.value.lines == [f"{path}:1: expected UTF-8 text, got byte 0xff"]


def test_nan_is_refused(tmp_path):
    lines, _ = broken(tmp_path, "value = 0.087", "value = nan")
    assert any("params.mass.value" in l and "finite" in l for l in lines)


def test_a_bad_vehicle_file_on_the_command_line_is_one_line_no_traceback(tmp_path):
    path = tmp_path / "tello.toml"
    path.write_text(TEXT.replace("value = 0.087", "value = -1.0", 1))
    code = "import sys; from game.simulation import Simulation; from engine.datafile import DataFileError\n" \
           "try:\n    Simulation(vehicle=sys.argv[1])\nexcept DataFileError as e:\n    print(e); sys.exit(1)"
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert out.stdout.strip().count("\n") == 0 and "params.mass.value" in out.stdout
