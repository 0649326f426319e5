"""The launcher's physical world on the gpio-sim chip, as a process of its own (in the guest).

It plays every part outside the Pi, through the chip's sysfs files (``$KGPIO_SYSFS/sim_gpioN/``:
``value`` reads what the line shows, ``pull`` drives an input from outside as a switch or a
receiver does):

* the UNO button (to GND: released reads high) and the lid switch (to GND: closed reads low);
* the feed: while the motor runs (its forward and enable lines high; the software PWM toggles
  the forward line), a card from the hopper crosses the beam every `PERIOD` s, blocking it (low)
  for `PULSE` s. A card that has started to cross always finishes: the wheel has it. The motor
  counts as stopped only once the forward line has read low at `STOP_LOOKS` looks in a row over
  `RUN_WINDOW`: a world starved of the CPU for longer than that (a busy guest) that then reads
  one PWM low is not a stop; it once restarted the wheel's first-card delay at every stall, and
  five seconds of motor running passed no card. The looks come at a jittered pace: at a steady
  one they can alias with the PWM's period and land in its low part time after time.

The levels the world wants are re-asserted whenever the chip shows another: gpio-sim models a
line request's bias with the same `pull` attribute, so a line the launcher claims with its
pull-up would otherwise read an open lid.

Commands, one per line on stdin; each answers one JSON line on stdout:
``cards N`` (fill the hopper), ``press`` (press and release the button), ``lid open|closed``,
``released keep|revert`` (what a freed output shows: its last level, as Raspberry Pi OS keeps a
dead owner's, or its pull-down again, as with ``dtparam=strict_gpiod``; the rig's gpio-sim has a
``keep_level`` parameter for it), ``state`` (cards out, hopper, motor on and its switches, and
how often the feed looked at the motor lines and saw each high: a failed count then tells a
starved world from lines it never saw driven),
``quit``.
Pulses and gaps are tens of ms: under software emulation edges a few ms apart merge.
"""

from __future__ import annotations

import json
import os
import random
import sys
import threading
import time

SYSFS = os.environ.get("KGPIO_SYSFS", "")
KEEP_LEVEL = "/sys/module/gpio_sim/parameters/keep_level"
FORWARD, BACKWARD, ENABLE = 12, 13, 26  # tests/kernel/kernel.toml's motor lines
BUTTON, BEAM, LID = 17, 27, 5
PULSE = 0.12  # s the beam is blocked per card (one card of wheel travel at ~0.7 duty)
PERIOD = 0.35  # s from one card's edge to the next while the wheel turns
FIRST = 0.2  # s from motor on to the first card's edge
RUN_WINDOW = 0.03  # s: the forward line low this long (and STOP_LOOKS looks) means stopped
STOP_LOOKS = 10  # at 0.8 duty ten random looks all land low one time in 10^7
HOLD = 0.15  # s a press holds the button down
TICK = 0.002  # s between looks at the lines


def path(line: int, attribute: str) -> str:
    return os.path.join(SYSFS, f"sim_gpio{line}", attribute)


class World:
    def __init__(self) -> None:
        self.want = {BUTTON: True, BEAM: True, LID: False}  # released, clear, closed
        self.values = {line: os.open(path(line, "value"), os.O_RDONLY)
                       for line in (FORWARD, ENABLE, *self.want)}  # fmt: skip
        self.lock = threading.Lock()
        self.hopper = 0
        self.out = 0  # cards that have crossed the beam (counted as they block it)
        self.motor_on = False
        self.switches = 0  # motor off -> on changes seen
        self.looks = {"all": 0, "forward": 0, "enable": 0}  # looks, and those that saw it high
        for line, high in self.want.items():
            self.drive(line, high)

    def level(self, line: int) -> bool:
        return os.pread(self.values[line], 2, 0)[:1] == b"1"

    def drive(self, line: int, high: bool) -> None:
        with open(path(line, "pull"), "w") as pull:
            pull.write("pull-up" if high else "pull-down")

    def set(self, line: int, high: bool) -> None:
        with self.lock:
            self.want[line] = high
            self.drive(line, high)

    def press(self) -> None:
        self.set(BUTTON, False)
        time.sleep(HOLD)
        self.set(BUTTON, True)

    def run(self) -> None:
        """The feed, forever: a card every PERIOD while the motor runs, each one whole."""
        last_high, low_looks = -1.0, STOP_LOOKS
        next_card: float | None = None
        blocked_until: float | None = None
        while True:
            now = time.monotonic()
            forward, enable = self.level(FORWARD), self.level(ENABLE)
            self.looks["all"] += 1
            self.looks["forward"] += forward
            self.looks["enable"] += enable
            if forward and enable:
                last_high, low_looks = now, 0
            else:
                low_looks += 1
            running = now - last_high < RUN_WINDOW or low_looks < STOP_LOOKS
            if running and not self.motor_on:
                self.switches += 1
                next_card = now + FIRST
            self.motor_on = running
            if blocked_until is not None and now >= blocked_until:
                self.set(BEAM, True)
                blocked_until = None
                next_card = now + PERIOD - PULSE
            elif (
                blocked_until is None and running and self.hopper and next_card and now >= next_card
            ):
                self.set(BEAM, False)
                blocked_until = now + PULSE
                self.hopper -= 1
                self.out += 1
            with self.lock:
                for line, high in self.want.items():
                    if self.level(line) != high:
                        self.drive(line, high)
            time.sleep(TICK * random.uniform(0.5, 1.5))

    def state(self) -> dict[str, object]:
        return {"out": self.out, "hopper": self.hopper, "motor_on": self.motor_on,
                "switches": self.switches, "looks": dict(self.looks)}  # fmt: skip

    def command(self, words: list[str]) -> dict[str, object]:
        match words:
            case ["cards", n]:
                self.hopper = int(n)
            case ["press"]:
                self.press()
            case ["lid", ("open" | "closed") as position]:
                self.set(LID, position == "open")
            case ["released", ("keep" | "revert") as released]:
                with open(KEEP_LEVEL, "w") as parameter:
                    parameter.write("Y" if released == "keep" else "N")
                if released == "revert":  # and a line freed while kept reads its pull-down
                    for line in (FORWARD, BACKWARD, ENABLE):
                        self.drive(line, False)
            case ["state"]:
                pass
            case _:
                return {"error": f"unknown command: {' '.join(words)}"}
        return self.state()


def main() -> None:
    world = World()
    threading.Thread(target=world.run, daemon=True).start()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        words = line.split()
        if words == ["quit"]:
            break
        print(json.dumps(world.command(words)), flush=True)


if __name__ == "__main__":
    main()
