"""Launcher subcommands: ``selftest``, ``calibrate``, ``safe-off``, ``press`` and ``status``.

Every command takes ``--pin-profile`` (a shipped pin profile name such as ``hbridge``, or a
path; default ``$UNO_ATTACK_PIN_PROFILE`` or ``hbridge``); ``--profile`` is its older spelling.
Commands that open the launcher take ``--backend auto|gpio|sim``: ``auto`` is real pins on a
Raspberry Pi and the simulator anywhere else. Bad arguments print a message and exit 2; a
failed check exits 1.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from controller.cli import UsageError, add_renamed
from controller.cli.simulate import profile_from
from controller.launcher.calibrate import CalibrationFailed, calibrate
from controller.launcher.errors import BackendUnavailable, PinProfileError
from controller.launcher.factory import BACKENDS, resolve_backend, sim_pin_factory
from controller.launcher.guard import open_guarded
from controller.launcher.launcher import Launcher
from controller.launcher.lifecycle import motor_safe
from controller.launcher.pins import PinProfile, dump_pin_profile, load_pin_profile
from controller.launcher.runner import PressOutcome, PressRunner
from controller.launcher.safeoff import LineUser, kernel_line_user, safe_off
from controller.launcher.selftest import format_report, passed, run_selftest
from controller.launcher.sim import SimOptions
from controller.policy import EjectPolicy, Policy, ScriptedPolicy

if TYPE_CHECKING:
    from controller.config import Config


def register(commands: Any) -> None:
    """Add the launcher's subcommands to the `uno-attack` parser."""
    _selftest_parser(commands)
    _calibrate_parser(commands)
    _safe_off_parser(commands)
    _press_parser(commands)
    _status_parser(commands)


# --- shared options ---


def _profile_option(parser: argparse.ArgumentParser) -> None:
    add_renamed(
        parser,
        "--pin-profile",
        "--profile",
        default=os.environ.get("UNO_ATTACK_PIN_PROFILE", "hbridge"),
        help="pin profile: a name in hardware/ (hbridge, mosfet, phase-enable) or a .toml path",
    )


def _backend_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="auto",
        help="auto: real pins on a Raspberry Pi, the simulator elsewhere",
    )


def _load(profile: str) -> PinProfile:
    try:
        return load_pin_profile(profile)
    except PinProfileError as error:
        raise UsageError(str(error)) from None


def _open(args: argparse.Namespace, sim: SimOptions | None = None) -> Launcher:
    try:  # real motor lines get a guard process that turns them off if this process dies
        return open_guarded(_load(args.pin_profile), backend=args.backend, sim=sim)
    except BackendUnavailable as error:
        raise UsageError(str(error)) from None


def _backend_name(launcher: Launcher) -> str:
    board = getattr(launcher, "board_info", None)  # the serial backend: a Pico board
    if board is not None:
        fake = " (fake board)" if launcher.simulator is not None else ""
        return f"launcher board on {board.port}, firmware {board.firmware}{fake}"
    return "simulator" if launcher.simulator is not None else "GPIO"


# --- selftest ---


def _selftest_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "selftest", help="check every fitted launcher part and print a report (exit 0/1)"
    )
    _profile_option(parser)
    _backend_option(parser)
    parser.add_argument("--no-eject", action="store_true", help="do not run the motor")
    parser.add_argument(
        "--interactive", action="store_true", help="ask a person to press the UNO button"
    )
    parser.set_defaults(handler=cmd_selftest)


def cmd_selftest(args: argparse.Namespace) -> int:
    with motor_safe(_open(args)) as launcher:
        checks = run_selftest(launcher, eject=not args.no_eject, interactive=args.interactive)
        header = f"uno-attack selftest: pin profile {launcher.profile.name} on the "
        print(format_report(checks, header + _backend_name(launcher)))
    return 0 if passed(checks) else 1


# --- calibrate ---


