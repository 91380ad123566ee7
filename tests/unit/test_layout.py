"""The flat arrays' tables (components/layout.py): every quantity declared once, every offset
generated, every slot written, every name round-tripping, and the compiled code reading each
array with its own table's constants."""

from __future__ import annotations

import ast
import inspect
import math
import tomllib
from pathlib import Path

import numpy as np
import pytest

import components.layout as L
from components.flight import Battery, Controller, ExternalWrench, RigidBody, Rotors
from flight import battery, dynamics
from flight.control import attitude, cascade, lab, mixer, rate, stabilised, tick
from flight.control.loops import FlightLoops
from flight.vehicle import DEFAULT_VEHICLE, SPEC, TO_SI, Vehicle, default_vehicle, derive
from tests import model

ROOT = Path(__file__).resolve().parents[2]
FILE = tomllib.loads(DEFAULT_VEHICLE.read_text(encoding="utf-8"))

# the component (or owner) class holding each table's array
OWNERS = {"body": RigidBody, "rotors": Rotors, "battery": Battery, "wrench": ExternalWrench,
          "physics": Vehicle, "gains": Vehicle, "targets": Controller, "lab": Controller}


@pytest.fixture(scope="module")
def tello():
    return default_vehicle()


@pytest.mark.parametrize("table", L.TABLES, ids=lambda t: t.name)
def test_offsets_are_contiguous_without_overlap_and_fill_the_array(table):
    expected = 0
    for row in table.rows:
        assert row.size >= 1, row.name
        assert table.offsets[row.name] == expected, f"{table.name}.{row.name} does not follow the row above"
        expected += row.size
    assert expected == table.size == getattr(L, table.size_constant)
    slots = [table.name_at(i) for i in range(table.size)]  # each slot belongs to exactly one row
    assert [slots.count(row.name) for row in table.rows] == [row.size for row in table.rows]
    with pytest.raises(IndexError):
        table.name_at(table.size)


@pytest.mark.parametrize("table", L.TABLES, ids=lambda t: t.name)
def test_names_round_trip_through_constants_and_offsets(table):
    for row in table.rows:
        offset = getattr(L, row.name.upper())  # name → constant → offset
        assert offset == table.offsets[row.name]
        for k in range(row.size):
            assert table.name_at(offset + k) == row.name  # offset → name
        assert row.unit in L.UNIT_SUFFIX, f"{table.name}.{row.name}: unit {row.unit!r} has no attribute suffix"
        assert row.doc is not None


def test_every_constant_is_declared_once_across_the_tables():
    constants = [row.constant for table in L.TABLES for row in table.rows] + [t.size_constant for t in L.TABLES]
    assert len(constants) == len(set(constants)) == len(L.CONSTANTS)


def test_only_the_vehicle_arrays_have_sources_and_every_row_of_theirs_has_one():
    for table in L.TABLES:
        for row in table.rows:
            if table in L.VEHICLE_TABLES:
                assert isinstance(row.source, (L.FromFile, L.Derived)), f"{table.name}.{row.name}"
            else:
                assert row.source is None, f"{table.name}.{row.name}"


def test_pack_writes_every_slot_of_the_vehicle_arrays(tello):
    values = derive({key: getattr(tello, _attribute(key)) for key in SPEC})
    for table in L.VEHICLE_TABLES:
        packed = table.pack(values)  # starts from NaN
        assert not np.isnan(packed).any(), [table.name_at(i) for i in np.flatnonzero(np.isnan(packed))]
    assert np.isfinite(tello.physics).all() and np.isfinite(tello.gains).all()
    assert tello.physics.shape == (L.PHYSICS_SIZE,) and tello.gains.shape == (L.GAINS_SIZE,)
    missing = dict(values)
    del missing["motor_time_constant_up"]
    with pytest.raises(KeyError):
        L.PHYSICS.pack(missing)


