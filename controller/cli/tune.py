"""`uno-attack tune`: search an eject profile's parameters for a target deal length (and a bound
on droughts) by simulation, check the one found on fresh deals, and write it as TOML for
`--eject-profile`, or install it where a table offers it by name (`--install NAME`)."""

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
    RUNAWAY_EXIT,
    add_pace_arguments,
    check_players,
    pace_from,
    profile_from,
    rules_from,
)
from controller.config import load_config
from controller.engine import EngineError, GameKind, RunawayGame
from controller.policy import Profile, ProfileError, profile_from_toml
from controller.policy.custom_profiles import FOLDER, check_name
from controller.sections import ConfigError
from controller.simulation import BOTS
from controller.tuning import (
    Check,
    Runner,
    Table,
    Target,
    Trial,
    Tuned,
    candidates,
    check,
    profile_toml,
    race,
)

GAMES = 500  # the most deals a candidate plays in the race (the finalists play them all)


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "tune",
        help="find an eject profile for a target deal length by simulation",
        description="Search an eject profile's parameters (fire probability, drought bound, "
        "cards per fire) for a target: a UNO Attack deal lasting about --minutes, with no run "
        "of empty presses longer than --max-drought. The profile found is checked on fresh "
        "deals; only one whose 95 %% interval lies within the tolerance is written (--out) or "
        "installed for the table (--install).",
        epilog="exit status: 0 written; 1 no profile met the target on fresh deals (nothing "
        f"written); 2 bad arguments; {RUNAWAY_EXIT} stopped: a deal did not end (bots going "
        "round with every card in hands)",
    )
    parser.add_argument("--minutes", type=float, required=True, help="target minutes per deal")
    parser.add_argument(
        "--tolerance", type=float, default=0.5, help="minutes either side (default 0.5)"
    )
    parser.add_argument("--max-drought", type=int, help="most empty presses in a row allowed")
    parser.add_argument("--out", help="the .toml file to write")
    parser.add_argument(
        "--install",
        metavar="NAME",
        help=f"install the profile as NAME in the data directory's {FOLDER}/, where a table "
        "offers it by name",
    )
    parser.add_argument("--data-dir", help="with --install: the table's data directory")
    parser.add_argument("--config", help="with --install: the configuration naming it")
    parser.add_argument("--force", action="store_true", help="overwrite a file that exists")
    parser.add_argument("--players", type=int, default=4, help="2 to 10 (default 4)")
    parser.add_argument(
        "--base", default="toy", help="eject profile to start from (name or .toml; default toy)"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=GAMES,
        help=f"the most deals a candidate plays in the search (default {GAMES})",
    )
    parser.add_argument(
        "--check-games",
        type=int,
        help="fresh deals each check plays (default: enough for an interval of half the "
        "tolerance either side)",
    )
    parser.add_argument(
        "--jobs", type=int, default=_cores(), help=f"processes (default {_cores()})"
    )
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


def _cores() -> int:
    return min(8, len(os.sched_getaffinity(0)))


def run(args: argparse.Namespace) -> int:
    target, places = _target(args), _places(args)
    check_players(args)
    _check_counts(args)
    rules, pace = rules_from(args), pace_from(args)
    base = profile_from(args.base, _data_dir(args))
    table = Table(rules, args.players, args.bot, pace)
    started = time.perf_counter()
    try:
        tuned = _tune(table, base, target, args)
    except RunawayGame as runaway:
        print(f"uno-attack tune: stopped: {runaway}", file=sys.stderr)
        return RUNAWAY_EXIT
    except EngineError as error:
        raise UsageError(str(error)) from None
    print(_report(tuned, target, time.perf_counter() - started))
    chosen = tuned.chosen
    if chosen is None:
        print("no profile met the target on fresh deals: nothing written", file=sys.stderr)
        return 1
    for place, name in places:
        _write(place, _text(chosen, name, args, target))
        print(f"wrote {place}: {_use(place, name)}")
    return 0


def _tune(table: Table, base: Profile, target: Target, args: argparse.Namespace) -> Tuned:
    tried = candidates(base, target)
    with Runner(table, args.jobs) as runner:
        trials = race(
            runner, tried, target, games=args.games, seed=args.seed,
            progress=ProgressBar(sys.stderr),
        )  # fmt: skip
        checks = check(
            runner, trials, target, seed=args.seed, games=args.check_games,
            told=lambda profile, deals: _checking(profile, deals, sys.stderr),
        )  # fmt: skip
    return Tuned(trials, checks, table.path)


