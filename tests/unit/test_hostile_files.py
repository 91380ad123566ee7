"""Hostile files: whatever a level, flight script or settings file holds — or is — the answer is
one clear line naming the file, the place and what was expected, never a traceback nor a hang;
writers leave no temporary behind, even when killed; the compiled-code cache keeps what is not
its own.

- deep nesting (arrays, inline tables, dotted tables) and integers no 64-bit field can hold;
- a named pipe, a link to an endless device, an oversized file (refused, not read);
- many problems: reported in time linear in the file (its lines are indexed once), the first
  20 one by one and the rest counted in one more line;
- a UTF-8 byte-order mark, as Windows editors write it;
- `donify fly --telemetry` stopped by SIGTERM or SIGKILL (real subprocesses), settings saves
  killed mid-write, settings files that are symbolic links;
- the numba cache folder shared by several checkouts of Donify.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine import datafile
from engine.datafile import (MAX_DATA_FILE_BYTES, MAX_NESTING_DEPTH, MAX_REPORTED_PROBLEMS, DataFileError,
                             check_regular_file, parse_toml, read_bytes)
from game import atomic
from game.script import load_script, parse_script
from game.settings import Settings, load_settings
from world.level_file import LEVELS_DIR, level_from_source, load_level, parse_level

ROOT = Path(__file__).resolve().parents[2]
DONIFY = Path(sys.executable).parent / "donify"
ONE_LINE = re.compile(r"^\S+:\d+: .*expected .+, got .+$")  # FILE:LINE: … expected …, got …
STREET = (LEVELS_DIR / "street" / "level.toml").read_text(encoding="utf-8")
SCRIPT = '[[timeline]]\nat = 0.0\nrt = 1.0\nfor = 1.0\n'
MINIMAL_LEVEL = 'format_version = 1\nname = "x"\nspawn_pad = "s"\n[[pads]]\nid = "s"\nposition = [0, 0]\nrole = "start"\n'


def one_line(exc: pytest.ExceptionInfo[DataFileError], path: Path | str, line: int | None = None) -> str:
    lines = exc.value.lines
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{path}:{'' if line is None else line}"), lines[0]
    assert "\n" not in lines[0] and "Traceback" not in lines[0]
    return lines[0]


# -- deep nesting and huge integers ---------------------------------------------------------------
DEEP_TEXTS = {
    "arrays": "x = " + "[" * 1000 + "]" * 1000 + "\n",
    "inline tables": "x = " + "{a = " * 1000 + "1" + "}" * 1000 + "\n",
    "arrays the parser survives": "x = " + "[" * 200 + "]" * 200 + "\n",
    "dotted header": "[" + ".".join(["a"] * 1000) + "]\nb = 1\n",
}


@pytest.mark.parametrize("kind", sorted(DEEP_TEXTS))
def test_deep_nesting_in_a_level_or_a_script_is_one_located_line(tmp_path, kind):
    for loader in (load_level, load_script):
        path = tmp_path / "deep.toml"
        path.write_text('name = "deep"\n' + DEEP_TEXTS[kind], encoding="utf-8")
        with pytest.raises(DataFileError) as exc:
            loader(path)
        assert f"nested at most {MAX_NESTING_DEPTH} deep" in one_line(exc, path, 2)


def test_deep_nesting_in_the_settings_file_warns_once_and_the_game_starts(tmp_path):
    for text in DEEP_TEXTS.values():
        (tmp_path / "settings.toml").write_text('language = "fr"\n' + text, encoding="utf-8")
        settings = load_settings(tmp_path)
        assert settings.language == "en" and len(settings.warnings) == 1, settings.warnings
        assert settings.warnings[0].startswith(f"{tmp_path / 'settings.toml'}:2: ")
        assert "nested at most" in settings.warnings[0]


def test_a_5000_digit_integer_is_a_bad_file_not_a_usage_error(tmp_path, capsys):
    from game.cli import main

    path = tmp_path / "level.toml"
    path.write_text(MINIMAL_LEVEL + "[ground]\nheight = " + "9" * 5000 + "\n", encoding="utf-8")
    assert main(["check-level", str(path)]) == 1  # was 2, a "usage error" naming no file
    err = capsys.readouterr().err.splitlines()
    assert err == [f"{path}:9: expected an integer from -2^63 to 2^63-1 (TOML's range), got one of 5000 digits"]


@pytest.mark.parametrize("digits, got", [(20, "7" * 20), (400, "an integer of 400 digits"),
                                         (4000, "an integer of 4000 digits")])
def test_integers_outside_64_bits_are_refused_where_they_are(tmp_path, digits, got):
    # 7…7 (400 digits) used to reach `math.isfinite` in the script checks: OverflowError there
    path = tmp_path / "s.toml"
    path.write_text(SCRIPT + "[[timeline]]\nat = " + "7" * digits + "\ntap = \"A\"\n", encoding="utf-8")
    with pytest.raises(DataFileError) as exc:
        load_script(path)
    line = one_line(exc, path, 6)
    assert line.endswith(f"timeline.1.at: expected an integer from -2^63 to 2^63-1 (TOML's range), got {got}")
    assert parse_toml(f"x = {2**63 - 1}\ny = {-2**63}\n", "ok.toml").data == {"x": 2**63 - 1, "y": -2**63}


def test_describe_never_fails_on_a_huge_integer():
    assert datafile.describe(10**5000) == "an integer of about 5001 digits"
    assert datafile.describe(10**50) == "an integer of 51 digits"


# -- what is not a regular file, or too big -------------------------------------------------------
def _unblock_fifo(path: Path) -> None:
    """Give a reader stuck opening `path` its end of file, so a failing test fails, not hangs."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass


