"""What the pages need to know about match formats, as the engine and the table tell it:
which options belong to each format (the set-up page shows them only then), the players a
format needs, the formats a table only keeps the score of, and the rotation tournaments'
schedules (the scoreboard shows the whole cycle and the next pairing).

Nothing here is a rule: this only hands the pages what the engine and the table know.
"""

from __future__ import annotations

from typing import Any

from controller.engine.formats import DEALS_PER_PARTNERSHIP, rotation_schedule
from controller.engine.option_table import FORMAT_FIELDS, FORMAT_PLAYERS, SCORING_FIELDS
from controller.table.session import SCORE_ONLY_FORMATS

__all__ = ["FORMAT_FIELDS", "SCORING_FIELDS", "format_guide", "schedules"]


def format_guide() -> dict[str, Any]:
    """The set-up page's rules for showing the format's options."""
    return {
        "fields": {name: list(fields) for name, fields in FORMAT_FIELDS.items()},
        "scoring": {name: list(modes) for name, modes in SCORING_FIELDS.items()},
        "players": dict(FORMAT_PLAYERS),
        "score_only": list(SCORE_ONLY_FORMATS),
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
