"""The `uno-attack` command line: one console script with subcommands.

Each area of the product registers its own subcommands from a small module listed in
`COMMAND_MODULES`; this file only wires them together and maps errors to exit codes.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES = (
    "controller.sim_cli",
    "controller.tune_cli",
    "controller.rules_cli",
    "controller.launcher.cli",
    "controller.run_cli",
    "controller.db_cli",
)


class UsageError(Exception):
    """A bad argument or input the user can fix: printed without a traceback, exit code 2."""


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


if __name__ == "__main__":  # `python -m controller.cli`: the importable module's main, so that
    from controller.cli import main as imported_main  # its UsageError is the one raised

    sys.exit(imported_main())