def _checking(profile: Profile, deals: int, stream: TextIO) -> None:
    stream.write(
        f"tune: checking fire probability {profile.fire_probability:g} "
        f"(countdown {profile.floor}-{profile.max_drought}) on {deals:,} fresh deals\n"
    )
    stream.flush()


def _check_counts(args: argparse.Namespace) -> None:
    if not 1 <= args.games <= 100_000:
        raise UsageError(f"--games must be 1 to 100000, not {args.games}")
    if args.check_games is not None and not 2 <= args.check_games <= 100_000:
        raise UsageError(f"--check-games must be 2 to 100000, not {args.check_games}")
    if not 1 <= args.jobs <= 64:
        raise UsageError(f"--jobs must be 1 to 64, not {args.jobs}")


def _target(args: argparse.Namespace) -> Target:
    if not (math.isfinite(args.minutes) and 0 < args.minutes <= 600):
        raise UsageError(f"--minutes must be more than 0 and at most 600, not {args.minutes:g}")
    if not (math.isfinite(args.tolerance) and 0 < args.tolerance <= 600):
        raise UsageError(
            f"--tolerance must be more than 0 (a deal length is only ever known within an "
            f"interval), not {args.tolerance:g}"
        )
    if args.max_drought is not None and not 1 <= args.max_drought <= 100:
        raise UsageError(f"--max-drought must be 1 to 100, not {args.max_drought}")
    return Target(args.minutes, args.tolerance, args.max_drought)


# --- where the profile goes: checked before anything is played ---


def _places(args: argparse.Namespace) -> list[tuple[Path, str]]:
    """(file, profile name) for --out and --install, every one writable."""
    if args.out is None and args.install is None:
        raise UsageError("give --out FILE, --install NAME, or both")
    if args.install is None and (args.data_dir or args.config):
        raise UsageError("--data-dir and --config say where --install puts the profile")
    places = []
    if args.out is not None:
        places.append((_out(args), Path(args.out).stem))
    if args.install is not None:
        places.append((_installed(args), args.install))
    return places


def _out(args: argparse.Namespace) -> Path:
    out = Path(args.out)
    if out.suffix != ".toml":
        raise UsageError(f"--out must name a .toml file, not {args.out!r}")
    if out.is_dir() or not out.parent.is_dir():
        raise UsageError(f"--out: cannot write {args.out!r} (no such folder, or a folder)")
    if out.exists() and not args.force:
        raise UsageError(f"--out: {args.out!r} exists (add --force to overwrite it)")
    return out


def _installed(args: argparse.Namespace) -> Path:
    try:
        check_name(args.install)
    except ProfileError as error:
        raise UsageError(f"--install: {error}") from None
    data_dir = _data_dir(args)
    if not data_dir.is_dir():
        raise UsageError(
            f"--install: the data directory {str(data_dir)!r} does not exist (give the table's "
            "--data-dir, or its --config)"
        )
    place = data_dir / FOLDER / f"{args.install}.toml"
    if place.exists() and not args.force:
        raise UsageError(
            f"--install: a profile {args.install!r} is installed ({place}; add --force to "
            "replace it)"
        )
    return place


def _data_dir(args: argparse.Namespace) -> Path:
    """The table's data directory: --data-dir, else the --config's, else the default's."""
    if args.data_dir:
        return Path(args.data_dir)
    try:
        return load_config(args.config).data_path
    except ConfigError as error:
        raise UsageError(f"--config: {error}") from None


def _write(place: Path, text: str) -> None:
    """All of the file or none of it: written beside it, then moved into place."""
    part = place.with_name(f".{place.name}.part")
    try:
        place.parent.mkdir(exist_ok=True)
        part.write_text(text, encoding="utf-8")
        os.replace(part, place)
    except OSError as error:
        part.unlink(missing_ok=True)
        raise UsageError(f"cannot write {str(place)!r}: {error.strerror}") from None


def _use(place: Path, name: str) -> str:
    if place.parent.name == FOLDER and place.stem == name:
        return f"a table using this data directory offers it as {name!r}"
    return f"use it with --eject-profile {place}"