def _finishes(fn, timeout_s: float = 20.0):
    """fn()'s outcome (value or exception), asserting it came within `timeout_s`."""
    outcome: dict = {}

    def run():
        try:
            outcome["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 (handed back to the test)
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout_s)
    return thread, outcome


def test_a_named_pipe_is_refused_at_once_as_a_level_a_script_or_settings(tmp_path):
    fifo = tmp_path / "settings.toml"
    os.mkfifo(fifo)
    for load in (lambda: load_level(fifo), lambda: load_script(fifo), lambda: read_bytes(fifo),
                 lambda: check_regular_file(fifo), lambda: load_settings(tmp_path)):
        thread, outcome = _finishes(load)
        if thread.is_alive():
            _unblock_fifo(fifo)
            pytest.fail("reading a named pipe blocked")
        if "error" in outcome:
            assert isinstance(outcome["error"], DataFileError)
            assert outcome["error"].lines == [f"{fifo}: expected a TOML file (a regular file), got a named pipe (FIFO)"]
        else:  # the settings: a warning and the defaults
            settings = outcome["value"]
            assert settings == Settings()
            assert settings.warnings == [f"{fifo}: expected a TOML file (a regular file), got a named pipe (FIFO); "
                                         "using the default settings"]


def test_a_link_to_an_endless_device_is_refused_unread(tmp_path):
    link = tmp_path / "level.toml"
    link.symlink_to("/dev/zero")
    thread, outcome = _finishes(lambda: load_level(link))
    assert not thread.is_alive(), "read /dev/zero"
    assert outcome["error"].lines == [f"{link}: expected a TOML file (a regular file), got a character device"]


def test_an_oversized_file_is_refused_unread(tmp_path):
    big = tmp_path / "level.toml"
    with open(big, "wb") as f:  # sparse: costs no disk
        f.truncate(MAX_DATA_FILE_BYTES + 1)
    with pytest.raises(DataFileError) as exc:
        load_level(big)
    assert exc.value.lines == [f"{big}: expected a TOML file of at most 64 MiB, got 67,108,865 bytes"]
    with pytest.raises(DataFileError):
        check_regular_file(big)
    check_regular_file(big, max_bytes=MAX_DATA_FILE_BYTES + 1)  # the cap is the caller's
    with pytest.raises(DataFileError) as exc:
        check_regular_file(tmp_path, expected="a mod file")
    assert exc.value.lines == [f"{tmp_path}: expected a mod file (a regular file), got a directory"]

    settings_file = tmp_path / "settings.toml"
    settings_file.write_bytes(b"# padding\n" * 200_000)  # 2 MB of comments: valid TOML, not settings
    settings = load_settings(tmp_path)
    assert settings == Settings() and len(settings.warnings) == 1
    assert "expected a TOML file of at most 1 MiB" in settings.warnings[0]


# -- many problems ---------------------------------------------------------------------------------
def _bad_boxes(count: int) -> str:
    boxes = "".join(f'[[boxes]]\nid = "b{i}"\nposition = [{i % 100}, 50]\nsize = [1, 1, -1]\n' for i in range(count))
    return MINIMAL_LEVEL + boxes