def _calibrate_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "calibrate",
        help="measure card pulse widths and cards/second, write a tuned pin profile",
    )
    _profile_option(parser)
    _backend_option(parser)
    parser.add_argument("--cards", type=int, default=10, help="cards per run (2-50)")
    parser.add_argument("--runs", type=int, default=3, help="runs (1-20)")
    parser.add_argument(
        "--write", type=Path, metavar="PATH", help="write the tuned pin profile here (TOML)"
    )
    parser.set_defaults(handler=cmd_calibrate)


def cmd_calibrate(args: argparse.Namespace) -> int:
    if not 2 <= args.cards <= 50 or not 1 <= args.runs <= 20:
        raise UsageError("--cards must be within 2..50 and --runs within 1..20")
    if args.write is not None and not args.write.parent.is_dir():
        raise UsageError(f"--write: directory {str(args.write.parent)!r} does not exist")
    with motor_safe(_open(args)) as launcher:
        try:
            tuned = calibrate(launcher, cards=args.cards, runs=args.runs)
        except CalibrationFailed as error:
            print(f"uno-attack calibrate: {error}", file=sys.stderr)
            return 1
    _print_calibration(tuned)
    text = dump_pin_profile(tuned)
    if args.write is None:
        print("\n" + text, end="")
    else:
        args.write.write_text(text, encoding="utf-8")
        print(f"wrote {args.write}: use it with --pin-profile {args.write}")
    return 0


def _print_calibration(profile: PinProfile) -> None:
    cal, t = profile.calibration, profile.ejector
    assert cal is not None
    print(
        f"measured {cal.samples} cards at speed {cal.speed:g}: {cal.cards_per_second:g} cards/s, "
        f"pulse {cal.pulse_ms_min:g}/{cal.pulse_ms_median:g}/{cal.pulse_ms_max:g} ms "
        f"(min/median/max), gap {cal.gap_ms_median:g} ms"
    )
    print(
        f"tuning: pulse window {t.min_pulse_ms:g}..{t.max_pulse_ms:g} ms, first card within "
        f"{t.first_card_timeout_ms:g} ms, next card within {t.card_gap_timeout_ms:g} ms"
    )


# --- safe-off ---


def _safe_off_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "safe-off", help="drive every motor line of the pin profile off and exit"
    )
    _profile_option(parser)
    _backend_option(parser)
    parser.add_argument(
        "--mock", action="store_true", help="use mock pins (tests; same as --backend sim)"
    )
    parser.add_argument(
        "--config",
        help="take the launcher from this service config ([launcher], or every [[tables]] "
        "table: its pins, its board)",
    )
    parser.add_argument(
        "--record-stop",
        type=Path,
        metavar="FILE",
        help="under systemd (ExecStopPost=): write why the service stopped here for its status",
    )
    parser.set_defaults(handler=cmd_safe_off)


def cmd_safe_off(args: argparse.Namespace) -> int:
    """Drive the motor off: the one table's pins or board, or every table of a [[tables]]
    config. Exit 1 if any line or board could not be stopped."""
    if args.record_stop is not None:
        _record_stop(args.record_stop)
    config = _service_config(args.config) if args.config else None
    if config is not None and config.tables:
        return _safe_off_tables(config, args)
    backend = args.backend
    if config is not None and backend == "auto":
        backend = config.launcher.backend
    if backend == "serial" and not args.mock:
        return _safe_off_board()
    if backend == "none":
        print("safe-off: the service has no launcher: no motor to stop")
        return 0
    profile = _load(config.launcher.pin_profile if config is not None else args.pin_profile)
    mock = args.mock or resolve_backend(backend) in ("sim", "fake-serial")
    done, errors, where = _motor_lines_off(profile, mock)
    for line in done:
        print(f"safe-off ({where}): {line}")
    for line in errors:
        print(f"safe-off: error: {line}", file=sys.stderr)
    return 1 if errors else 0


