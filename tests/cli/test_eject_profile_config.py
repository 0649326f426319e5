"""`[launcher] eject_profile` names the profile a table's set-ups get by default: a built-in, a
custom profile by name (the data directory's or a shipped one), or a .toml file by its path.
The configuration checks the form; `uno-attack run` loads it before the table starts, and a
missing or broken one stops the start with a message naming the key (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import UsageError
from controller.cli.tables import eject_profiles
from controller.config import parse_config
from controller.sections import ConfigError

OURS = 'description = "Ours"\nbase = "gentle"\nfire_probability = 0.45\n'


def _config(data: Path, value: str) -> str:
    return f'[service]\ndata_dir = "{data}"\n[launcher]\neject_profile = "{value}"\n'


@pytest.mark.parametrize("value", ["toy", "ours", "party", "ours.toml"])
def test_the_table_starts_with_the_configured_profile(tmp_path: Path, value: str) -> None:
    (tmp_path / "eject-profiles").mkdir()
    (tmp_path / "eject-profiles" / "ours.toml").write_text(OURS, encoding="utf-8")
    if value.endswith(".toml"):
        value = str(tmp_path / "eject-profiles" / value)
    shelf, name = eject_profiles(parse_config(_config(tmp_path, value)))
    assert name == Path(value).stem and shelf.load(name).name == name
    assert {"ours", "party"} <= set(shelf.names())


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("laser", "unknown eject profile 'laser'"),
        ("broken", "invalid TOML"),
        ("missing.toml", "cannot read missing.toml"),
        ("elsewhere/toy.toml", "'toy' is a built-in eject profile's name"),
    ],
)
def test_a_missing_or_broken_profile_stops_the_start(
    tmp_path: Path, value: str, message: str
) -> None:
    (tmp_path / "eject-profiles").mkdir()
    (tmp_path / "eject-profiles" / "broken.toml").write_text("x = [", encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "toy.toml").write_text(OURS, encoding="utf-8")
    if value.endswith(".toml"):
        value = str(tmp_path / value)
    with pytest.raises(UsageError, match=rf"\[launcher\] eject_profile: .*{message}"):
        eject_profiles(parse_config(_config(tmp_path, value)))


@pytest.mark.parametrize("value", ["Big Night", "../x", ""])
def test_the_configuration_refuses_what_is_no_profile(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError, match=r"launcher\.eject_profile.*custom profile's name"):
        parse_config(_config(tmp_path, value))
