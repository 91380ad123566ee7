"""The `donify` command line. `donify --help` lists the commands.

Errors in what the user gave (a file, an argument) are one clear line on stderr and a
non-zero exit, never a traceback. Exit codes: 0 success, 1 invalid input found (for
check commands), 2 usage error.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from engine.datafile import DataFileError
from engine.mods import ModError
from game.display import display_problem, is_display_error
from game.wording import counted


class UsageError(Exception):
    """Bad command-line usage: reported in one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (and exit 2), like every other bad input."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="donify", description="Donify: fly a small quadrotor (Ryze Tello with guards).")
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help="open the game window (headless demo flight where there is no display)")
    play.add_argument("--level", default=None,
                      help="level name or path: fly it straight away (default: the title screen, the street behind it)")
    play.add_argument("--demo", action="store_true", help="run the headless demo flight instead of the window")
    play.add_argument("--replay", metavar="R.replay", default=None,
                      help="play a replay file back in the window (its own level; P pause, -/= speed, Backspace restart)")
    play.add_argument("--ghost", metavar="R.replay", default=None,
                      help="race a replay file's drone as a translucent ghost (refused if its level differs)")
    _mod_arguments(play)

    demo = sub.add_parser("demo", help="fly the headless demo and print a flight summary")
    demo.add_argument("--level", default="street", help="level name or path (default: street)")
    _mod_arguments(demo)

    fly = sub.add_parser("fly", help="fly a flight script headless; telemetry as JSON lines and a summary")
    fly.add_argument("--level", help="level name or path (default: the script's level, else street)")
    fly.add_argument("--script", metavar="S.toml", help="the flight script (format: examples/README.md)")
    fly.add_argument("--seconds", metavar="N", help="seconds to fly (default: the script's)")
    fly.add_argument("--telemetry", metavar="OUT.jsonl", help="write one telemetry record per frame (JSON lines)")
    fly.add_argument("--seed", metavar="N", help="random seed (default: the script's, else 0)")
    fly.add_argument("--record", metavar="OUT.replay", help="write a replay of the flight (donify replay flies it again)")
    _mod_arguments(fly)

    replay = sub.add_parser("replay", help="fly a replay file again headless (telemetry bit-identical to the original)")
    replay.add_argument("replay_file", metavar="R.replay", help="written by donify fly --record")
    replay.add_argument("--telemetry", metavar="OUT.jsonl", help="write one telemetry record per frame (JSON lines)")
    _mod_arguments(replay)

    plot = sub.add_parser("plot", help="plot a telemetry file (altitude, speeds, rpm, thrust, battery) to an image")
    plot.add_argument("telemetry_file", metavar="TELEMETRY.jsonl", help="written by donify fly --telemetry")
    plot.add_argument("-o", "--output", metavar="FLIGHT.png", help="image to write (.png, .svg, .pdf; default: beside the input)")

    check = sub.add_parser("check-level", help="validate level files (exit 0 all valid, 1 any invalid, 2 usage)")
    check.add_argument("files", nargs="+", metavar="FILE", help="a level file, a level folder or a shipped level name")

    bench = sub.add_parser("bench", help="print the performance figures")
    bench.add_argument("--runs", type=int, default=5, help="runs per figure; the median is reported (default 5)")
    bench.add_argument("--seconds", type=float, default=None, help="simulated seconds per run (default 60; 10 with --drones)")
    bench.add_argument("--render", action="store_true", help="also measure frame times of the window (headless EGL)")
    bench.add_argument("--drones", metavar="N,N,…", help="instead: many drones, e.g. 1,10,100 — µs per drone-tick and "
                       "× realtime in the lab world and the street (default 10 s per run); with --render: the "
                       "window's frame time with that many drones")

    shot = sub.add_parser("screenshot", help="fly a short flight and save a picture of the game (works headless)")
    shot.add_argument("-o", "--output", default="donify-screenshot.png", metavar="OUT.png",
                      help="image to write, in an existing folder (default: donify-screenshot.png here)")
    shot.add_argument("--level", default="street", help="level name or path (default: street)")
    shot.add_argument("--camera", default="chase", help="chase, fpv or top (default: chase)")
    shot.add_argument("--size", default="1280x720", metavar="WxH", help="image size in pixels (default: 1280x720)")
    shot.add_argument("--seconds", type=float, default=5.0, help="seconds of cruise before the picture (default 5)")
    shot.add_argument("--language", default="en", help="HUD language: en or fr (default: en)")
    shot.add_argument("--hud", default="player", help="player or engineering (default: player)")

    tello = sub.add_parser("tello", help="fly Donify's drones from Python over the Tello SDK (DJITelloPy); "
                                         "README: Flying Donify from Python")
    tello.add_argument("--level", default="street", help="level name or path (default: street)")
    tello.add_argument("--host", default="127.0.0.1",
                       help="the first drone's IPv4 address to listen on (default: 127.0.0.1, loopback only)")
    tello.add_argument("--port", default="8889", metavar="PORT",
                       help="UDP port of the first drone's SDK endpoint (default 8889; on loopback the next "
                            "drones take the next ports)")
    tello.add_argument("--drones", default="1", metavar="N", help="drones, each with its own endpoint (default 1)")
    tello.add_argument("--headless", action="store_true", help="no window, even where there is a display")
    tello.add_argument("--video", action=argparse.BooleanOptionalAction, default=True,
                       help="send the front camera as H.264 after streamon (default on; needs donify[tello])")
    _mod_arguments(tello)

    settings = sub.add_parser("settings", help="say where the settings file is, whether it exists, and check it "
                                               "(exit 1 if it has problems)")
    settings.add_argument("--write", action="store_true", help="(re)write the file with every setting and its comment")
    return p