def test_20000_invalid_boxes_are_located_with_one_pass_over_the_lines_and_counted():
    # Before: each problem's line was searched from the top of the file, O(lines × problems):
    # 20 000 boxes took over 20 minutes. Now the lines are indexed once.
    source = parse_toml(_bad_boxes(20_000), "big.toml")
    with pytest.raises(DataFileError) as exc:
        level_from_source(source)
    assert source.line_scans == 1
    assert exc.value.problems == 20_000
    lines = exc.value.lines
    assert len(lines) == MAX_REPORTED_PROBLEMS + 1
    for i, line in enumerate(lines[:-1]):
        assert line == f"big.toml:{8 + 4 * i + 3}: boxes.{i}.size.2: expected greater than 0, got -1"
    assert lines[-1] == (f"big.toml:{8 + 4 * 20 + 3}: … and 19980 more problems "
                         "(the first of them here; fix these and check again)")


def test_a_few_problems_are_all_reported():
    with pytest.raises(DataFileError) as exc:
        parse_level(_bad_boxes(MAX_REPORTED_PROBLEMS + 1), "few.toml")
    assert exc.value.problems == len(exc.value.lines) == MAX_REPORTED_PROBLEMS + 1  # no "… and 1 more"


def test_a_2000_entry_script_loads_with_one_pass_over_its_lines():
    text = "".join(f'[[timeline]]\nat = {i * 0.1:.1f}\ntap = "A"\n\n' for i in range(2000))
    script = parse_script(text, "long.toml")
    assert len(script.entries) == 2000 and script.source.line_scans == 1
    assert script.lines[0] == 1 and script.lines[1999] == 1 + 4 * 1999
    assert script.where(1999, "tap") == f"long.toml:{3 + 4 * 1999}"


def test_lines_are_found_for_headers_keys_dotted_keys_and_inline_arrays():
    text = ('a = 1\n[t]\nb.c = 2\n[[arr]]\nx = 1\n[[arr]]\nx = 2\n[t.sub]\nd = 3\n'
            'inline = [{x = 1}, {x = 2}]\n')
    source = parse_toml(text, "f.toml")
    expect = {("a",): 1, ("t",): 2, ("t", "b"): 3, ("t", "b", "c"): 3, ("arr",): 4, ("arr", 0): 4,
              ("arr", 1, "x"): 7, ("arr", 1, "x", 0): 7, ("t", "sub", "d"): 9, ("t", "sub", "inline", 1, "x"): 10,
              ("nowhere",): 1, ("t", "missing"): 2}
    assert {path: source.line_of(path) for path in expect} == expect


# -- the byte-order mark ---------------------------------------------------------------------------
def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    bom = b"\xef\xbb\xbf"
    level = tmp_path / "level.toml"
    level.write_bytes(bom + STREET.encode("utf-8"))
    assert load_level(level).name == load_level("street").name
    script = tmp_path / "s.toml"
    script.write_bytes(bom + SCRIPT.encode())
    assert load_script(script).entries[0].rt == 1.0
    (tmp_path / "settings.toml").write_bytes(bom + b'language = "fr"\n')
    settings = load_settings(tmp_path)
    assert settings.language == "fr" and settings.warnings == []
    assert parse_toml("\ufeffx = 1\n", "editor").data == {"x": 1}
    bad = tmp_path / "bad.toml"
    bad.write_bytes(bom + b"x = \n")
    with pytest.raises(DataFileError) as exc:
        load_level(bad)
    one_line(exc, bad, 1)  # lines are still counted from the first


