"""`uno-attack run --demo-speed N`: refused clearly when it makes no sense; the addresses it
prints start with one that works on this machine."""

from __future__ import annotations

import pytest

from controller.cli import main
from controller.cli.run import demo_banner
from controller.config import Config, ServiceConfig
from web_ui.addresses import urls


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["--demo", "--demo-speed", "0"], "--demo-speed must be more than 0"),
        (["--demo", "--demo-speed", "-3"], "--demo-speed must be more than 0"),
        (["--demo", "--demo-speed", "1000"], "at most 100"),
        (["--demo-speed", "5"], "--demo-speed needs --demo"),
    ],
)
def test_bad_demo_speed_is_refused(
    args: list[str], reason: str, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    assert main(["run", *args, "--data-dir", str(tmp_path)]) == 2
    assert reason in capsys.readouterr().err


def test_first_address_works_here_and_the_banner_says_demo() -> None:
    addresses = urls(Config(service=ServiceConfig(host="0.0.0.0", port=8080)))
    assert addresses[0] == "http://localhost:8080/"
    assert len(addresses) == len(set(addresses))
    assert "bots play on a simulated launcher" in demo_banner(1)
    assert "20 times faster" in demo_banner(20)
