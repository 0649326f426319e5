"""The simulation path: the validated engine's deals, played much faster.

Integer-coded cards and precomputed tables built from the same deck and option data
(`tables`), the launcher's random draws made without changing one (`rand`), and one deal loop
for the rule sets it covers (`deal`, house rules included; UNO Attack's groups of cards and
stacked Hit 2s are listed in `groups`). `uno-attack simulate`, `uno-attack tune` and the
benchmarks use it when `covers()` says so and fall back to the validated engine otherwise.
The validated engine stays the only authority for a real table and its log; this path only
ever answers "what would happen over many games".
"""

from .deal import BOT_KINDS, Deals, Outcome, covers
from .rand import EjectDecider
from .tables import build

__all__ = ["BOT_KINDS", "Deals", "EjectDecider", "Outcome", "build", "covers"]
