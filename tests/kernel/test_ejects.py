"""Ejects on the real chip: the project's gpio backend (gpiozero's LGPIOFactory on the real
lgpio) under its motor guard, counting the cards the world passes through the beam: each run's
count is exactly what came out, and the motor lines rest low after every run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from controller.launcher.errors import LauncherFault
from controller.launcher.guard import open_guarded
from controller.launcher.launcher import Launcher
from tests.launcher.helpers import Recorder
from tests.waiting import wait_until

from .conftest import PROFILE, World, level

FORWARD, BACKWARD, ENABLE = 12, 13, 26


@pytest.fixture(scope="module")
def opened() -> Iterator[Launcher]:
    launcher = open_guarded(str(PROFILE), backend="gpio")
    yield launcher
    launcher.close()


@pytest.fixture
def launcher(opened: Launcher) -> Launcher:
    """The module's launcher, with no fault left by a test before (one failure stays one)."""
    opened.clear_fault()
    return opened


@pytest.mark.parametrize("cards", range(1, 13))
def test_eject_counts_exactly_what_came_out(launcher: Launcher, world: World, cards: int) -> None:
    world("cards 40")
    before = world("state")
    result = launcher.eject(cards)
    after = world("state")
    came_out = after["out"] - before["out"]
    starts = after["switches"] - before["switches"]
    looks = {k: after["looks"][k] - before["looks"][k] for k in after["looks"]}
    seen = (
        result, f"{came_out} came out", f"the world saw the motor start {starts} times",
        f"it looked at the motor lines {looks['all']} times: forward high {looks['forward']}, "
        f"enable high {looks['enable']}",
    )  # fmt: skip
    assert result.reason == "count", seen
    assert result.ejected == came_out >= cards, seen
    assert (level(FORWARD), level(BACKWARD)) == (0, 0)


def test_an_empty_hopper_is_said_empty_and_nothing_is_counted(
    launcher: Launcher, world: World
) -> None:
    world("cards 0")
    before = world.out()
    result = launcher.eject(2)
    assert (result.reason, result.ejected, world.out() - before) == ("empty", 0, 0), result
    assert (level(FORWARD), level(BACKWARD)) == (0, 0)
    launcher.clear_fault()


def test_an_open_lid_stops_the_motor_before_it_starts(launcher: Launcher, world: World) -> None:
    world("cards 10")
    before = world("lid open")  # the lid stops the run, and no run starts while it is open
    wait_until(lambda: launcher.fault is not None, "the open lid seen")
    assert launcher.fault is not None and launcher.fault.kind == "lid_open"
    with pytest.raises(LauncherFault):
        launcher.eject(1)
    after = world("lid closed")
    assert after["out"] == before["out"] and after["switches"] == before["switches"]
    wait_until(lambda: launcher.fault is None, "the closed lid seen")


def test_a_failing_handler_on_one_line_leaves_the_others_hearing(
    launcher: Launcher, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On lgpio's real alert thread: the lid's handler raises; the button is still heard (it
    once heard nothing more: the thread had ended) and the failure is a fault on the table."""
    presses = Recorder()
    launcher.add_press_consumer(presses)
    enqueue = launcher.enqueue_input

    def lid_handler_fails(kind: str, t: float, level: bool) -> None:
        if kind == "lid":
            raise RuntimeError("a bug in the lid's handler")
        enqueue(kind, t, level)  # type: ignore[arg-type]

    monkeypatch.setattr(launcher, "enqueue_input", lid_handler_fails)
    world("lid open")
    wait_until(lambda: launcher.fault is not None, "the failure seen")
    world("lid closed")
    world("press")
    presses.wait_for(lambda items: [event.kind for event in items] == ["press", "release"])
    fault = launcher.fault
    assert fault is not None and fault.kind == "input" and "lid input" in fault.detail, fault
    monkeypatch.undo()
    launcher.remove_press_consumer(presses)
    launcher.clear_fault()
    world("cards 5")
    assert launcher.eject(1).ejected == 1  # and the beam still counts
