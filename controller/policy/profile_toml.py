"""Parsing custom eject profiles from TOML probability tables (the format is documented in
`controller.policy.eject`). Unknown keys are errors naming the key; every value is then
checked by `Profile` itself."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from typing import Any

from controller.policy.eject import PROFILES, Profile, ProfileError

_SCALARS = {
    "fire_probability",
    "max_drought",
    "drought_floor",
    "tension_exponent",
}
_TABLES = {"counts", "jackpot"}
_ABOUT = {"base", "description"}  # not parameters: where the profile starts, what it is for
LONGEST_DESCRIPTION = 120
_JACKPOT = {"probability": "jackpot_probability", "min": "jackpot_min", "max": "jackpot_max"}


def parse_profile(text: str, name: str) -> Profile:
    """Build a profile called `name` from a TOML probability table (format: policy docstring)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"eject profile {name!r}: invalid TOML: {error}") from None
    allowed = _SCALARS | _TABLES | _ABOUT
    for key in data:
        if key not in allowed:
            raise ProfileError(
                f"eject profile {name!r}: unknown key {key!r} "
                f"(expected one of: {', '.join(sorted(allowed))})"
            )
    _check_description(data.get("description", ""), name)
    base = _base_profile(data.get("base"), name)
    changes: dict[str, Any] = {k: data[k] for k in _SCALARS if k in data}
    if "counts" in data:
        changes["counts"] = _parse_counts(data["counts"], name)
    if "jackpot" in data:
        changes.update(_parse_jackpot(data["jackpot"], name))
    if base is None:
        if "counts" not in changes:
            raise ProfileError(f"eject profile {name!r}: counts is required without base")
        if "fire_probability" not in changes:
            raise ProfileError(f"eject profile {name!r}: fire_probability is required without base")
        return Profile(name=name, **changes)
    return replace(base, name=name, **changes)


def profile_description(text: str, name: str) -> str:
    """The one line a profile's `description` key says about it ("" without one)."""
    try:
        description = tomllib.loads(text).get("description", "")
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"eject profile {name!r}: invalid TOML: {error}") from None
    _check_description(description, name)
    return str(description)


def _check_description(description: object, name: str) -> None:
    if not isinstance(description, str) or "\n" in description:
        raise ProfileError(f"eject profile {name!r}: description must be one line of text")
    if len(description) > LONGEST_DESCRIPTION:
        raise ProfileError(
            f"eject profile {name!r}: description is longer than {LONGEST_DESCRIPTION} characters"
        )


def _base_profile(base: object, name: str) -> Profile | None:
    if base is None:
        return None
    if not isinstance(base, str) or base not in PROFILES:
        raise ProfileError(
            f"eject profile {name!r}: base must be one of {', '.join(PROFILES)}, got {base!r}"
        )
    return PROFILES[base]


def _parse_counts(table: object, name: str) -> tuple[tuple[int, float], ...]:
    if not isinstance(table, dict):
        raise ProfileError(f"eject profile {name!r}: counts must be a table of cards = weight")
    pairs = []
    for key, weight in table.items():
        try:
            cards = int(key)
        except ValueError:
            raise ProfileError(
                f"eject profile {name!r}: unknown key 'counts.{key}' (keys are card counts)"
            ) from None
        pairs.append((cards, weight))
    return tuple(sorted(pairs))


def _parse_jackpot(table: object, name: str) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise ProfileError(f"eject profile {name!r}: jackpot must be a table")
    for key in table:
        if key not in _JACKPOT:
            raise ProfileError(
                f"eject profile {name!r}: unknown key 'jackpot.{key}' "
                f"(expected one of: {', '.join(_JACKPOT)})"
            )
    return {_JACKPOT[k]: v for k, v in table.items()}
