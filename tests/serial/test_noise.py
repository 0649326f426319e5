"""Motor noise on the board's inputs: microsecond spikes on the button and the beam while the
motor runs are neither presses nor cards (the board counts a level only once it is stable, and
a pulse only inside the card window)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from controller.launcher.board import FakeBoard, SerialLauncher
from tests.launcher.helpers import Recorder
from tests.waiting import wait_until

from .conftest import board_of

Open = Callable[..., SerialLauncher]


@contextmanager
def one_instant(board: FakeBoard) -> Iterator[None]:
    """The edges driven inside happen at one instant for the board, as a microsecond spike
    does on the real one, however long this busy machine takes to drive them: the board's
    clock stands still and its interrupts are held off (its main loop and other inputs wait,
    as they would behind an interrupt handler), then time goes on where it really is."""
    clock = board.clock
    source = clock._source
    state = board.machine.disable_irq()
    now = source()
    clock._source = lambda: now
    try:
        yield
    finally:
        clock._source = source
        board.machine.enable_irq(state)


def test_spikes_on_button_and_beam_during_runs_are_not_presses_nor_cards(open_board: Open) -> None:
    launcher = open_board(noise_per_second=20.0)
    board = board_of(launcher)
    button = board.factory.pin(f"GPIO{launcher.profile.button.pin}")
    presses = Recorder()
    launcher.add_press_consumer(lambda event: presses(event.kind))
    stop = threading.Event()
    spikes = 0

    def spike() -> None:  # the motor's brushes, coupled into the button's wire
        nonlocal spikes
        while not stop.is_set():
            if launcher.simulator.speed > 0:
                with one_instant(board):
                    button.drive_low()
                    button.drive_high()
                spikes += 1
            stop.wait(0.002)

    spiker = threading.Thread(target=spike, daemon=True)
    spiker.start()
    try:
        for n in (3, 5, 4):
            before = launcher.simulator.cards_out
            result = launcher.eject(n)
            assert result.complete, result
            assert launcher.simulator.cards_out - before == n
    finally:
        stop.set()
        spiker.join()
    assert spikes > 50
    assert board.app.hw.button.presses == 0 and presses.items == []
    launcher.simulator.press()  # a real press still counts
    assert wait_until(lambda: presses.items.count("press") == 1)
