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
    play.add_argument("--level", default="street", help="level name or path (default: street)")
    play.add_argument("--demo", action="store_true", help="run the headless demo flight instead of the window")
    play.add_argument("--mods", metavar="DIR", action="append", default=None,
                      help="a folder of mods to load (default: ./mods and the user data folder's mods/)")
    play.add_argument("--strict-mods", action="store_true", help="a broken mod is an error instead of being skipped")

    demo = sub.add_parser("demo", help="fly the headless demo and print a flight summary")
    demo.add_argument("--level", default="street", help="level name or path (default: street)")

    fly = sub.add_parser("fly", help="fly a flight script headless; telemetry as JSON lines and a summary")
    fly.add_argument("--level", help="level name or path (default: the script's level, else street)")
    fly.add_argument("--script", metavar="S.toml", help="the flight script (format: examples/README.md)")
    fly.add_argument("--seconds", metavar="N", help="seconds to fly (default: the script's)")
    fly.add_argument("--telemetry", metavar="OUT.jsonl", help="write one telemetry record per frame (JSON lines)")
    fly.add_argument("--seed", metavar="N", help="random seed (default: the script's, else 0)")

    plot = sub.add_parser("plot", help="plot a telemetry file (altitude, speeds, rpm, thrust, battery) to an image")
    plot.add_argument("telemetry_file", metavar="TELEMETRY.jsonl", help="written by donify fly --telemetry")
    plot.add_argument("-o", "--output", metavar="FLIGHT.png", help="image to write (.png, .svg, .pdf; default: beside the input)")

    check = sub.add_parser("check-level", help="validate level files (exit 0 all valid, 1 any invalid, 2 usage)")
    check.add_argument("files", nargs="+", metavar="FILE", help="a level file, a level folder or a shipped level name")

    bench = sub.add_parser("bench", help="print the performance figures")
    bench.add_argument("--runs", type=int, default=5, help="runs per figure; the median is reported (default 5)")
    bench.add_argument("--seconds", type=float, default=60.0, help="simulated seconds per run (default 60)")
    bench.add_argument("--render", action="store_true", help="also measure frame times of the window (headless EGL)")

    shot = sub.add_parser("screenshot", help="fly a short flight and save a picture of the game (works headless)")
    shot.add_argument("-o", "--output", default="docs/screenshot.png", metavar="OUT.png",
                      help="image to write (default: docs/screenshot.png)")
    shot.add_argument("--level", default="street", help="level name or path (default: street)")
    shot.add_argument("--camera", default="chase", help="chase, fpv or top (default: chase)")
    shot.add_argument("--size", default="1280x720", metavar="WxH", help="image size in pixels (default: 1280x720)")
    shot.add_argument("--seconds", type=float, default=5.0, help="seconds of cruise before the picture (default 5)")
    shot.add_argument("--language", default="en", help="HUD language: en or fr (default: en)")

    settings = sub.add_parser("settings", help="print the settings file's path and check it (exit 1 if it has problems)")
    settings.add_argument("--write", action="store_true", help="(re)write the file with every setting and its comment")
    return p


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="donify: %(message)s")
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command in (None, "play"):
            return _play(getattr(args, "level", "street"), getattr(args, "demo", False),
                         getattr(args, "mods", None), getattr(args, "strict_mods", False))
        if args.command == "demo":
            return _demo(args.level)
        if args.command == "fly":
            from game.fly import run_fly  # noqa: PLC0415
            return run_fly(args.level, args.script, args.seconds, args.telemetry, args.seed)
        if args.command == "plot":
            from game.plot import run_plot  # noqa: PLC0415
            return run_plot(args.telemetry_file, args.output)
        if args.command == "check-level":
            return _check_levels(args.files)
        if args.command == "settings":
            return _settings(args.write)
        if args.command == "screenshot":
            from game.screenshot import run_screenshot  # noqa: PLC0415
            return run_screenshot(args.output, args.level, args.camera, args.size, args.seconds, args.language)
        if args.command == "bench":
            from game.bench import run_bench
            if args.runs < 1 or not args.seconds > 0:
                raise UsageError("bench: expected --runs ≥ 1 and --seconds > 0")
            return run_bench(runs=args.runs, seconds=args.seconds, render=args.render)
    except UsageError as exc:
        print(f"donify: {exc}", file=sys.stderr)
        return 2
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


def _play(level: str, demo: bool, mod_dirs: list[str] | None = None, strict_mods: bool = False) -> int:
    if demo or not has_display():
        if not demo:
            print("donify: no display found: running the headless demo flight instead of the window")
        return _demo(level)
    from game.plugins import ModError, discover_mods, mod_folders  # noqa: PLC0415

    plugins = []
    try:
        for i, folder in enumerate(mod_folders(mod_dirs)):
            # problems are logged, one line each; entry-point mods are found with the first folder
            found, _problems = discover_mods(folder, strict=strict_mods, entry_point_mods=i == 0)
            plugins += found
        from game.window import play  # noqa: PLC0415 (pyglet is imported only when a window is wanted)
    except ImportError:
        print("donify: the game window is not available in this build: running the headless demo flight")
        return _demo(level)
    except ModError as exc:  # --strict-mods: a broken mod stops the start, in one line
        print(f"donify: {exc}", file=sys.stderr)
        return 1
    try:
        return play(level, plugins=plugins, strict_mods=strict_mods)
    except ModError as exc:
        print(f"donify: {exc}", file=sys.stderr)
        return 1


def _check_levels(files: list[str]) -> int:
    """Validate each level; every problem on stderr as one located line. 0 all valid, 1 not."""
    from world.level import load_level  # noqa: PLC0415

    bad = 0
    for name in files:
        try:
            level = load_level(name)
        except DataFileError as exc:
            bad += 1
            for line in exc.lines:
                print(line, file=sys.stderr)
            continue
        print(f"{level.source}: ok: {level.name!r}, {len(level.boxes)} boxes, {len(level.cylinders)} cylinders, "
              f"{len(level.pads)} pads, {len(level.platforms)} platforms, "
              f"{len(level.mission.waypoints) if level.mission else 0} waypoints")
    return 1 if bad else 0


def has_display() -> bool:
    if os.environ.get("PYGLET_HEADLESS"):
        return False
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def _settings(write: bool) -> int:
    """Where the settings file is; its problems (one warning line each, on stderr)."""
    from game.settings import load_settings

    settings = load_settings()
    print(settings.path)
    problems = bool(settings.warnings)
    if write:
        if not settings.save():
            return 1
        print(f"written with every setting{' (bad entries replaced by their defaults)' if problems else ''}")
        return 0
    return 1 if problems else 0


def _demo(level: str) -> int:
    from game.demo import run_demo
    return run_demo(level)


if __name__ == "__main__":
    sys.exit(main())