def _mod_arguments(command: argparse.ArgumentParser) -> None:
    """--mods / --strict-mods, on every command that flies (the window and the headless ones)."""
    command.add_argument("--mods", metavar="DIR", action="append", default=None,
                         help="also load the mods in this folder (repeatable; always loaded: the user data "
                              "folder's mods/ and installed donify.plugins packages). Mods are Python code "
                              "run with your rights")
    command.add_argument("--strict-mods", action="store_true",
                         help="a broken mod is an error (with its traceback) instead of being disabled")


def _find_mods(mod_dirs: list[str] | None, strict: bool) -> list:
    """The mods to load; their problems are logged (one line each). A --mods folder that does
    not exist: UsageError; a broken mod with --strict-mods: ModError."""
    from game.plugins import find_mods  # noqa: PLC0415

    try:
        plugins, _problems = find_mods(mod_dirs, strict=strict)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return plugins


def main(argv: list[str] | None = None) -> int:
    try:
        code = _main(argv)
        sys.stdout.flush()  # here, not at exit, so that a closed pipe is caught below
        return code
    except BrokenPipeError:
        # the reader went away (`donify demo | head -1`): stop quietly, as Unix tools do
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 141  # 128 + SIGPIPE, what a shell reports for a tool stopped by a closed pipe


FLYING_COMMANDS = (None, "play", "demo", "fly", "replay", "bench", "screenshot", "tello")
COMPILE_NOTICE = "donify: compiling the flight code (first run only, ~15 s)…"


class _CompileNotice:
    """Says once, on stderr, that the flight code is being compiled: numba reports a compile
    only when its cache (flight/jit.py) has no machine code for a function, so this is shown on
    the first run and after the flight code changed, never when the cache is warm."""

    listener = None
    shown = False

    @classmethod
    def install(cls) -> None:
        if cls.listener is not None or os.environ.get("DONIFY_NO_JIT"):
            return
        try:
            from numba.core import event  # noqa: PLC0415
        except ImportError:
            return

        class Listener(event.Listener):
            def on_start(self, _event) -> None:
                if not cls.shown:
                    cls.shown = True
                    print(COMPILE_NOTICE, file=sys.stderr, flush=True)

            def on_end(self, _event) -> None:
                pass

        cls.listener = Listener()
        event.register("numba:compile", cls.listener)


