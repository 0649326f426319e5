"""A family's own eject profile (from `uno-attack tune --install`) at the table: chosen by name
from the data directory's `eject-profiles/`, recorded in the set-up with its parameters so the
match replays the same however the file changes later or if it is gone; a broken file or a
built-in's name is refused with the reason, never a crash."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.policy import PROFILES, profile_from_toml
from controller.policy.custom_profiles import profile_params
from controller.store import Store
from controller.table.codec import InvalidInput
from controller.table.service import TableService
from controller.table.session import TableSetup

from .conftest import SETUP, act

OURS = 'description = "Ours: quick deals"\nbase = "gentle"\nfire_probability = 0.45\n'


def _install(folder: Path, name: str, text: str) -> Path:
    (folder / "eject-profiles").mkdir(exist_ok=True)
    path = folder / "eject-profiles" / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _fire(service: TableService) -> float:
    """The fire probability the table's launcher presses by now."""
    policy = service.call(service.launcher_side.policy)
    return float(policy.profile.fire_probability)


def _set_up(service: TableService, **setup: Any) -> dict[str, Any]:
    service.submit({"type": "setup", "setup": SETUP | setup}, idem_key="set-up")
    return dict(service.snapshot()["setup"])


@pytest.fixture
def folder(store: Store) -> Path:
    """The data directory: where the store lives, and its custom profiles."""
    return store.path.parent


def test_a_set_up_chooses_an_installed_profile_by_name(service: TableService, folder: Path) -> None:
    _install(folder, "ours", OURS)
    can = service.capabilities()
    assert can.eject_profiles[: len(PROFILES)] == tuple(PROFILES) and "ours" in can.eject_profiles
    assert ("ours", "Ours: quick deals") in can.custom_eject_profiles
    setup = _set_up(service, eject_profile="ours")
    assert setup["eject_profile"] == "ours"
    assert setup["eject_params"] == profile_params(profile_from_toml(OURS, "ours"))
    assert _fire(service) == 0.45


def test_a_match_replays_its_own_profile_after_the_file_changed_or_went(
    store: Store, folder: Path
) -> None:
    path = _install(folder, "ours", OURS)
    first = TableService(store).start()
    try:
        _set_up(first, eject_profile="ours")
        first.submit({"type": "deal"})
        act(first, {"type": "TurnUp", "card": "R5"})
        before = first.snapshot()
    finally:
        first.stop()
    for change in (lambda: path.write_text("base = 'brutal'\n"), path.unlink):
        change()
        again = TableService(store).start()
        try:
            after = again.snapshot()
            assert after["setup"] == before["setup"] and after["deal"] == before["deal"]
            assert _fire(again) == 0.45  # the recorded profile, not the file
            assert store.set_aside_notices("main") == []  # nothing of the match refused
        finally:
            again.stop()
    with pytest.raises(InvalidInput, match="unknown eject profile 'ours'"):
        fresh = TableService(store).start()
        try:
            fresh.submit({"type": "setup", "setup": SETUP | {"eject_profile": "ours"}})
        finally:
            fresh.stop()


def test_a_retried_set_up_is_the_same_tap_after_the_file_changed(
    service: TableService, folder: Path
) -> None:
    path = _install(folder, "ours", OURS)
    key = "the-same-tap"
    command = {"type": "setup", "setup": SETUP | {"eject_profile": "ours"}}
    first = service.submit(command, idem_key=key)
    path.write_text(OURS.replace("0.45", "0.2"), encoding="utf-8")
    assert service.submit(command, idem_key=key).seq == first.seq
    assert _fire(service) == 0.45


@pytest.mark.parametrize(
    ("name", "text", "reason"),
    [
        ("broken", "fire_probability = [", "broken.toml: eject profile 'broken': invalid TOML"),
        ("wrong", "fire_probability = 2\nbase = 'toy'\n", "fire_probability must be a number"),
        ("odd", "base = 'toy'\nloudness = 3\n", "unknown key 'loudness'"),
        ("toy", "fire_probability = 0.9\nbase = 'toy'\n", "is a built-in eject profile's name"),
    ],
)
def test_a_bad_profile_file_is_refused_with_its_reason_and_the_table_plays_on(
    service: TableService, folder: Path, name: str, text: str, reason: str
) -> None:
    _install(folder, name, text)
    refused = dict(service.capabilities().refused_eject_profiles)
    assert reason in refused[name]
    if name in PROFILES:  # the built-in keeps its name: the file never replaces it
        assert "eject_params" not in _set_up(service, eject_profile=name)
        return
    with pytest.raises(InvalidInput, match=reason.split(": ")[-1][:20]):
        service.submit({"type": "setup", "setup": SETUP | {"eject_profile": name}})
    assert _set_up(service, eject_profile="gentle")["eject_profile"] == "gentle"


def test_a_request_cannot_bring_its_own_parameters(service: TableService, folder: Path) -> None:
    _install(folder, "ours", OURS)
    params = profile_params(PROFILES["brutal"])
    with pytest.raises(InvalidInput, match="eject_params are the table's record"):
        service.submit(
            {"type": "setup", "setup": SETUP | {"eject_profile": "ours", "eject_params": params}}
        )


def test_a_set_up_with_a_custom_profile_stands_on_its_own_record() -> None:
    params = profile_params(profile_from_toml(OURS, "ours"))
    setup = TableSetup(("Ann", "Bob"), eject_profile="ours", eject_params=params)
    assert setup.profile.fire_probability == 0.45 and setup.profile.name == "ours"
    assert TableSetup.from_dict(setup.to_dict()) == setup
    assert "eject_params" not in TableSetup(("Ann", "Bob")).to_dict()  # built-ins as before
    with pytest.raises(InvalidInput, match="must be one of toy, gentle, brutal, draw-one"):
        TableSetup(("Ann", "Bob"), eject_profile="ours")
    with pytest.raises(InvalidInput, match="built-in eject profile: it takes no parameters"):
        TableSetup(("Ann", "Bob"), eject_profile="toy", eject_params=params)
    with pytest.raises(InvalidInput, match="fire_probability must be"):
        wrong = params | {"fire_probability": 7}
        TableSetup(("Ann", "Bob"), eject_profile="ours", eject_params=wrong)
    with pytest.raises(InvalidInput, match="its parameters must be"):
        TableSetup(("Ann", "Bob"), eject_profile="ours", eject_params={"fire_probability": 0.5})