# -- temporaries of killed writers -----------------------------------------------------------------
def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def _start_flying(out: Path) -> subprocess.Popen:
    """A long `donify fly --telemetry` in its own process, once it has started writing."""
    env = {**os.environ, "PYGLET_HEADLESS": "1"}
    proc = subprocess.Popen([str(DONIFY), "fly", "--script", str(ROOT / "examples" / "street_manual.toml"),
                             "--seconds", "3600", "--telemetry", str(out)],
                            cwd=out.parent, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300.0  # a cold numba cache compiles the flight code first
    while time.monotonic() < deadline and proc.poll() is None:
        if any(p.stat().st_size > 0 for p in out.parent.glob(f".{out.name}.*.tmp")):
            return proc
        time.sleep(0.1)
    proc.kill()
    stdout, stderr = proc.communicate()
    pytest.fail(f"donify fly wrote no telemetry (exit {proc.returncode}): {stderr.decode()[-2000:]}")


def test_sigterm_during_fly_removes_the_telemetry_temporary(tmp_path):
    out = tmp_path / "out.jsonl"
    proc = _start_flying(out)
    proc.send_signal(signal.SIGTERM)
    try:
        _, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM
    assert b"Traceback" not in stderr
    assert list(tmp_path.iterdir()) == []  # neither a partial output nor a temporary


def test_after_a_sigkill_the_next_fly_to_the_same_file_removes_the_temporary(tmp_path):
    from game.fly import fly

    out = tmp_path / "out.jsonl"
    proc = _start_flying(out)
    proc.kill()
    proc.communicate(timeout=60)
    left = _temporaries(tmp_path)
    assert len(left) == 1 and re.fullmatch(rf"\.out\.jsonl\.{proc.pid}-\w+\.tmp", left[0]), left

    fly(load_script(ROOT / "examples" / "street_manual.toml"), seconds=0.1, telemetry=out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_stale_temporaries_go_and_live_or_foreign_ones_stay(tmp_path):
    target = tmp_path / "settings.toml"
    dead = tmp_path / f".settings.toml.{_dead_pid()}-abc123.tmp"
    mine = tmp_path / f".settings.toml.{os.getpid()}-abc123.tmp"  # a write in progress here
    old = tmp_path / f".settings.toml.{os.getpid()}-old999.tmp"
    other = tmp_path / f".other.toml.{_dead_pid()}-abc123.tmp"  # another file's
    unrelated = tmp_path / ".settings.toml.swp"
    for p in (dead, mine, old, other, unrelated):
        p.write_text("x")
    hour_ago = time.time() - atomic.STALE_AFTER_S - 1
    os.utime(old, (hour_ago, hour_ago))
    assert sorted(atomic.remove_stale_temporaries(target)) == sorted([dead, old])
    assert _temporaries(tmp_path) == sorted(p.name for p in (mine, other, unrelated))


def test_a_settings_save_killed_mid_write_is_cleaned_at_the_next_start(tmp_path):
    """A real process saving the settings, SIGKILLed with its temporary half written."""
    code = ("import sys, time\nfrom pathlib import Path\nimport game.settings as gs\n"
            "real = Path.write_text\n"
            "def half(self, text, *a, **k):\n"
            "    real(self, text[: len(text) // 2], *a, **k)\n"
            "    print('writing', flush=True)\n"
            "    time.sleep(120)\n"
            "Path.write_text = half\n"
            f"gs.Settings().save({str(tmp_path / 'settings.toml')!r})\n")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE)
    try:
        assert proc.stdout.readline() == b"writing\n"
    finally:
        proc.kill()
        proc.communicate(timeout=60)
    assert len(_temporaries(tmp_path)) == 1 and not (tmp_path / "settings.toml").exists()
    settings = load_settings(tmp_path)  # the game's next start
    assert settings == Settings() and settings.warnings == []
    assert list(tmp_path.iterdir()) == []


def test_saving_through_a_symlinked_settings_file_keeps_the_link(tmp_path):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "donify.toml"
    real.write_text('language = "fr"\n')
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.toml").symlink_to(real)
    settings = load_settings(config)
    assert settings.language == "fr"
    settings.set("audio.master", 0.5)
    assert settings.save()
    assert (config / "settings.toml").is_symlink() and os.readlink(config / "settings.toml") == str(real)
    assert load_settings(config).audio.master == 0.5 and 'language = "fr"' in real.read_text()
    assert _temporaries(dotfiles) == [] and sorted(p.name for p in config.iterdir()) == ["settings.toml"]


# -- the compiled-code cache -----------------------------------------------------------------------
def test_the_jit_cache_cleans_only_its_own_older_caches(tmp_path, monkeypatch):
    import flight.jit as jit

    monkeypatch.setenv("DONIFY_JIT_CACHE", str(tmp_path))
    here = jit._cache_dir()
    mine = here.parent
    numba_root = mine.parent
    assert numba_root == tmp_path / "numba" and here.name != mine.name
    other_checkout = numba_root / "0123456789abcdef" / "fedcba9876543210"
    legacy = numba_root / "aaaaaaaaaaaaaaaa"  # an older Donify's layout: whose, nobody can tell
    my_old = mine / "1111111111111111"
    not_a_cache = mine / "notes"
    for folder in (other_checkout, legacy, my_old, not_a_cache):
        folder.mkdir(parents=True)
        (folder / "f.nbi").write_text("x")
    assert jit._cache_dir() == here
    assert other_checkout.is_dir() and legacy.is_dir() and not_a_cache.is_dir()
    assert not my_old.exists()