def _attribute(key: str) -> str:
    table = next(t for t in L.VEHICLE_TABLES if key in t.offsets)
    return table.attribute(table.row(key))


def _file_entry(key: str) -> tuple[str, dict]:
    for section in ("params", "control"):
        if key in FILE[section]:
            return section, FILE[section][key]
    raise KeyError(key)


def test_every_vehicle_file_entry_is_a_row_and_every_file_row_an_entry():
    in_file = {(section, key) for section in ("params", "control") for key in FILE[section]}
    in_tables = {(row.source.section, row.name) for table in L.VEHICLE_TABLES for row in table.rows
                 if isinstance(row.source, L.FromFile)}
    assert in_file == in_tables
    assert set(SPEC) == {key for _, key in in_tables}


def test_file_key_constant_and_vehicle_attribute_name_the_same_slot(tello):
    """[section.key] in the file ↔ KEY ↔ Vehicle.key_<unit>: the file's value, converted to SI,
    is what the array holds at KEY and what the attribute reads."""
    for table in L.VEHICLE_TABLES:
        array = getattr(tello, table.name)
        for row in table.rows:
            offset = getattr(L, row.name.upper())
            stored = array[offset:offset + row.size]
            attribute = getattr(tello, table.attribute(row))
            assert np.array_equal(np.atleast_1d(attribute), stored), row.name
            if isinstance(row.source, L.FromFile):
                section, entry = _file_entry(row.name)
                assert (section, entry["unit"]) == (row.source.section, row.source.unit)
                si_unit, factor = TO_SI.get(entry["unit"], (entry["unit"], 1.0))
                assert si_unit == row.unit
                assert np.allclose(stored, np.atleast_1d(entry["value"]) * factor, rtol=1e-15, atol=0.0), row.name


def test_attribute_names_carry_the_si_unit(tello):
    assert tello.motor_time_constant_up_s == model.TAU_UP
    assert tello.max_motor_speed_rad_s == pytest.approx(model.MAX_RPM * model.RPM)
    assert tello.battery_energy_j == pytest.approx(model.ENERGY_WH * 3600.0)
    assert tello.inertia_kgm2 == model.INERTIA
    assert tello.max_tilt_rad == pytest.approx(math.radians(25.0))
    assert tello.thrust_coefficient == model.KT  # a coefficient: its name says what it is


def test_derived_rows_follow_their_formulas(tello):
    """Each derivation against docs/model.md's figures, computed here independently."""
    assert tello.disc_area_m2 == pytest.approx(math.pi * (model.PROP_D / 2) ** 2, rel=1e-15)
    assert tello.rotor_x_m == (model.ARM_X, -model.ARM_X, -model.ARM_X, model.ARM_X)
    assert tello.rotor_y_m == (-model.ARM_Y, -model.ARM_Y, model.ARM_Y, model.ARM_Y)
    assert tello.tan_max_tilt == pytest.approx(math.tan(math.radians(25.0)), rel=1e-15)
    assert tello.yaw_weight == pytest.approx(6.0 / 7.0)  # yaw_attitude_gain / attitude_gain
    assert tello.outer_divider == 240.0 / 120.0
    assert tello.translation_share == pytest.approx(1.0 - tello.thrust_reserve)
    # the mixer's allocation inverse: (ΣT, Σ yT, −Σ xT, −Σ spin k T) of its columns is the identity
    spin = (1.0, -1.0, 1.0, -1.0)  # motors 0 and 2 counter-clockwise (docs/model.md#units-and-frames)
    allocation = np.array([[1.0] * 4, tello.rotor_y_m, [-x for x in tello.rotor_x_m],
                           [-s * model.REACTION for s in spin]])
    assert np.allclose(allocation @ np.array(tello.mix).reshape(4, 4), np.eye(4), atol=1e-12)


