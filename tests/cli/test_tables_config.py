"""`[[tables]]`: the tables of a service with several, checked as the service starts (a clear
message and exit 2 for a configuration it cannot serve); without it, the one table "main" of
[table] and [launcher], as always."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from controller.cli.run import EveryLoop
from controller.cli.tables import plans
from controller.config import Config, parse_config
from controller.sections import ConfigError

TWO = """
[table]
pin = "4321"
language = "zh-CN"

[[tables]]
id = "window"
name = "Window table"
launcher = "gpio"
pin_profile = "mosfet"

[[tables]]
id = "corner-2"
launcher = "board"
serial_number = "E6614103E7"
pin = "9876"

[[tables]]
id = "typed_in"
"""


def test_each_table_is_planned_with_its_launcher() -> None:
    window, corner, typed = plans(parse_config(TWO))
    assert (window.table_id, window.table.name, window.table.pin, window.table.language) == (
        "window", "Window table", "4321", "zh-CN",
    )  # fmt: skip
    assert (window.kind, window.backend, window.pin_profile) == ("gpio", "gpio", "mosfet")
    assert (corner.table.name, corner.table.pin) == ("corner-2", "9876")  # its id, its PIN
    assert (corner.kind, corner.backend, corner.serial_number) == ("board", "serial", "E6614103E7")
    assert (typed.kind, typed.backend) == ("none", None)


def test_the_demo_puts_the_pins_table_on_the_simulator() -> None:
    window, corner, _ = plans(parse_config(TWO), demo=True)
    assert (window.kind, window.backend) == ("sim", "sim")
    assert corner.kind == "board"  # a real board plays with the bots, as a one-table demo's


def test_without_tables_the_service_is_the_one_table_main() -> None:
    (only,) = plans(parse_config('[launcher]\nbackend = "none"\n[table]\nname = "Home"'))
    assert (only.table_id, only.table.name, only.kind, only.backend) == ("main", "Home", "none",
                                                                          None)  # fmt: skip
    (simulated,) = plans(Config())  # "auto" off a Raspberry Pi
    assert simulated.table_id == "main" and simulated.kind in ("sim", "gpio")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('[[tables]]\nid = "Big Room"', "tables.id: must be 1 to 32 of a-z, 0-9, - and _"),
        ('[[tables]]\nname = "x"', "[[tables]] number 1: missing key 'tables.id'"),
        ('[[tables]]\nid = "a"\n[[tables]]\nid = "a"', "the id 'a' is given to two tables"),
        (
            '[[tables]]\nid = "a"\nlauncher = "gpio"\n[[tables]]\nid = "b"\nlauncher = "gpio"',
            'tables a, b all have launcher = "gpio": the Pi\'s pins drive one launcher',
        ),
        (
            '[[tables]]\nid = "a"\nlauncher = "board"\n[[tables]]\nid = "b"\nlauncher = "board"',
            "with several boards, give each table's its own serial_number",
        ),
        ('[[tables]]\nid = "a"\nserial_number = "E6"', 'only a launcher = "board" has one'),
        ('[[tables]]\nid = "a"\nlauncher = "usb"', "tables.launcher: expected one of"),
        ('[[tables]]\nid = "a"\npin = "12"', "tables.pin: must be 4 to 8 digits"),
        ('[tables]\nid = "a"', "tables must be an array of tables ([[tables]])"),
    ],
)
def test_a_table_the_service_cannot_serve_is_named(text: str, says: str) -> None:
    with pytest.raises(ConfigError, match=r"^tables\.toml: ") as refused:
        parse_config(text, "tables.toml")
    assert says in str(refused.value)


def test_run_refuses_it_before_opening_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "uno.toml"
    config.write_text('[[tables]]\nid = "a"\n[[tables]]\nid = "a"\n', encoding="utf-8")
    assert main(["run", "--config", str(config), "--data-dir", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("uno-attack run: error: ") and "given to two tables" in error


def test_the_launcher_flag_is_for_a_single_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "uno.toml"
    config.write_text('[[tables]]\nid = "a"\n', encoding="utf-8")
    assert main(["run", "--config", str(config), "--launcher", "sim"]) == 2
    assert "--launcher is for a service of one table" in capsys.readouterr().err


def test_the_watchdog_is_fed_only_while_every_table_turns() -> None:
    fed: list[int] = []
    every = EveryLoop(lambda: fed.append(1), 3)
    for loop in (0, 1, 0, 0):  # table 2's owner loop is stuck
        every.tick(loop)
    assert fed == []
    every.tick(2)
    assert fed == [1]
    every.tick(2)
    assert fed == [1]  # a new round: every loop again
