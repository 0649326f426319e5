"""A simulated deal that does not end is stopped the same way on both paths: the validated
engine's loop and the fast path raise the same `RunawayGame` (an engine error, so every command
reports it as such) at the same deal, after the same number of actions, with the same words."""

from __future__ import annotations

import pytest

from controller.engine import EngineError, Rules, autoplay
from controller.fastsim import deal as fast_deal
from controller.policy import PROFILES
from controller.simulation import fast_deals, simulate

CAP = 3_000
"""Actions allowed in the test: the first 293 deals of the case take at most 912."""


@pytest.mark.parametrize("path", ["fast", "validated"])
def test_both_paths_stop_the_same_deal_with_the_same_words(
    monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    monkeypatch.setattr(autoplay, "MAX_ACTIONS", CAP)
    monkeypatch.setattr(fast_deal, "MAX_STEPS", CAP)
    rules = Rules.create("classic", hand_size=30)
    with pytest.raises(autoplay.RunawayGame) as stopped:
        simulate(rules, 3, 300, 1, PROFILES["toy"], "heuristic", path=path)
    assert isinstance(stopped.value, EngineError)
    assert str(stopped.value).startswith(
        "deal 294 of seed 1: the deal had not ended after 3,000 actions (107 of the 108 cards "
        "in hands, 0 left to draw or reload)"
    )


@pytest.mark.parametrize("game", ["classic", "attack"])
def test_both_paths_count_actions_alike_to_the_last_one_allowed(
    monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    """A deal ending with the last action allowed has ended, on both paths; one action
    fewer allowed stops it, on both paths."""
    rules = Rules.create(game)
    (outcome,) = fast_deals(rules, 4, 1, 5, PROFILES["toy"], "heuristic")
    for cap, ends in ((outcome.actions, True), (outcome.actions - 1, False)):
        monkeypatch.setattr(autoplay, "MAX_ACTIONS", cap)
        monkeypatch.setattr(fast_deal, "MAX_STEPS", cap)
        for path in ("fast", "validated"):
            try:
                summary = simulate(rules, 4, 1, 5, PROFILES["toy"], "heuristic", path=path)
            except autoplay.RunawayGame:
                assert not ends, (path, cap)
            else:
                assert ends and summary.finished == 1, (path, cap)
