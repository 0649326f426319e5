"""Shared helpers for the engine tests."""

from __future__ import annotations

from typing import Any

from controller.engine import Card, Game, parse_card


def c(text: str) -> Card:
    """`c("R5")`: a card from its notation."""
    return parse_card(text)


def state_of(game: Game) -> dict[str, Any]:
    """Everything that makes up a game's state, as comparable values."""
    return {
        "hands": [hand[:] for hand in game.hands],
        "pile": game.pile[:],
        "discard": game.discard[:],
        "duties": [
            (d.kind, d.seat, d.count, d.why, d.source, d.challengeable, d.legal, d.share,
             d.stackable)
            for d in game.duties
        ],
        "rng": game.rng.getstate(),
        **{
            name: getattr(game, name)
            for name in (
                "colour", "direction", "turn", "drawn", "exposed", "winner", "phase",
                "free_lead", "points", "active", "shown", "jump", "pressed", "finished",
            )
        },
    }  # fmt: skip
