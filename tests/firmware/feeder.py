"""Cards for the firmware tests: while the forward line is driven, pulse the beam like cards."""

from __future__ import annotations

from .conftest import Rig


class Feeder:
    """Each card: `gap_ms` clear, then `pulse_ms` blocked, while the motor runs forward.
    `jam_at`: that card blocks the beam for good. Call `tick()` every simulated millisecond."""

    def __init__(
        self,
        rig: Rig,
        *,
        cards: int = 50,
        pulse_ms: int = 30,
        gap_ms: int = 40,
        jam_at: int | None = None,
    ) -> None:
        self.rig, self.cards, self.pulse, self.gap, self.jam_at = (
            rig,
            cards,
            pulse_ms,
            gap_ms,
            jam_at,
        )
        self.out = 0
        self._phase = 0  # ms into the current card's cycle

    def tick(self) -> None:
        beam = self.rig.pin[self.rig.pins["beam"]]
        if self.cards <= 0 or self.rig.motor_line("forward") <= 0:
            if self._phase < self.gap:
                self._phase = 0  # a card not yet at the beam waits behind it
            return
        self._phase += 1
        if self._phase == self.gap:
            beam.drive(0)  # blocked (the beam reads low when blocked)
        elif self._phase == self.gap + self.pulse:
            if self.jam_at == self.out + 1:
                self._phase -= 1  # stuck in the throat
                return
            beam.drive(1)
            self.out += 1
            self.cards -= 1
            self._phase = 0
