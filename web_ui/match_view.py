"""What the pages need to know about match formats, as the engine tells it: which options
belong to each format (the set-up page shows them only then), the players a format needs, the
formats a single table only keeps the score of, and the rotation tournaments' schedules (the
scoreboard shows the whole cycle and the next pairing).

Nothing here is a rule: this only hands the pages what the engine's formats declare.
"""

from __future__ import annotations

from typing import Any

from controller.engine import DEALS_PER_PARTNERSHIP, FORMATS, rotation_schedule

__all__ = ["format_guide", "schedules"]


def format_guide() -> dict[str, Any]:
    """The set-up page's rules for showing the format's options."""
    return {
        "fields": {name: list(f.fields) for name, f in FORMATS.items()},
        "scoring": {
            name: list(modes) for name, modes in FORMATS["standard"].scoring_fields.items()
        },
        "players": {name: f.fixed_players for name, f in FORMATS.items() if f.fixed_players},
        "score_only": [name for name, f in FORMATS.items() if f.score_only_at_one_table],
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
