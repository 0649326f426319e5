"""The `uno-attack` command line: one console script with subcommands, one package.

Each command group is a module of this package listed in `COMMAND_MODULES` with a
``register(commands)`` function; this file only wires them together and maps errors to exit
codes. The command modules may import any layer (engine, launcher, table, web); no layer
imports them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

COMMAND_MODULES = (
    "controller.cli.simulate",
    "controller.cli.tune",
    "controller.cli.rules",
    "controller.cli.launcher",
    "controller.cli.run",
    "controller.cli.db",
    "controller.cli.hall",
)


class UsageError(Exception):
    """A bad argument or input the user can fix: printed without a traceback, exit code 2."""


def add_renamed(parser: argparse.ArgumentParser, flag: str, old: str, **kwargs: Any) -> None:
    """Add `flag`, and `old` as a hidden spelling of it: a flag the README once documented
    under that name keeps working, while help and docs show one name per idea."""
    action = parser.add_argument(flag, **kwargs)
    parser.add_argument(old, dest=action.dest, default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="uno-attack",
        description="Controller for a UNO Attack card launcher: rules, launcher, scoreboard.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except UsageError as error:
        print(f"uno-attack {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the output went to a pager or `head` that stopped reading
        sys.stderr.close()
        return 0
