"""The eject profiles a table may choose (`ProfileShelf`): the built-ins, then the custom files
of the data directory and of `hardware/eject-profiles/`, each by its file's name with its
one-line description; refused files with the reason; a set-up's record of a profile."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from controller.policy import PROFILES, ProfileError, load_profile
from controller.policy.custom_profiles import (
    SHIPPED,
    ProfileShelf,
    check_name,
    profile_from_params,
    profile_params,
)

OURS = 'description = "Ours"\nbase = "gentle"\nfire_probability = 0.45\n'


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shelf_lists_built_ins_then_custom_profiles_by_name(tmp_path: Path) -> None:
    _write(tmp_path / "mine", "zeta.toml", OURS)
    _write(tmp_path / "mine", "alpha.toml", OURS.replace("Ours", "First"))
    _write(tmp_path / "mine", "notes.txt", "not a profile")
    shelf = ProfileShelf([tmp_path / "mine"])
    assert shelf.names() == (*PROFILES, "alpha", "zeta")
    entries = {e.name: e for e in shelf.entries()}
    assert entries["alpha"].description == "First" and entries["alpha"].custom
    assert not entries["toy"].custom and entries["toy"].profile is PROFILES["toy"]
    assert shelf.load("zeta").fire_probability == 0.45 and shelf.load("zeta").name == "zeta"
    assert shelf.load("brutal") is PROFILES["brutal"]


def test_the_data_directory_wins_over_the_shipped_examples(tmp_path: Path) -> None:
    shelf = ProfileShelf.for_data_dir(tmp_path)
    assert "party" in shelf.names()  # hardware/eject-profiles/party.toml
    assert shelf.load("party") == load_profile(str(SHIPPED / "party.toml"))
    _write(tmp_path / "eject-profiles", "party.toml", OURS)
    assert shelf.load("party").fire_probability == 0.45


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = _write(tmp_path, "ours.toml", OURS)
    shelf = ProfileShelf([tmp_path])
    assert shelf.load("ours").fire_probability == 0.45
    path.write_text(OURS.replace("0.45", "0.3"), encoding="utf-8")
    os.utime(path, ns=(1, 1))  # a new stamp, however fast the test ran
    assert shelf.load("ours").fire_probability == 0.3


@pytest.mark.parametrize(
    ("file", "text", "reason"),
    [
        ("toy.toml", OURS, "'toy' is a built-in eject profile's name"),
        ("Big Night.toml", OURS, "is no eject profile name"),
        ("broken.toml", "fire_probability = [", "invalid TOML"),
        ("long.toml", f'description = "{"x" * 121}"\nbase = "toy"\n', "longer than 120"),
        ("lines.toml", 'description = """a\nb"""\nbase = "toy"\n', "one line of text"),
        ("bytes.toml", "", "not UTF-8 text"),
        ("huge.toml", "# " + "x" * 70_000 + '\nbase = "toy"\n', "larger than 64 KB"),
    ],
)
def test_a_refused_file_says_why_and_is_never_offered(
    tmp_path: Path, file: str, text: str, reason: str
) -> None:
    path = _write(tmp_path, file, text)
    if file == "bytes.toml":
        path.write_bytes(b"\xff\xfe base")
    shelf = ProfileShelf([tmp_path])
    (entry,) = [e for e in shelf.entries() if e.custom]
    assert entry.profile is None and entry.error is not None and reason in entry.error
    assert str(tmp_path) not in entry.error  # the file's name, never where it lives
    assert entry.name not in shelf.names()[len(PROFILES) :]
    if entry.name not in PROFILES:
        with pytest.raises(ProfileError, match=reason):
            shelf.load(entry.name)


def test_an_unknown_name_lists_what_there_is(tmp_path: Path) -> None:
    _write(tmp_path, "ours.toml", OURS)
    with pytest.raises(ProfileError, match=r"unknown eject profile 'laser'.*draw-one, ours"):
        ProfileShelf([tmp_path]).load("laser")


def test_a_missing_folder_has_no_profiles(tmp_path: Path) -> None:
    assert ProfileShelf([tmp_path / "nothing"]).names() == tuple(PROFILES)


def test_a_configured_file_is_on_the_shelf_by_its_name(tmp_path: Path) -> None:
    path = _write(tmp_path / "elsewhere", "ours.toml", OURS)
    assert ProfileShelf((), [path]).load("ours").fire_probability == 0.45
    with pytest.raises(ProfileError, match=r"cannot read gone\.toml"):
        ProfileShelf((), [tmp_path / "gone.toml"]).load("gone")


@pytest.mark.parametrize("name", [*PROFILES, "ours"])
def test_a_profiles_parameters_rebuild_it_exactly(name: str) -> None:
    profile = PROFILES.get(name) or load_profile(str(SHIPPED / "party.toml"))
    params = profile_params(profile)
    again = profile_from_params(params, profile.name)
    assert again == profile


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"counts": [[1, 1, 1]]}, "counts must be a list of"),
        ({"counts": [[0, 1]]}, "card count must be an integer >= 1"),
        ({"max_drought": -1}, "max_drought must be an integer"),
        ({"loudness": 3}, "its parameters must be"),
    ],
)
def test_broken_parameters_are_an_error_naming_them(
    change: dict[str, object], message: str
) -> None:
    params = profile_params(PROFILES["toy"]) | change
    with pytest.raises(ProfileError, match=message):
        profile_from_params(params, "ours")


@pytest.mark.parametrize("name", ["ours", "kids-2", "a_b", "9lives"])
def test_custom_names(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize("name", ["toy", "", "Ours", "-x", "a b", "x" * 33, "../x"])
def test_not_custom_names(name: str) -> None:
    with pytest.raises(ProfileError):
        check_name(name)
