"""With the real motor, real cards and a person watching: eject 1, 3 and 7 and compare counts.

Run on the Pi with the launcher assembled and loaded with cards:
``UNO_HIL=1 UNO_HIL_OPERATOR=1 pytest -s -m operator tests/hil`` (``-s``: it asks questions).
``UNO_HIL_PROFILE`` names the pin profile (default hbridge).
"""

from __future__ import annotations

import os

import pytest
from gpiozero import Device

from controller.launcher import open_launcher

from .conftest import real_jig_available

pytestmark = [pytest.mark.hil_real, pytest.mark.operator]


def operator_ready() -> tuple[bool, str]:
    available, reason = real_jig_available()
    if not available:
        return False, reason.replace("real jig", "operator test")
    if os.environ.get("UNO_HIL_OPERATOR") != "1":
        return False, "operator test: set UNO_HIL_OPERATOR=1 with the motor and cards fitted"
    return True, ""


@pytest.mark.parametrize("cards", [1, 3, 7])
def test_operator_eject_counts_match_what_a_person_sees(cards: int) -> None:
    ready, reason = operator_ready()
    if not ready:
        pytest.skip(reason)
    from controller.launcher.factory import gpio_pin_factory  # lgpio, only on the Pi

    factory = gpio_pin_factory()
    Device.pin_factory = factory
    profile = os.environ.get("UNO_HIL_PROFILE", "hbridge")
    with open_launcher(profile, backend="gpio", pin_factory=factory) as launcher:
        result = launcher.eject(cards)
    assert launcher.devices.motor.value == 0
    seen = int(
        input(
            f"\nEjected {cards} requested, counted {result.ejected} ({result.reason}). "
            "How many cards came out? "
        )
    )
    assert result.complete and seen == cards == result.ejected