def test_no_vehicle_attribute_shadows_another_or_a_member_of_the_vehicle():
    attributes = [table.attribute(row) for table in L.VEHICLE_TABLES for row in table.rows]
    assert len(attributes) == len(set(attributes))
    own = {name for name in vars(Vehicle) if not name.startswith("__")} | {"name", "source", "physics", "gains",
                                                                             "control"}
    assert not own & set(attributes)


def test_a_vehicle_is_read_only(tello):
    with pytest.raises(AttributeError):
        tello.mass_kg = 1.0
    with pytest.raises(AttributeError):
        tello.physics = np.zeros(3)


@pytest.mark.parametrize("table", [t for t in L.TABLES if OWNERS.get(t.name) not in (None, Vehicle)],
                         ids=lambda t: t.name)
def test_component_views_are_generated_from_the_tables(table):
    kind = OWNERS[table.name]
    component = kind()
    array = getattr(component, table.array.rsplit(".", 1)[1])
    assert array.shape == (table.size,)
    assert np.array_equal(array, table.fresh())
    for row in table.rows:
        if not row.view:
            continue
        name = table.attribute(row)
        offset = table.offsets[row.name]
        values = [0.5 + offset + k for k in range(row.size)]
        if row.unit == "flag":
            values = [1.0]
        setattr(component, name, values if row.size > 1 else values[0])
        assert list(array[offset:offset + row.size]) == values, f"{kind.__name__}.{name}"
        read = getattr(component, name)
        if row.unit == "flag":
            assert read is True
        elif row.size > 1:
            read[0] = -1.0  # a view: writing it writes the array
            assert array[offset] == -1.0
    with pytest.raises(TypeError):
        kind(no_such_field=1.0)


def test_unit_suffixes_name_the_component_fields():
    assert {"speed_rad_s", "thrust_command_n", "max_speed_rad_s", "armed"} <= set(vars(Rotors))
    assert {"energy_j", "open_circuit_voltage_v", "depleted"} <= set(vars(Battery))
    assert {"position", "angular_velocity", "previous_quaternion"} <= set(vars(RigidBody))  # the frame says the units
    assert {"force_n", "torque_nm", "frame"} <= set(vars(ExternalWrench))


def test_the_controller_setpoints_are_the_arrays_the_control_tick_reads():
    ctrl = Controller(motor_power=0.25, target_altitude=3.0, lab_stick=(0.5, -0.5))
    assert ctrl.mode == "manual" and ctrl.hold_altitude is True and ctrl.hold_position is None
    assert ctrl.targets[L.MOTOR_POWER] == 0.25 and ctrl.targets[L.TARGET_ALTITUDE] == 3.0
    assert list(ctrl.lab[L.LAB_STICK:L.LAB_STICK + 2]) == [0.5, -0.5]
    ctrl.target_velocity[2] = -1.5  # a view, as the assists write it
    assert ctrl.targets[L.TARGET_VELOCITY + 2] == -1.5
    ctrl.hold_position = [4.0, 5.0]
    assert ctrl.targets[L.HOLD_POSITION_SET] == 1.0 and list(ctrl.hold_position) == [4.0, 5.0]
    assert list(ctrl.targets[L.HOLD_POSITION:L.HOLD_POSITION + 2]) == [4.0, 5.0]
    ctrl.hold_position = None
    assert ctrl.targets[L.HOLD_POSITION_SET] == 0.0 and ctrl.hold_position is None
    ctrl.hold_altitude = False
    assert ctrl.targets[L.HOLD_ALTITUDE] == 0.0


def test_loop_state_resets_to_its_table_with_the_present_heading(tello):
    loops = FlightLoops(tello)
    loops.state[:] = 7.0
    yaw = 0.3
    q = (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))
    loops.reset(q)
    assert loops.state[L.HEADING] == pytest.approx(yaw, abs=1e-15)
    expected = L.LOOP_STATE.fresh()
    expected[L.Q_SP:L.Q_SP + 4] = q
    expected[L.HEADING] = loops.state[L.HEADING]
    assert list(loops.state) == list(expected)  # every integrator and flag back to its initial value
    assert loops.state[L.TORQUE_SCALE_RP] == loops.state[L.TORQUE_SCALE_YAW] == 1.0


