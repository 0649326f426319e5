"""`uno-attack tune`: search an eject profile's parameters for a target deal length (and a bound
on droughts) by simulation, and write the profile as TOML for `--eject-profile` and the table."""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from controller.cli import UsageError
from controller.cli.simulate import (
    add_pace_arguments,
    check_players,
    pace_from,
    profile_from,
    rules_from,
)
from controller.engine import EngineError, GameKind
from controller.launcher.policy import Profile, ProfileError, profile_from_toml
from controller.simulation import BOTS, simulate
from controller.tuning import Target, Trial, candidates, profile_toml, search


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "tune",
        help="find an eject profile for a target deal length by simulation",
        description="Search an eject profile's parameters (fire probability, drought bound, "
        "cards per fire) for a target: a UNO Attack deal lasting about --minutes, with no run "
        "of empty presses longer than --max-drought. Writes the best profile as TOML.",
    )
    parser.add_argument("--minutes", type=float, required=True, help="target minutes per deal")
    parser.add_argument(
        "--tolerance", type=float, default=0.5, help="minutes either side (default 0.5)"
    )
    parser.add_argument("--max-drought", type=int, help="most empty presses in a row allowed")
    parser.add_argument("--out", required=True, help="the .toml file to write")
    parser.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    parser.add_argument("--players", type=int, default=4, help="2 to 10 (default 4)")
    parser.add_argument("--base", default="toy", help="eject profile to start from (name or .toml)")
    parser.add_argument("--games", type=int, default=200, help="deals per candidate (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="same seed, same search (default 1)")
    parser.add_argument("--bot", choices=sorted(BOTS), default="heuristic")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a UNO Attack rule option (repeatable)",
    )
    add_pace_arguments(parser)
    parser.set_defaults(handler=run, rules=GameKind.ATTACK.value, format=None)


def run(args: argparse.Namespace) -> int:
    target, out = _target(args), _out(args)
    check_players(args)
    if not 1 <= args.games <= 100_000:
        raise UsageError(f"--games must be 1 to 100000, not {args.games}")
    rules, base, pace = rules_from(args), profile_from(args.base), pace_from(args)
    tried = candidates(base, target)
    started = time.perf_counter()
    try:
        trials = search(
            rules, args.players, tried, target, games=args.games, seed=args.seed, bot=args.bot,
            pace=pace, progress=ProgressBar(sys.stderr),
        )  # fmt: skip
        best = trials[0]
        check = simulate(
            rules, args.players, args.games * 4, args.seed + 1, best.profile, args.bot, pace=pace
        )
    except EngineError as error:
        raise UsageError(str(error)) from None
    seconds = time.perf_counter() - started
    print(_report(best, target, len(trials), seconds, check.mean_minutes, check.max_drought))
    if not best.meets(target):
        print("no candidate met the target: nothing written", file=sys.stderr)
        return 1
    _write(out, profile_toml(_named(best, out), _comment(args, target, best)))
    print(f"wrote {out}: use it with --eject-profile {out}")
    return 0


def _write(out: Path, text: str) -> None:
    """All of the file or none of it: written beside it, then moved into place."""
    part = out.with_name(f".{out.name}.part")
    try:
        part.write_text(text, encoding="utf-8")
        os.replace(part, out)
    except OSError as error:
        part.unlink(missing_ok=True)
        raise UsageError(f"--out: cannot write {str(out)!r}: {error.strerror}") from None


def _target(args: argparse.Namespace) -> Target:
    if not (math.isfinite(args.minutes) and 0 < args.minutes <= 600):
        raise UsageError(f"--minutes must be more than 0 and at most 600, not {args.minutes:g}")
    if not (math.isfinite(args.tolerance) and args.tolerance >= 0):
        raise UsageError(f"--tolerance must be 0 or more, not {args.tolerance:g}")
    if args.max_drought is not None and not 1 <= args.max_drought <= 100:
        raise UsageError(f"--max-drought must be 1 to 100, not {args.max_drought}")
    return Target(args.minutes, args.tolerance, args.max_drought)


def _out(args: argparse.Namespace) -> Path:
    out = Path(args.out)
    if out.suffix != ".toml":
        raise UsageError(f"--out must name a .toml file, not {args.out!r}")
    if out.is_dir() or not out.parent.is_dir():
        raise UsageError(f"--out: cannot write {args.out!r} (no such folder, or a folder)")
    if out.exists() and not args.force:
        raise UsageError(f"--out: {args.out!r} exists (add --force to overwrite it)")
    return out


def _named(best: Trial, out: Path) -> Profile:
    """The profile under the name `load_profile` will give it (the file's stem), checked by
    reading the TOML back."""
    text = profile_toml(best.profile, "")
    try:
        return profile_from_toml(text, out.stem)
    except ProfileError as error:  # a file stem that is not a profile name
        raise UsageError(f"--out: {error}") from None


def _comment(args: argparse.Namespace, target: Target, best: Trial) -> str:
    bound = "" if target.max_drought is None else f", droughts at most {target.max_drought}"
    return (
        f"Eject profile from `uno-attack tune`: {args.players} players, about "
        f"{target.minutes:g} minutes a deal{bound}\n"
        f"(at {args.seconds_per_turn:g} s a turn and {args.seconds_per_press:g} s a press; "
        f"{best.summary.games} simulated deals, seed {args.seed}: {best.minutes} minutes, "
        f"longest drought {best.longest_drought})"
    )


def _report(
    best: Trial, target: Target, tried: int, seconds: float, minutes: float, drought: int
) -> str:
    p = best.profile
    verdict = "meets" if best.meets(target) else "misses"
    return "\n".join(
        [
            f"{tried} candidates in {seconds:.1f} s ({best.summary.path} path); "
            f"the best {verdict} the target:",
            f"  fire probability:    {p.fire_probability}",
            f"  drought bound:       {p.max_drought} (countdown from {p.drought_floor})",
            f"  cards when it fires: {', '.join(f'{k}:{w:g}' for k, w in p.counts)}",
            f"  minutes per deal:    {best.minutes} (target {target.minutes:g} "
            f"± {target.tolerance:g})",
            f"  longest drought:     {best.longest_drought}",
            f"  presses per deal:    {best.summary.mean_presses}",
            f"  on fresh deals:      {minutes} minutes, longest drought {drought}",
        ]
    )


class ProgressBar:
    """A bar redrawn in place on a terminal; elsewhere a plain line every tenth of the way."""

    WIDTH = 30

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.shown = 0

    def __call__(self, done: int, total: int, best: Trial | None) -> None:
        so_far = "" if best is None else f" best {best.minutes} min"
        if self.tty:
            filled = self.WIDTH * done // total
            bar = "#" * filled + "-" * (self.WIDTH - filled)
            end = "\n" if done == total else ""
            self.stream.write(f"\rtune [{bar}] {done}/{total}{so_far}{end}")
        elif done == total or 10 * done // total > self.shown:
            self.shown = 10 * done // total
            self.stream.write(f"tune: {done}/{total} candidates{so_far}\n")
        self.stream.flush()