def _main(argv: list[str] | None) -> int:
    logging.basicConfig(level=logging.WARNING, format="donify: %(message)s")
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command in FLYING_COMMANDS:
        _CompileNotice.install()
    try:
        if args.command in (None, "play"):
            return _play(getattr(args, "level", None), getattr(args, "demo", False),
                         getattr(args, "mods", None), getattr(args, "strict_mods", False),
                         getattr(args, "replay", None), getattr(args, "ghost", None))
        if args.command == "demo":
            return _demo(args.level, _find_mods(args.mods, args.strict_mods), args.strict_mods)
        if args.command == "fly":
            from game.fly import run_fly  # noqa: PLC0415
            plugins = _find_mods(args.mods, args.strict_mods)
            return run_fly(args.level, args.script, args.seconds, args.telemetry, args.seed,
                           plugins=plugins, strict_mods=args.strict_mods, record=args.record)
        if args.command == "replay":
            from game.fly import run_replay  # noqa: PLC0415
            return run_replay(args.replay_file, args.telemetry, plugins=_find_mods(args.mods, args.strict_mods))
        if args.command == "plot":
            from game.plot import run_plot  # noqa: PLC0415
            return run_plot(args.telemetry_file, args.output)
        if args.command == "check-level":
            return _check_levels(args.files)
        if args.command == "settings":
            return _settings(args.write)
        if args.command == "screenshot":
            from game.screenshot import run_screenshot  # noqa: PLC0415
            return run_screenshot(args.output, args.level, args.camera, args.size, args.seconds, args.language,
                                  hud=args.hud)
        if args.command == "tello":
            from game.tello.run import run_tello  # noqa: PLC0415
            port, drones = _integer("tello: --port", args.port), _integer("tello: --drones", args.drones)
            return run_tello(args.level, args.host, port, drones, args.headless, args.video,
                             plugins=_find_mods(args.mods, args.strict_mods), strict_mods=args.strict_mods)
        if args.command == "bench":
            from game.bench import run_bench
            seconds = args.seconds if args.seconds is not None else 60.0 if args.drones is None else 10.0
            if args.runs < 1 or not seconds > 0:
                raise UsageError("bench: expected --runs ≥ 1 and --seconds > 0")
            if args.drones is not None and args.render:  # the window's frame with that many drones
                from game.render_bench import run_fleet_render_bench  # noqa: PLC0415
                run_fleet_render_bench(_drone_counts(args.drones), runs=args.runs)
                return 0
            if args.drones is not None:
                from game.fleet_bench import run_fleet_bench  # noqa: PLC0415
                return run_fleet_bench(_drone_counts(args.drones), runs=args.runs, seconds=seconds)
            return run_bench(runs=args.runs, seconds=seconds, render=args.render)
    except UsageError as exc:
        print(f"donify: {exc}", file=sys.stderr)
        return 2
    except ModError as exc:  # --strict-mods: a broken mod stops the start, in one line
        print(f"donify: {exc}", file=sys.stderr)
        return 1
    except DataFileError as exc:
        for line in exc.lines:
            print(line, file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"donify: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    parser.print_help()
    return 2


def _play(level: str | None, demo: bool, mod_dirs: list[str] | None = None, strict_mods: bool = False,
          replay: str | None = None, ghost: str | None = None) -> int:
    if replay is not None and level is not None:
        raise ValueError("play: --replay flies the replay's own level: leave --level out")
    title = level is None  # no --level: the title screen
    level = level or "street"
    plugins = _find_mods(mod_dirs, strict_mods)  # the headless fallback flies with the same mods
    problem = None if demo else display_problem()
    if demo and (replay is not None or ghost is not None):
        raise ValueError("play: --demo flies the demo flight: leave --replay and --ghost out")
    if replay is not None and problem is not None:
        from game.fly import run_replay  # noqa: PLC0415

        print(f"donify: {problem}: flying the replay headless instead of the window")
        return run_replay(replay, None, plugins=plugins)
    if ghost is not None and problem is not None:
        from game.replay_playback import window_start  # noqa: PLC0415 (checked all the same: one line if bad)

        window_start(None if title else level, None, ghost, plugins)
        print(f"donify: {problem}: a ghost needs the window: running the headless demo flight")
        return _demo(level, plugins, strict_mods)
    if demo or problem is not None:
        if not demo:
            print(f"donify: {problem}: running the headless demo flight instead of the window")
        return _demo(level, plugins, strict_mods)
    try:
        from game.window import play  # noqa: PLC0415 (pyglet is imported only when a window is wanted)
    except ImportError:
        print("donify: the game window is not available in this build: running the headless demo flight")
        return _demo(level, plugins, strict_mods)
    except Exception as exc:  # pyglet opens the display on import: one the check above let through
        if not is_display_error(exc):
            raise
        print(f"donify: cannot open the display ({exc}): running the headless demo flight instead of the window")
        return _demo(level, plugins, strict_mods)
    return play(level, plugins=plugins, strict_mods=strict_mods, title=title, replay=replay, ghost=ghost)


def _drone_counts(text: str) -> list[int]:
    """--drones 1,10,100: whole numbers from 1 to 1000, else UsageError."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or not all(1 <= n <= 1000 for n in counts):
        raise UsageError(f"bench: --drones: expected drone counts from 1 to 1000 separated by commas, got {text!r}")
    return counts


def _integer(name: str, text: str) -> int:
    """A whole number from the command line, else UsageError naming the option."""
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{name}: expected a whole number, got {text!r}") from None


def _check_levels(files: list[str]) -> int:
    """Validate each level; every problem on stderr as one located line. 0 all valid, 1 not."""
    from world.level_file import load_level  # noqa: PLC0415
    from game.traffic import route_problems  # noqa: PLC0415

    bad = 0
    for name in files:
        try:
            level = load_level(name)
            routes = route_problems(level)  # the traffic's flight scripts (game.traffic)
            if routes:
                raise DataFileError(routes)
        except DataFileError as exc:
            bad += 1
            for line in exc.lines:
                print(line, file=sys.stderr)
            continue
        counts = ((len(level.boxes), "box", "boxes"), (len(level.cylinders), "cylinder", None),
                  (len(level.pads), "pad", None), (len(level.platforms), "platform", None),
                  (len(level.mission.waypoints) if level.mission else 0, "waypoint", None),
                  (len(level.courses), "course", None), (len(level.spawns), "spawn", None),
                  (len(level.traffic), "traffic drone", None))
        print(f"{level.source}: ok: {level.name!r}, " + ", ".join(counted(*c) for c in counts))
    return 1 if bad else 0


def _settings(write: bool) -> int:
    """Where the settings file is, whether it exists, and its problems (one warning line each,
    on stderr, as the file is read)."""
    from game.settings import load_settings

    settings = load_settings()
    path = settings.path
    exists = path.exists() or path.is_symlink()
    problems = len(settings.warnings)
    if write:
        if not settings.save():
            return 1
        replaced = " (bad entries replaced by their defaults)" if problems else ""
        print(f"{path}: {'rewritten' if exists else 'written'} with every setting and its comment{replaced}")
        return 0
    if not exists:
        print(f"{path}: no settings file yet: every setting has its default "
              "(the game writes the file when you save settings; `donify settings --write` writes it now)")
        return 0
    if problems:
        print(f"{path}: {counted(problems, 'problem')} (each told on its own line): those settings use their defaults")
        return 1
    print(f"{path}: ok")
    return 0


def _demo(level: str, plugins=(), strict_mods: bool = False) -> int:
    from game.demo import run_demo
    return run_demo(level, plugins=plugins, strict_mods=strict_mods)


if __name__ == "__main__":
    sys.exit(main())