def _motor_lines_off(profile: PinProfile, mock: bool) -> tuple[list[str], list[str], str]:
    """Drive `profile`'s motor lines off on mock pins or the Pi's own: (lines done, error
    lines, where). A line another process holds names that process (on the Pi's pins)."""
    factory = sim_pin_factory() if mock else _gpio_factory()
    line_user: LineUser | None = None if mock else kernel_line_user(factory)
    try:
        done, errors = safe_off(profile, factory, line_user)
    finally:
        factory.close()
    return done, errors, "mock pins" if mock else "GPIO"


def _safe_off_tables(config: Config, args: argparse.Namespace) -> int:
    """A service of several tables: each table's motor stopped, the table on the Pi's pins with
    its own pin profile (mock pins with --mock or a simulated --backend), each board by its
    serial number (`controller.cli.safe_off`)."""
    from controller.cli.safe_off import safe_off_tables
    from controller.cli.tables import plans

    mock = args.mock or resolve_backend(args.backend) in ("sim", "fake-serial")

    def pins_off(pin_profile: str) -> tuple[list[str], list[str], str]:
        return _motor_lines_off(_load(pin_profile), mock)

    return safe_off_tables(plans(config), pins_off)


def _record_stop(path: Path) -> None:
    from controller.stops import record_stop

    try:
        line = record_stop(path)
    except OSError as error:  # never let the record stop the motor lines going off
        print(f"safe-off: could not record why the service stopped: {error}", file=sys.stderr)
        return
    if line is not None:
        print(f"safe-off: the service stopped: {line}")


def _safe_off_board() -> int:
    """A Pico launcher board: tell it SAFE (it also stops by itself when the Pi goes quiet)."""
    from controller.cli.safe_off import board_safe_off

    done, errors = board_safe_off(None)
    for line in done:
        print(f"safe-off (board): {line}")
    for line in errors:
        print(f"safe-off: error: {line}", file=sys.stderr)
    return 1 if errors else 0


def _service_config(path: str) -> Config:
    """The service config; a bad one is a usage error (exit 2)."""
    from controller.config import load_config
    from controller.sections import ConfigError

    try:
        return load_config(path)
    except ConfigError as error:
        raise UsageError(str(error)) from None


def _gpio_factory() -> Any:
    """The gpio backend's pin factory: the one the motor guard uses (``$UNO_ATTACK_PIN_FACTORY``,
    else gpiozero's lgpio factory)."""
    from controller.launcher.guard import factory_spec, load_factory

    try:
        return load_factory(factory_spec())
    except BackendUnavailable as error:
        raise UsageError(str(error)) from None


# --- status ---


def _status_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "status",
        help="the board, where lgpio comes from, and whether strict_gpiod is in force (0/1)",
    )
    parser.set_defaults(handler=cmd_status)


def cmd_status(args: argparse.Namespace) -> int:
    """One line each: the board, where lgpio comes from, and whether ``dtparam=strict_gpiod`` is
    in force in the running kernel (not just written in the boot config). Exit 1 on a Pi where
    a dead process's outputs would stay driven, or where that cannot be told."""
    from controller.launcher.strict_gpiod import board_model, strict_gpiod_status

    model = board_model()
    strict = strict_gpiod_status(model)
    print(f"board: {model or 'not a Raspberry Pi'}")
    if model:
        print(f"lgpio: {_lgpio_origin()}")
    print(f"strict_gpiod: {strict.text}")
    return 0 if strict.ok else 1


def _lgpio_origin() -> str:
    """Where ``import lgpio`` would come from, found without importing it (the import makes a
    FIFO)."""
    import importlib.util

    spec = importlib.util.find_spec("lgpio")
    if spec is None or not spec.origin:
        return "not installed: the gpio backend cannot open (sudo make install puts it in)"
    origin = spec.origin
    if origin.startswith(sys.prefix + os.sep) and sys.prefix != sys.base_prefix:
        return f"{origin} (PyPI's lgpio, in this virtual environment)"
    if origin.startswith("/usr/lib/python3/dist-packages/"):
        return f"{origin} (Debian package python3-lgpio)"
    return origin


