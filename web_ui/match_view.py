"""What the pages need to know about match formats beyond the option registry: which options
belong to each format (the set-up page shows them only then), and the rotation tournaments'
schedules (the scoreboard shows the whole cycle and the next pairing).

The engine decides what the options mean; this only decides what a tablet shows when.
"""

from __future__ import annotations

from typing import Any, Final

from controller.engine.formats import DEALS_PER_PARTNERSHIP, rotation_schedule
from controller.engine.option_table import FORMATS

# The options each format uses (RULES.md §9.2-§9.6). Everything else is a rule of play.
FORMAT_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "standard": (
        "scoring", "target", "num_deals", "chip_rate", "starting_chips",
        "break_ties_by_continuing",
    ),
    "elim_within_deal": ("num_deals",),
    "elim_tournament": ("target",),
    "team_play": ("teams", "team_scoring", "target"),
    "rotation_4p": ("team_scoring", "num_deals"),
    "rotation_8p": ("team_scoring", "num_deals"),
}  # fmt: skip

# Under the standard format, some options only mean something with some ways of scoring.
SCORING_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "target": ("winner_collects", "penalty", "bust"),
    "num_deals": ("chips",),
    "chip_rate": ("chips",),
    "starting_chips": ("chips",),
    "break_ties_by_continuing": ("penalty",),
}

# Formats that need a number of players, or a table that only keeps score.
FORMAT_PLAYERS: Final[dict[str, int]] = {"rotation_4p": 4, "rotation_8p": 8}
SCORE_ONLY: Final = ("rotation_8p",)

assert set(FORMAT_FIELDS) == set(FORMATS), "every format says which options it uses"


def format_guide() -> dict[str, Any]:
    """The set-up page's rules for showing the format's options."""
    return {
        "fields": {name: list(fields) for name, fields in FORMAT_FIELDS.items()},
        "scoring": {name: list(modes) for name, modes in SCORING_FIELDS.items()},
        "players": dict(FORMAT_PLAYERS),
        "score_only": list(SCORE_ONLY),
    }


def schedules() -> dict[str, Any]:
    """Both rotation cycles (§9.6), one entry per block of `deals_per_block` deals: round,
    table and seating (match players in seats 0-3; seats 0 and 2 are partners, 1 and 3 the
    other team). The deal with index i is played by block (i // deals_per_block) mod size."""
    cycles = {
        str(players): [
            {"round": round_, "table": table, "seating": list(seating)}
            for round_, seating, table in rotation_schedule(players)
        ]
        for players in (4, 8)
    }
    return {"deals_per_block": DEALS_PER_PARTNERSHIP, "cycles": cycles}
