"""A family's own eject profiles over HTTP: `/api/options` lists them with their one-line
descriptions (and the files the table refuses, with the reason); a set-up chooses one by
name; a broken or unknown one is a 400 with the reason, and the table plays on."""

from __future__ import annotations

from controller.policy import PROFILES
from controller.store import Store

from .conftest import SETUP, Tablet

OURS = 'description = "Ours: quick deals"\nbase = "gentle"\nfire_probability = 0.45\n'


def _install(store: Store, name: str, text: str) -> None:
    folder = store.path.parent / "eject-profiles"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.toml").write_text(text, encoding="utf-8")


def test_options_offer_installed_profiles_with_their_descriptions(
    tablet: Tablet, store: Store
) -> None:
    _install(store, "ours", OURS)
    _install(store, "broken", "fire_probability = [")
    body = tablet.get("/api/options").get_json()
    assert body["eject_profiles"][: len(PROFILES)] == list(PROFILES)
    assert "ours" in body["eject_profiles"] and "broken" not in body["eject_profiles"]
    assert {"name": "ours", "description": "Ours: quick deals"} in body["custom_eject_profiles"]
    (refused,) = [r for r in body["refused_eject_profiles"] if r["name"] == "broken"]
    assert "invalid TOML" in refused["reason"] and str(store.path.parent) not in refused["reason"]


def test_a_set_up_chooses_an_installed_profile_and_records_it(
    playing: Tablet, store: Store
) -> None:
    _install(store, "ours", OURS)
    answer = playing.post("/api/setup", {"setup": SETUP | {"eject_profile": "ours"}})
    assert answer.status_code == 200, answer.get_json()
    setup = answer.get_json()["state"]["setup"]
    assert setup["eject_profile"] == "ours" and setup["eject_params"]["fire_probability"] == 0.45


def test_a_broken_or_unknown_profile_is_a_400_and_the_table_plays_on(
    playing: Tablet, store: Store
) -> None:
    _install(store, "broken", "fire_probability = [")
    for name, reason in [("broken", "invalid TOML"), ("laser", "unknown eject profile")]:
        answer = playing.post("/api/setup", {"setup": SETUP | {"eject_profile": name}})
        assert answer.status_code == 400 and reason in answer.get_json()["error"]
    assert playing.get("/api/state").get_json()["deal"]["top"] == "R5"  # the match goes on
    answer = playing.post("/api/setup", {"setup": SETUP | {"eject_profile": "party"}})
    assert answer.status_code == 200  # the shipped example, by name


def test_a_set_up_cannot_send_parameters_of_its_own(playing: Tablet, store: Store) -> None:
    _install(store, "ours", OURS)
    setup = SETUP | {"eject_profile": "ours", "eject_params": {"fire_probability": 1}}
    answer = playing.post("/api/setup", {"setup": setup})
    assert answer.status_code == 400 and "send its name" in answer.get_json()["error"]
