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


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="donify", description="Donify: fly a small quadrotor (Ryze Tello with guards).")
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help="open the game window (headless demo flight where there is no display)")
    play.add_argument("--level", default="street", help="level name or path (default: street)")
    play.add_argument("--demo", action="store_true", help="run the headless demo flight instead of the window")

    demo = sub.add_parser("demo", help="fly the headless demo and print a flight summary")
    demo.add_argument("--level", default="street", help="level name or path (default: street)")

    bench = sub.add_parser("bench", help="print the performance figures")
    bench.add_argument("--runs", type=int, default=5, help="runs per figure; the median is reported (default 5)")
    bench.add_argument("--seconds", type=float, default=60.0, help="simulated seconds per run (default 60)")
    bench.add_argument("--render", action="store_true", help="also measure frame times of the window (headless EGL)")
    return p


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="donify: %(message)s")
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command in (None, "play"):
            return _play(getattr(args, "level", "street"), getattr(args, "demo", False))
        if args.command == "demo":
            return _demo(args.level)
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


def _play(level: str, demo: bool) -> int:
    if demo or not has_display():
        if not demo:
            print("donify: no display found: running the headless demo flight instead of the window")
        return _demo(level)
    try:
        from game.window import play  # noqa: PLC0415 (pyglet is imported only when a window is wanted)
    except ImportError:
        print("donify: the game window is not available in this build: running the headless demo flight")
        return _demo(level)
    return play(level)


def has_display() -> bool:
    if os.environ.get("PYGLET_HEADLESS"):
        return False
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def _demo(level: str) -> int:
    from game.demo import run_demo
    return run_demo(level)


if __name__ == "__main__":
    sys.exit(main())
