"""The command line as a newcomer meets it: `screenshot` writes where it is asked and refuses a
missing folder, a closed pipe ends quietly, `settings` says whether the file exists, counts
read "1 record", the plot's mode labels do not overlap, and a cold numba cache is announced."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game import cli
from game.wording import counted

ROOT = Path(__file__).resolve().parents[2]


def run(argv, capsys) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# -- screenshot ------------------------------------------------------------------------------
def test_screenshot_defaults_to_a_file_in_the_current_folder():
    output = cli._parser().parse_args(["screenshot"]).output
    assert Path(output).parent == Path(".") and output.endswith(".png")
    assert "docs" not in output


def test_screenshot_refuses_a_missing_folder_and_creates_none(tmp_path, capsys):
    target = tmp_path / "no" / "such" / "shot.png"
    code, out, err = run(["screenshot", "-o", str(target)], capsys)
    assert code == 2
    assert err.count("\n") == 1 and "expected a file in an existing directory" in err and str(target) in err
    assert not (tmp_path / "no").exists()


# -- a closed pipe -----------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [["demo"], ["check-level", "street", "field"]])
def test_a_reader_that_goes_away_ends_the_command_quietly(argv):
    """`donify demo | head -1`: the reader is gone before the output is written."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write to the pipe now fails with EPIPE
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    try:
        result = subprocess.run([sys.executable, "-m", "game.cli", *argv], stdout=write_end, stderr=subprocess.PIPE,
                                text=True, cwd=ROOT, env=env, timeout=300)
    finally:
        os.close(write_end)
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr, result.stderr
    assert result.returncode == 141


# -- settings ----------------------------------------------------------------------------------
def test_settings_says_when_there_is_no_file_yet(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DONIFY_CONFIG_DIR", str(tmp_path))
    code, out, err = run(["settings"], capsys)
    assert code == 0
    assert out.startswith(str(tmp_path / "settings.toml")) and "no settings file yet" in out
    assert "--write" in out
    assert not (tmp_path / "settings.toml").exists()  # saying so writes nothing


def test_settings_says_a_good_file_is_ok_and_counts_problems(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DONIFY_CONFIG_DIR", str(tmp_path))
    code, out, _ = run(["settings", "--write"], capsys)
    assert code == 0 and "written with every setting" in out
    code, out, _ = run(["settings"], capsys)
    assert code == 0 and out.strip() == f"{tmp_path / 'settings.toml'}: ok"
    (tmp_path / "settings.toml").write_text('language = "xx"\n')
    code, out, _ = run(["settings"], capsys)  # the problem itself is a log line
    assert code == 1 and "1 problem " in out


# -- plurals -----------------------------------------------------------------------------------
def test_counted_agrees_with_the_number():
    assert counted(1, "record") == "1 record"
    assert counted(0, "record") == "0 records"
    assert counted(2, "box", "boxes") == "2 boxes"
    assert counted(1, "box", "boxes") == "1 box"


def test_check_level_counts_in_the_singular_where_there_is_one(capsys):
    code, out, _ = run(["check-level", "street", "field"], capsys)
    assert code == 0
    assert "1 platform," in out and "1 cylinder," in out
    assert "1 platforms" not in out and "1 cylinders" not in out


def one_record() -> dict:
    from game.simulation import Simulation  # noqa: PLC0415

    with Simulation() as sim:
        sim.step()
        return sim.telemetry().as_dict()


def test_plot_of_one_record_says_record(tmp_path, capsys):
    telemetry = tmp_path / "one.jsonl"
    telemetry.write_text(json.dumps(one_record()) + "\n")
    code, out, _ = run(["plot", str(telemetry), "-o", str(tmp_path / "one.png")], capsys)
    assert code == 0 and "1 record plotted" in out


def test_fly_summary_counts_in_the_singular(tmp_path, capsys):
    from game.fly import run_fly  # noqa: PLC0415

    script = tmp_path / "s.toml"
    script.write_text("[[timeline]]\nat = 0.0\nrt = 0.0\n")
    out_file = tmp_path / "t.jsonl"
    assert run_fly("field", str(script), str(1 / 60), str(out_file)) == 0
    out = capsys.readouterr().out
    assert "(1 frame)" in out and "1 record in" in out


# -- the plot's mode labels --------------------------------------------------------------------
def record(t: float, mode: str) -> dict:
    return {"time": t, "mode": mode, "position": [0.0, 0.0, 1.0], "velocity": [0.0, 0.0, 0.0],
            "target_velocity": [0.0, 0.0, 0.0], "target_altitude": 1.0, "height_above_ground": 1.0,
            "rpm": [16000.0] * 4, "thrust": [0.2] * 4, "battery_voltage": 4.0, "power_w": 18.0,
            "battery_energy_wh": 4.0 - t / 1000.0}


def test_mode_labels_of_the_plot_do_not_overlap():
    """A two-second take-off followed by the mission and a landing: three readable labels."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415

    from game.plot import flight_figure  # noqa: PLC0415

    records = [record(i / 10, "takeoff" if i < 20 else "mission" if i < 560 else "landing" if i < 590 else "manual")
               for i in range(600)]
    fig = flight_figure(records)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    top = fig.axes[0]
    labels = [(t.get_text().strip(), t.get_window_extent(renderer)) for t in top.texts]
    assert sorted(name for name, _ in labels) == ["landing", "mission", "takeoff"]
    panel = top.get_window_extent(renderer)
    for i, (name, box) in enumerate(labels):
        assert panel.y0 <= box.y0 and box.y1 <= panel.y1 + 1, f"{name} outside the panel"
        for other, other_box in labels[i + 1:]:
            assert not box.overlaps(other_box), f"{name!r} overlaps {other!r}"


# -- the first compile -------------------------------------------------------------------------
def test_a_cold_cache_is_announced_once_on_stderr(monkeypatch, capsys):
    import numba  # noqa: PLC0415

    monkeypatch.setattr(cli._CompileNotice, "shown", False)

    def compile_something(*_args, **_kwargs):
        @numba.njit(cache=False)
        def fresh(x):
            return x + 1

        @numba.njit(cache=False)
        def another(x):
            return x * 2

        fresh(1)
        another(1)
        print("flown")
        return 0

    monkeypatch.setattr(cli, "_demo", compile_something)
    code, out, err = run(["demo"], capsys)
    assert code == 0 and out == "flown\n"
    assert err == cli.COMPILE_NOTICE + "\n"
    assert "first run only" in cli.COMPILE_NOTICE
    code, out, err = run(["demo"], capsys)  # compiled again in this process: said once only
    assert err == ""


def test_a_warm_cache_says_nothing(monkeypatch, capsys):
    monkeypatch.setattr(cli._CompileNotice, "shown", False)
    monkeypatch.setattr(cli, "_demo", lambda *_args, **_kwargs: 0)
    code, _, err = run(["demo"], capsys)
    assert code == 0 and err == ""
