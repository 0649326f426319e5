"""`uno-attack simulate`: bots play complete games in full mode, with the eject policy as the
launcher, and the figures are summarised (or printed as JSON, or one game as a transcript)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from controller.cli import UsageError, add_renamed
from controller.engine import (
    FORMATS,
    EngineError,
    GameKind,
    Rules,
    RunawayGame,
    choose_dealer,
    deal,
    describe,
    play_out,
)
from controller.policy import EjectPolicy, Profile, ProfileError, load_profile
from controller.policy.custom_profiles import ProfileShelf
from controller.simulation import (
    BOTS,
    PATHS,
    Pace,
    PathError,
    Summary,
    press_outcome,
    simulate,
)

RUNAWAY_EXIT = 3
"""The exit status of a simulation stopped because a deal did not end (`RunawayGame`)."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "simulate",
        help="bots play complete games; print what happened",
        description="Bots play complete deals in full mode; the eject policy is the launcher.",
        epilog="exit status: 0 done; 1 a deal lost or made a card; 2 bad arguments; "
        f"{RUNAWAY_EXIT} stopped: a deal did not end (bots going round with every card in hands)",
    )
    parser.add_argument("--rules", choices=[g.value for g in GameKind], default="attack")
    parser.add_argument("--players", type=int, default=4, help="2 to 10 (default 4)")
    parser.add_argument("--games", type=int, default=1000, help="deals to play (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="same seed, same games (default 1)")
    add_renamed(
        parser,
        "--eject-profile",
        "--profile",
        default="toy",
        help="eject profile: a built-in or custom profile's name, or a .toml file",
    )
    parser.add_argument("--bot", choices=sorted(BOTS), default="heuristic")
    parser.add_argument(
        "--format",
        choices=tuple(FORMATS),
        help="match format; for elim_tournament, team_play and rotation_* --games counts matches",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule option (repeatable); `uno-attack rules --list` shows them",
    )
    parser.add_argument(
        "--path",
        choices=PATHS,
        default="auto",
        help="fast (integer-coded, the same games), validated (the rules engine itself) or auto: "
        "fast when it covers the rules (default)",
    )
    add_pace_arguments(parser)
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--transcript", action="store_true", help="print one game move by move")
    parser.set_defaults(handler=run)


def add_pace_arguments(parser: argparse.ArgumentParser) -> None:
    """The table's pace, to turn simulated deals into minutes (shared with `tune`)."""
    default = Pace()
    parser.add_argument(
        "--seconds-per-turn",
        type=float,
        default=default.seconds_per_turn,
        help=f"how long a turn takes at the table (default {default.seconds_per_turn:g})",
    )
    parser.add_argument(
        "--seconds-per-press",
        type=float,
        default=default.seconds_per_press,
        help=f"how long a launcher press takes (default {default.seconds_per_press:g})",
    )


def pace_from(args: argparse.Namespace) -> Pace:
    for flag, value in (("turn", args.seconds_per_turn), ("press", args.seconds_per_press)):
        if not 0 <= value <= 3600:
            raise UsageError(f"--seconds-per-{flag} must be 0 to 3600, not {value:g}")
    return Pace(args.seconds_per_turn, args.seconds_per_press)


def check_players(args: argparse.Namespace) -> None:
    if not 2 <= args.players <= 10:
        raise UsageError(f"--players must be 2 to 10, not {args.players}")


def check_games(args: argparse.Namespace) -> None:
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")


def run(args: argparse.Namespace) -> int:
    check_players(args)
    rules, profile = rules_from(args), profile_from(args.eject_profile)
    check_games(args)
    pace = pace_from(args)
    try:
        if args.transcript:
            print(_transcript(rules, args.players, args.seed, profile, args.bot))
            return 0
        summary = simulate(
            rules, args.players, args.games, args.seed, profile, args.bot,
            path=args.path, pace=pace,
        )  # fmt: skip
    except RunawayGame as runaway:
        print(f"uno-attack simulate: stopped: {runaway}", file=sys.stderr)
        return RUNAWAY_EXIT
    except (EngineError, PathError) as error:
        raise UsageError(str(error)) from None
    print(json.dumps(summary.as_dict()) if args.json else _readable(summary))
    return 0 if summary.conservation_violations == 0 else 1


def rules_from(args: argparse.Namespace) -> Rules:
    pairs = {}
    for text in args.option:
        key, sep, value = text.partition("=")
        pairs[key.strip()] = value if sep else "true"
    if args.format:
        pairs["format"] = args.format
    try:
        return Rules.from_text(args.rules, pairs)
    except EngineError as error:
        raise UsageError(str(error)) from None


def profile_from(name: str, data_dir: Path = Path("data")) -> Profile:
    """A built-in profile, a custom one by name (from `data_dir`'s profiles, then the shipped
    ones: the table's shelf), or a .toml file by its path."""
    try:
        if name.endswith(".toml") or Path(name).is_file():
            return load_profile(name)
        return ProfileShelf.for_data_dir(data_dir).load(name)
    except (ProfileError, OSError) as error:
        raise UsageError(f"{error} (or the path of a .toml file)") from None


def _transcript(rules: Rules, players: int, seed: int, profile: Profile, bot: str) -> str:
    rng = random.Random(seed)
    dealer = choose_dealer(rules.deck_spec, players, rng).dealer
    game, _ = deal(rules, players, dealer, rng)
    opening = describe(game)
    bots = [BOTS[bot](random.Random(rng.random())) for _ in range(players)]
    press = press_outcome(EjectPolicy(profile, random.Random(rng.random())))
    stats = play_out(game, bots, press, record=True)
    header = f"{rules.game.value} UNO, {players} players, P{dealer} deals, seed {seed}"
    return "\n".join([header, opening, *(stats.transcript or [])])


def _readable(s: Summary) -> str:
    wins = ", ".join(f"P{seat} {n}" for seat, n in enumerate(s.wins_by_seat))
    lines = [
        f"{s.games} {s.rules} games, {s.players} players, {s.bot} bots, seed {s.seed}",
        f"  finished:            {s.finished}",
        f"  turns per game:      {s.mean_turns}",
        f"  wins by seat:        {wins}",
        f"  winner's points:     {s.mean_winner_points} per game",
        f"  minutes per deal:    {s.mean_minutes} (at {s.seconds_per_turn:g} s a turn"
        + (f", {s.seconds_per_press:g} s a press)" if s.rules == GameKind.ATTACK else ")"),
        f"  card conservation:   {'ok' if not s.conservation_violations else 'VIOLATED'}",
        f"  time:                {s.seconds} s ({s.path} path)",
    ]
    if s.format != "standard":
        lines.insert(1, f"  format:              {s.format}")
        lines.extend(f"  {key + ':':<28} {value}" for key, value in s.format_results.items())
    if s.rules == GameKind.ATTACK:
        lines[4:4] = [
            f"  eject profile:       {s.profile}",
            f"  presses per game:    {s.mean_presses}",
            f"  cards per press:     {s.mean_cards_per_press}",
            f"  longest drought:     {s.max_drought} empty presses",
        ]
    return "\n".join(lines)
