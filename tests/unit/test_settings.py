"""The settings file (issue #3 item 3): found in the user's config directory (overridable),
TOML read; a corrupt file or a bad setting → that setting's default with ONE warning line
naming the file, the key and what was expected, never an exception, and the file is never
rewritten by loading; saving is atomic."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import platformdirs
import pytest
import tomllib
from hypothesis import HealthCheck, given, settings as hsettings
from hypothesis import strategies as st

import game.settings as gs
from game.input.keyboard import DEFAULT_KEYS
from game.settings import Settings, load_settings


def write(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "settings.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def assert_one_line_each(settings: Settings, count: int, path: Path) -> None:
    assert len(settings.warnings) == count, settings.warnings
    for line in settings.warnings:
        assert "\n" not in line and str(path) in line


# -- where ----------------------------------------------------------------------------------
def test_default_location_is_the_platform_user_config_dir(monkeypatch):
    monkeypatch.delenv("DONIFY_CONFIG_DIR", raising=False)
    assert gs.settings_path() == Path(platformdirs.user_config_dir("donify", appauthor=False)) / "settings.toml"


def test_env_var_and_argument_override_the_location(tmp_path, monkeypatch):
    monkeypatch.setenv("DONIFY_CONFIG_DIR", str(tmp_path / "env"))
    assert gs.settings_path() == tmp_path / "env" / "settings.toml"
    assert gs.settings_path(tmp_path / "arg") == tmp_path / "arg" / "settings.toml"
    assert load_settings(tmp_path / "arg").path == tmp_path / "arg" / "settings.toml"


def test_a_missing_file_gives_the_defaults_silently_and_is_not_created(tmp_path):
    settings = load_settings(tmp_path)
    assert settings == Settings() and settings.warnings == []
    assert not (tmp_path / "settings.toml").exists()


def test_defaults():
    s = Settings()
    assert s.language == "en" and s.input.backend == "pyglet" and s.camera.default_view == "chase"
    assert 0.0 <= s.audio.master <= 1.0 and s.display.vsync is True
    assert s.controls.keys == DEFAULT_KEYS


# -- a good file ----------------------------------------------------------------------------
def test_a_valid_file_is_read(tmp_path):
    write(tmp_path, """