# --- what is written and said ---


def _text(chosen: Check, name: str, args: argparse.Namespace, target: Target) -> str:
    text = profile_toml(chosen.profile, _comment(args, target, chosen), _description(args, chosen))
    profile_from_toml(text, name)  # reads back: a profile of that name
    return text


def _description(args: argparse.Namespace, chosen: Check) -> str:
    bound = "" if args.max_drought is None else f", droughts at most {args.max_drought}"
    rules = f", {len(args.option)} house rule(s)" if args.option else ""
    return (
        f"Tuned: {args.players} players, {chosen.minutes:.2f} ± {chosen.half_width:.2f} "
        f"minutes a deal{bound}{rules}"
    )


def _comment(args: argparse.Namespace, target: Target, chosen: Check) -> str:
    bound = "" if target.max_drought is None else f", droughts at most {target.max_drought}"
    rules = ", ".join(args.option) or "the standard UNO Attack rules"
    return (
        f"Eject profile from `uno-attack tune`: {args.players} players, about "
        f"{target.minutes:g} ± {target.tolerance:g} minutes a deal{bound}\n"
        f"({rules}; at {args.seconds_per_turn:g} s a turn and {args.seconds_per_press:g} s "
        f"a press; seed {args.seed}).\n"
        f"Checked on {chosen.tally.deals:,} fresh deals: {chosen.minutes} ± "
        f"{chosen.half_width} minutes a deal (95 % interval), longest drought "
        f"{chosen.tally.longest_drought}."
    )


def _report(tuned: Tuned, target: Target, seconds: float) -> str:
    raced = sum(t.tally.deals for t in tuned.trials)
    lines = [
        f"{len(tuned.trials)} candidates raced on the {tuned.path} path ({raced:,} deals), "
        f"{len(tuned.checks)} checked on fresh deals, {tuned.deals:,} deals in {seconds:.1f} s:"
    ]
    lines += [_check_line(number, made) for number, made in enumerate(tuned.checks, 1)]
    shown = tuned.chosen or _closest(tuned, target)
    if shown is None:
        lines.append(_without_finalist(tuned, target))
        return "\n".join(lines)
    verdict = "meets" if shown.meets else "does not meet"
    lines.append(f"the profile checked {verdict} the target ({target}):")
    lines += _profile_lines(shown)
    return "\n".join(lines)


def _check_line(number: int, made: Check) -> str:
    deals = f"{made.tally.deals:,} deals"
    if made.stopped_early:
        deals = f"{made.tally.deals:,} of {made.planned:,} deals (stopped)"
    fire = made.profile.fire_probability
    return f"  check {number}: fire probability {fire:g}, {deals}: {made.verdict()}"


def _closest(tuned: Tuned, target: Target) -> Check | None:
    complete = [c for c in tuned.checks if not c.stopped_early] or tuned.checks
    return min(complete, key=lambda c: abs(c.tally.mean - target.minutes), default=None)


def _without_finalist(tuned: Tuned, target: Target) -> str:
    best: Trial | None = tuned.trials[0] if tuned.trials else None
    if best is None or not best.allowed(target):
        return f"no candidate kept every drought within {target.max_drought} empty presses"
    return f"no candidate came near the target ({target}); nearest {best.minutes} minutes"


def _profile_lines(shown: Check) -> list[str]:
    p, tally = shown.profile, shown.tally
    low, high = shown.interval
    return [
        f"  fire probability:    {p.fire_probability:g}",
        f"  drought bound:       {p.max_drought} (countdown from {p.drought_floor})",
        f"  cards when it fires: {', '.join(f'{k}:{w:g}' for k, w in p.counts)}",
        f"  minutes per deal:    {shown.minutes} ± {shown.half_width} (95 % interval {low} to "
        f"{high}, {tally.deals:,} fresh deals)",
        f"  longest drought:     {tally.longest_drought}",
        f"  presses per deal:    {tally.mean_presses:.2f}",
    ]


class ProgressBar:
    """The race's progress: a bar redrawn in place on a terminal; elsewhere a plain line
    every tenth of the way."""

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
            self.stream.write(f"tune: {done}/{total} candidate rounds{so_far}\n")
        self.stream.flush()
