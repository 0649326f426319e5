"""The eject profiles a table may choose: the built-in ones and a family's own, by name.

Custom profiles are TOML files (the format is `controller.policy.eject`'s) in two folders:
``<data dir>/eject-profiles/`` (where `uno-attack tune --install NAME` puts them) and the
repository's ``hardware/eject-profiles/`` (the shipped examples). A file's name is its
profile's name (``ours.toml`` is ``ours``); its ``description`` key is the one line the set-up
page shows beside it. The data directory's file wins over a shipped one of the same name.

A file is *refused*, with the reason, when its name is not a profile name, is a built-in's
name, or it does not parse: a refused profile is never offered, and choosing it by name is an
error naming the reason, never a crash of the table.

A set-up that chose a custom profile records the profile's parameters (`profile_params`), not
the file: replaying the set-up rebuilds the very same profile (`profile_from_params`) however the
file has changed since, or if it is gone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.policy.eject import PROFILES, Profile, ProfileError
from controller.policy.profile_toml import parse_profile, profile_description
from controller.shipped import shipped

FOLDER = "eject-profiles"
"""The custom profiles' folder in the data directory."""

SHIPPED = shipped(f"hardware/{FOLDER}")
"""The example profiles shipped with the app."""

NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
NAME_RULE = "1 to 32 lower-case letters, digits, '-' and '_', starting with a letter or digit"
LARGEST_FILE = 64 * 1024  # bytes: a profile is a few lines; anything bigger is not one

_PARAMS = (
    "fire_probability",
    "counts",
    "max_drought",
    "drought_floor",
    "jackpot_probability",
    "jackpot_min",
    "jackpot_max",
    "tension_exponent",
)


def check_name(name: str) -> str:
    """`name` if a custom profile may be called that, else a ProfileError saying why."""
    if name in PROFILES:
        raise ProfileError(f"{name!r} is a built-in eject profile's name: choose another name")
    if not NAME.fullmatch(name):
        raise ProfileError(f"{name!r} is no eject profile name: use {NAME_RULE}")
    return name


@dataclass(frozen=True)
class Entry:
    """One profile on the shelf: usable (`profile` set) or refused (`error` says why)."""

    name: str
    description: str = ""
    profile: Profile | None = None
    file: Path | None = None  # None: a built-in
    error: str | None = None

    @property
    def custom(self) -> bool:
        return self.file is not None


class ProfileShelf:
    """The built-in profiles and the custom ones in `folders` (earlier folders win) and
    `files`. Read again whenever asked (a profile installed while the service runs is offered
    at once); a file is parsed again only when it has changed."""

    def __init__(self, folders: Sequence[Path] = (), files: Sequence[Path] = ()) -> None:
        self.folders = tuple(folders)
        self.files = tuple(files)
        self._parsed: dict[Path, tuple[tuple[int, int], Entry]] = {}

    @classmethod
    def for_data_dir(cls, data_dir: Path, files: Sequence[Path] = ()) -> ProfileShelf:
        """The shelf a table with this data directory uses: its folder, then the shipped one."""
        return cls((data_dir / FOLDER, SHIPPED), files)

    def entries(self) -> list[Entry]:
        """The built-ins, then every custom profile by name (refused ones with their reason)."""
        found: dict[str, Entry] = {}
        for path in [*self.files, *self._custom_files()]:
            entry = self._entry(path)
            found.setdefault(entry.name, entry)
        built_in = [Entry(name, profile=profile) for name, profile in PROFILES.items()]
        return built_in + [found[name] for name in sorted(found)]

    def names(self) -> tuple[str, ...]:
        """The names a set-up may choose."""
        return tuple(entry.name for entry in self.entries() if entry.profile is not None)

    def load(self, name: str) -> Profile:
        """The profile called `name`, or a ProfileError saying why there is none."""
        if name in PROFILES:
            return PROFILES[name]
        entries = self.entries()
        for entry in entries:
            if entry.name == name and entry.profile is not None:
                return entry.profile
            if entry.name == name:
                raise ProfileError(entry.error or f"eject profile {name!r} is refused")
        usable = ", ".join(e.name for e in entries if e.profile is not None)
        raise ProfileError(
            f"unknown eject profile {name!r}: the eject profile must be one of {usable}"
        )

    def _custom_files(self) -> list[Path]:
        files = []
        for folder in self.folders:
            try:
                files += sorted(p for p in folder.iterdir() if p.suffix == ".toml")
            except OSError:  # no such folder (yet), or unreadable: nothing from it
                continue
        return files

    def _entry(self, path: Path) -> Entry:
        try:
            stat = path.stat()
        except OSError as error:
            return Entry(path.stem, file=path, error=f"cannot read {path.name}: {error.strerror}")
        stamp = (stat.st_mtime_ns, stat.st_size)
        kept = self._parsed.get(path)
        if kept is None or kept[0] != stamp:
            kept = (stamp, read_entry(path, stat.st_size))
            self._parsed[path] = kept
        return kept[1]


def read_entry(path: Path, size: int | None = None) -> Entry:
    """The shelf's entry for one file: its profile and description, or why it is refused."""
    name = path.stem
    try:
        check_name(name)
        if (path.stat().st_size if size is None else size) > LARGEST_FILE:
            raise ProfileError(f"{path.name} is larger than {LARGEST_FILE // 1024} KB")
        text = path.read_text(encoding="utf-8")
        return Entry(name, profile_description(text, name), parse_profile(text, name), path)
    except ProfileError as error:
        return Entry(name, file=path, error=f"{path.name}: {error}")
    except OSError as error:
        return Entry(name, file=path, error=f"cannot read {path.name}: {error.strerror}")
    except UnicodeDecodeError:
        return Entry(name, file=path, error=f"{path.name} is not UTF-8 text")


def profile_params(profile: Profile) -> dict[str, Any]:
    """Everything a profile decides presses by, JSON-ready: a set-up's record of it."""
    params: dict[str, Any] = {key: getattr(profile, key) for key in _PARAMS}
    params["counts"] = [[cards, weight] for cards, weight in profile.counts]
    return params


def profile_from_params(params: Mapping[str, Any], name: str) -> Profile:
    """The profile `profile_params` recorded, called `name`; a ProfileError if it is not one."""
    if not isinstance(params, Mapping) or set(params) != set(_PARAMS):
        raise ProfileError(f"eject profile {name!r}: its parameters must be {', '.join(_PARAMS)}")
    counts = params["counts"]
    if not isinstance(counts, list) or not all(
        isinstance(pair, list) and len(pair) == 2 for pair in counts
    ):
        raise ProfileError(f"eject profile {name!r}: counts must be a list of [cards, weight]")
    values = {key: params[key] for key in _PARAMS if key != "counts"}
    try:
        return Profile(name=name, counts=tuple(tuple(pair) for pair in counts), **values)
    except (ProfileError, TypeError) as error:
        raise ProfileError(f"eject profile {name!r}: {error}") from None
