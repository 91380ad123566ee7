"""The main job: `donify` plays; with no display it says so and flies the headless demo."""

import subprocess
import sys

from game import cli


def test_no_display_runs_the_demo_flight(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert cli.main([]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "donify: no display found: running the headless demo flight instead of the window"
    assert out[1].startswith("Donify demo flight — level 'street'")
    summary = "\n".join(out)
    assert "landed             yes, motors cut" in summary
    assert "cruise asked: 8 m/s x MotorPower = 4.0 m/s" in summary


def test_bad_level_is_one_line_and_exit_1(tmp_path):
    bad = tmp_path / "level.toml"
    bad.write_text("format_version = 1\nname = 3\n")
    run = subprocess.run([sys.executable, "-m", "game.cli", "demo", "--level", str(bad)],
                         capture_output=True, text=True, env={"PYGLET_HEADLESS": "1", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert all(line.startswith(str(bad)) for line in run.stderr.strip().splitlines())


def test_usage_errors_exit_2(capsys):
    assert cli.main(["bench", "--runs", "0"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_argparse_errors_are_one_line_too(capsys):
    import pytest

    for argv in (["fly", "--bogus"], ["nosuch"], ["bench", "--runs", "x"]):
        with pytest.raises(SystemExit) as exc:
            cli.main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("donify") and "--help" in err