language = "fr"
[controls]
dead_zone = 0.2
[controls.keys]
climb = ["U", "SPACE"]
[controls.gamepad]
A = "x"
X = "a"
[input]
backend = "inputs"
[display]
vsync = false
fps_cap = 144
fullscreen = true
window_size = [1920, 1080]
[audio]
master = 0.5
motors = 0
ui = 1
[camera]
default_view = "fpv"
""")
    s = load_settings(tmp_path)
    assert s.warnings == []
    assert s.language == "fr" and s.controls.dead_zone == 0.2 and s.controls.keys["climb"] == ("U", "SPACE")
    assert s.controls.gamepad["A"] == "x" and s.controls.gamepad["X"] == "a" and s.input.backend == "inputs"
    assert (s.display.vsync, s.display.fps_cap, s.display.fullscreen, s.display.window_size) == (False, 144, True, (1920, 1080))
    assert (s.audio.master, s.audio.motors, s.audio.effects, s.audio.ui) == (0.5, 0.0, 1.0, 1.0)
    assert s.camera.default_view == "fpv"


# -- a corrupt file -------------------------------------------------------------------------
@pytest.mark.parametrize("content", [
    b"\xff\xfe\x00\x01garbage\x80\x81",  # not text
    b"[audio\nmaster = 0.5\n",            # bad TOML
    b"master = = 3\n",
    b"\x00" * 64,
])
def test_a_corrupt_file_gives_all_defaults_one_warning_and_is_not_clobbered(tmp_path, content, caplog):
    path = write(tmp_path, content)
    with caplog.at_level(logging.WARNING, logger="donify.settings"):
        s = load_settings(tmp_path)
    assert s == Settings()
    assert_one_line_each(s, 1, path)
    assert "expected" in s.warnings[0] and "default" in s.warnings[0]
    assert [r.getMessage() for r in caplog.records] == s.warnings
    assert path.read_bytes() == content  # loading never rewrites the user's file


def test_a_bad_toml_line_is_located(tmp_path):
    path = write(tmp_path, 'language = "en"\n\n[audio]\nmaster = \n')
    (line,) = load_settings(tmp_path).warnings
    assert line.startswith(f"{path}:4:") and "expected valid TOML" in line


@pytest.mark.parametrize(("text", "key", "expected", "line"), [
    ('[audio]\nmaster = "loud"\n', "audio.master", "a number from 0.0 to 1.0", 2),
    ('[audio]\n\nmaster = 1.5\n', "audio.master", "a number from 0.0 to 1.0", 3),
    ("[display]\nvsync = 1\n", "display.vsync", "true or false", 2),
    ("[display]\nwindow_size = [10, 10]\n", "display.window_size", "[width, height]", 2),
    ("[display]\nfps_cap = 5\n", "display.fps_cap", "0 (no cap) or 10 to 1000", 2),
    ("[display]\nfps_cap = 60.5\n", "display.fps_cap", "an integer", 2),
    ('language = "de"\n', "language", '"en", "fr"', 1),
    ('[input]\nbackend = "sdl"\n', "input.backend", '"pyglet", "inputs", "none"', 2),
    ('[camera]\ndefault_view = 3\n', "camera.default_view", '"chase", "fpv", "top"', 2),
    ("[controls]\ndead_zone = -0.1\n", "controls.dead_zone", "a number from 0.0 to 0.9", 2),
    ("[controls]\ndead_zone = nan\n", "controls.dead_zone", "a number from 0.0 to 0.9", 2),
    ("[controls]\ndead_zone = true\n", "controls.dead_zone", "a number", 2),
    ('[controls.keys]\nclimb = "NOT_A_KEY"\n', "controls.keys.climb", "key name", 2),
    ("[controls.keys]\nclimb = 3\n", "controls.keys.climb", "key name", 2),
    ('[controls.gamepad]\nA = "z"\n', "controls.gamepad.A", "a controller button", 2),
])
def test_a_wrong_value_falls_back_to_its_default_with_one_located_warning(tmp_path, text, key, expected, line):
    path = write(tmp_path, text)
    s = load_settings(tmp_path)
    assert s == Settings()
    assert_one_line_each(s, 1, path)
    message = s.warnings[0]
    assert message.startswith(f"{path}:{line}: {key}: expected ") and expected in message
    assert "default" in message


@pytest.mark.parametrize(("text", "key"), [
    ("[audio]\nvolume = 1\n", "audio.volume"),
    ("[nonsense]\nx = 1\n", "nonsense"),
    ("colour = 3\n", "colour"),
    ('[controls.keys]\nfly_to_the_moon = "M"\n', "controls.keys.fly_to_the_moon"),
    ('[controls.gamepad]\nZ = "a"\n', "controls.gamepad.Z"),
])
def test_an_unknown_setting_is_ignored_with_one_warning(tmp_path, text, key):
    path = write(tmp_path, text)
    s = load_settings(tmp_path)
    assert s == Settings()
    assert_one_line_each(s, 1, path)
    assert f": {key}: unknown" in s.warnings[0] and "expected one of" in s.warnings[0]


def test_a_section_that_is_not_a_table(tmp_path):
    path = write(tmp_path, "audio = 3\n")
    s = load_settings(tmp_path)
    assert s == Settings()
    assert_one_line_each(s, 1, path)
    assert "audio: expected a table" in s.warnings[0]


def test_good_settings_beside_bad_ones_are_kept(tmp_path):
    path = write(tmp_path, '[audio]\nmaster = "loud"\nmotors = 0.25\nvolume = 2\n[display]\nvsync = false\n')
    s = load_settings(tmp_path)
    assert s.audio.master == Settings().audio.master and s.audio.motors == 0.25 and s.display.vsync is False
    assert_one_line_each(s, 2, path)


def test_a_key_bound_to_two_actions_is_reported_once_and_both_act(tmp_path):
    path = write(tmp_path, '[controls.keys]\nclimb = "W"\n')
    s = load_settings(tmp_path)
    assert s.controls.keys["climb"] == ("W",) and "W" in s.controls.keys["move_forward"]
    assert_one_line_each(s, 1, path)
    assert "key W is bound to move_forward and climb" in s.warnings[0]


@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)))
def test_any_bytes_never_raise(tmp_path, content):
    write(tmp_path, content)
    s = load_settings(tmp_path)
    assert isinstance(s, Settings)
    assert all("\n" not in w for w in s.warnings)


def test_an_unreadable_path_is_one_warning(tmp_path):
    (tmp_path / "settings.toml").mkdir()
    s = load_settings(tmp_path)
    assert s == Settings() and len(s.warnings) == 1 and "settings.toml" in s.warnings[0]


# -- set and save ---------------------------------------------------------------------------
def test_set_validates_and_names_the_key():
    s = Settings()
    s.set("audio.master", 0.3)
    s.set("controls.keys.climb", ["u", "space"])
    s.set("display.window_size", (800, 600))
    assert s.audio.master == 0.3 and s.controls.keys["climb"] == ("U", "SPACE") and s.display.window_size == (800, 600)
    with pytest.raises(ValueError, match=r"audio\.master: expected a number from 0\.0 to 1\.0"):
        s.set("audio.master", 2)
    with pytest.raises(ValueError, match="unknown setting"):
        s.set("audio.loudness", 1)
    with pytest.raises(ValueError, match="unknown setting"):
        s.set("controls.keys.fly", ["M"])
    assert s.audio.master == 0.3


def test_save_round_trips_and_writes_valid_toml(tmp_path):
    s = load_settings(tmp_path)
    s.set("language", "fr")
    s.set("audio.effects", 0.125)
    s.set("controls.keys.brake", [])
    s.set("controls.gamepad.Y", "rightstick")
    s.set("display.fps_cap", 240)
    assert s.save() is True
    text = (tmp_path / "settings.toml").read_text()
    assert tomllib.loads(text)["audio"]["effects"] == 0.125
    again = load_settings(tmp_path)
    assert again.warnings == [] and again == s


def test_save_creates_the_directory(tmp_path):
    s = load_settings(tmp_path / "new" / "dir")
    assert s.save() and (tmp_path / "new" / "dir" / "settings.toml").is_file()


def test_saving_over_a_corrupt_file_replaces_it_with_the_defaults(tmp_path):
    write(tmp_path, b"\xff\xfe junk")
    s = load_settings(tmp_path)
    assert s.save()
    assert load_settings(tmp_path).warnings == []


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_failed_save_leaves_the_old_file_whole_and_no_temporary_file(tmp_path, monkeypatch, failing):
    old = b"[audio]\nmaster = 0.5\n"
    path = write(tmp_path, old)
    s = load_settings(tmp_path)
    s.set("audio.master", 0.1)

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, failing, disk_full)  # the new text is already in the temporary file
    assert s.save() is False
    assert path.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.toml"]
    assert "settings not saved: No space left on device" in s.warnings[-1] and str(path) in s.warnings[-1]


def test_a_write_interrupted_midway_leaves_the_old_file_whole(tmp_path, monkeypatch):
    old = b'language = "fr"\n'
    path = write(tmp_path, old)
    real_write_text = Path.write_text

    def half_then_interrupted(self, text, *args, **kwargs):
        """The temporary file, interrupted after writing half the text."""
        real_write_text(self, text[: len(text) // 2], *args, **kwargs)
        raise KeyboardInterrupt  # not an OSError: it goes through, but the file is safe

    monkeypatch.setattr(Path, "write_text", half_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        gs.write_text_atomically(path, gs.to_toml(Settings()))
    assert path.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.toml"]


def test_the_settings_command_shows_checks_and_writes(tmp_path, monkeypatch, capsys):
    from game.cli import main

    monkeypatch.setenv("DONIFY_CONFIG_DIR", str(tmp_path))
    assert main(["settings"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith(f"{tmp_path / 'settings.toml'}: no settings file yet")
    assert not (tmp_path / "settings.toml").exists()
    bad = write(tmp_path, "[audio]\nmaster = 3\n")
    assert main(["settings"]) == 1
    assert bad.read_bytes() == b"[audio]\nmaster = 3\n"
    assert main(["settings", "--write"]) == 0
    assert load_settings(tmp_path).warnings == [] and load_settings(tmp_path) == Settings()