# --- press (demo) ---


def _press_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "press", help="press the UNO button on the simulated launcher and show what happens"
    )
    _profile_option(parser)
    add_renamed(
        parser,
        "--eject-profile",
        "--policy",
        default="toy",
        help="eject profile: a built-in or custom profile's name, or a .toml file",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for the eject policy")
    parser.add_argument("--script", help="comma-separated cards per press instead of a policy")
    parser.add_argument("--presses", type=int, default=1, help="how many presses (1-1000)")
    parser.add_argument("--suspense", type=float, default=0.0, help="seconds of suspense")
    parser.add_argument("--cards", type=int, default=112, help="cards in the simulated hopper")
    parser.add_argument("--jam-at", type=int, help="the simulated Nth card jams")
    parser.add_argument("--noise", type=float, default=0.0, help="beam glitches per second")
    parser.add_argument(
        "--card-rate", type=float, default=10.0, help="simulated cards/second at full speed"
    )
    parser.add_argument("--motor-log", type=Path, help="append every motor speed change here")
    parser.set_defaults(handler=cmd_press)


def _press_policy(args: argparse.Namespace) -> Policy:
    if args.script is not None:
        try:
            return ScriptedPolicy([int(k) for k in args.script.split(",")])
        except ValueError:
            raise UsageError("--script must be comma-separated whole numbers >= 0") from None
    return EjectPolicy(profile_from(args.eject_profile), random.Random(args.seed))


def _press_options(args: argparse.Namespace) -> SimOptions:
    if not 1 <= args.presses <= 1000:
        raise UsageError("--presses must be within 1..1000")
    if args.suspense < 0 or args.cards < 0 or args.noise < 0 or args.card_rate <= 0:
        raise UsageError("--suspense, --cards and --noise must be >= 0, --card-rate > 0")
    if args.jam_at is not None and args.jam_at < 1:
        raise UsageError("--jam-at must be >= 1")
    return SimOptions(
        cards=args.cards,
        cards_per_second=args.card_rate,
        jam_at=args.jam_at,
        noise_per_second=args.noise,
    )


def cmd_press(args: argparse.Namespace) -> int:
    policy = _press_policy(args)
    options = _press_options(args)
    launcher = open_guarded(_load(args.pin_profile), backend="sim", sim=options)
    machine = launcher.simulator
    assert machine is not None  # the sim backend always has one
    if args.motor_log is not None:
        _log_motor(machine, args.motor_log)
    with motor_safe(launcher):
        runner = PressRunner(
            launcher, policy, remaining=lambda: machine.stack, suspense=args.suspense
        )
        for _ in range(args.presses):
            machine.press()
            outcome = runner.outcomes.get(timeout=120)
            print(describe_outcome(outcome, machine.stack), flush=True)
        runner.close()
    return 0


def describe_outcome(outcome: PressOutcome, left: int) -> str:
    """One line for a press: what the policy decided and what came out."""
    head = f"press {outcome.press.seq}:"
    if outcome.decision is None:
        return f"{head} refused ({outcome.refused})"
    d = outcome.decision
    tension = f"tension {d.tension:.2f}"
    if outcome.result is None:
        why = f" ({outcome.refused})" if outcome.refused else ""
        return f"{head} {d.reason}{why}, no cards ({tension})"
    r = outcome.result
    return (
        f"{head} {d.reason}: wanted {d.wanted} → ejected {r.ejected} [{r.reason}] "
        f"in {r.seconds:.2f} s, {left} left ({tension})"
    )


def _log_motor(machine: Any, path: Path) -> None:
    """Append ``<monotonic time> <speed>`` per motor change: the record a test or a demo reads."""
    handle: TextIO = path.open("a", encoding="utf-8")
    lock = threading.Lock()

    def write(t: float, speed: float) -> None:
        with lock:
            handle.write(f"{t:.6f} {speed:g}\n")
            handle.flush()

    machine.add_motor_listener(write)
    write(time.monotonic(), machine.speed)