# -- the compiled code reads each array with its own table's constants ---------------------------
ARRAYS = {"body": L.BODY, "rotors": L.ROTORS, "battery": L.BATTERY, "wrench": L.WRENCH, "physics": L.PHYSICS,
          "gains": L.GAINS, "loop_state": L.LOOP_STATE, "targets": L.TARGETS, "lab": L.LAB}


def _index(node: ast.AST) -> tuple[str, int] | None:
    """(constant, added k) of `C`, `C + k`, or a slice starting at one of them."""
    if isinstance(node, ast.Slice):
        node = node.lower
    if isinstance(node, ast.Name) and node.id.isupper():
        return node.id, 0
    if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.left, ast.Name)
            and node.left.id.isupper()):
        return node.left.id, node.right.value if isinstance(node.right, ast.Constant) else 0
    return None


def test_compiled_code_indexes_each_array_with_its_own_tables_constants():
    wrong, checked = [], 0
    for path in sorted((ROOT / "flight").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in ARRAYS:
                index = _index(node.slice)
                if index is None:
                    continue
                table = ARRAYS[node.value.id]
                constant, k = index
                names = {row.constant: row for row in table.rows}
                checked += 1
                if constant not in names or k >= names[constant].size:
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}[{constant} + {k}]")
    assert wrong == []
    assert checked > 200  # the check does see the compiled code


def test_the_dynamics_read_physics_only_and_the_controllers_say_what_they_read():
    for fn in (dynamics.step_dynamics, dynamics.step_dynamics_with_wrench, dynamics.step_body, dynamics.step_motors, dynamics.rotor_thrust,
               battery.step_battery, battery.fill, battery.electrical_power):
        params = inspect.signature(fn.py_func if hasattr(fn, "py_func") else fn).parameters
        assert "physics" in params and "gains" not in params, fn.__name__
    for fn in (tick.control_tick, stabilised.stabilised_update, stabilised.stabilised_outer, lab.angle_update,
               lab.acro_update, cascade.from_rates, cascade.from_attitude, rate.rate_update, attitude.attitude_update,
               mixer.mix):
        params = list(inspect.signature(fn.py_func if hasattr(fn, "py_func") else fn).parameters)
        assert "gains" in params and "p" not in params and "ctl" not in params, fn.__name__


def test_the_compiled_code_cache_is_named_after_the_layout_too(tmp_path, monkeypatch):
    """The offsets are compiled in as constants: an edit of the layout must not run stale code."""
    import shutil

    import flight.jit as jit

    checkout = tmp_path / "checkout"
    shutil.copytree(ROOT / "flight", checkout / "flight", ignore=shutil.ignore_patterns("__pycache__"))
    (checkout / "components").mkdir()
    layout = checkout / "components" / "layout.py"
    shutil.copy(L.__file__, layout)
    monkeypatch.setenv("DONIFY_JIT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(jit, "_FLIGHT", checkout / "flight")
    monkeypatch.setattr(jit, "_LAYOUT", layout)
    shutil.copytree(ROOT / "world", checkout / "world", ignore=shutil.ignore_patterns("__pycache__"))
    before = jit._cache_dir()
    layout.write_text(layout.read_text(encoding="utf-8") + "\n# a row moved\n", encoding="utf-8")
    after = jit._cache_dir()
    assert after.parent == before.parent and after.name != before.name
    # the contacts and the whole ticks (world/) call the flight kernels: an edit there counts too
    contacts = checkout / "world" / "collision.py"
    contacts.write_text(contacts.read_text(encoding="utf-8") + "\n# a contact rule changed\n", encoding="utf-8")
    assert jit._cache_dir().name != after.name
