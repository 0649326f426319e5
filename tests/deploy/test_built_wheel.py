"""A built wheel works without the checkout: it carries every package data file and a copy of
the repository's files the app reads at run time (`controller/shipped.py`: the pin profiles,
the example eject profiles, the Pico's firmware, the API reference), and the app finds them.

Built offline by pyproject.toml's build backend (the venv's setuptools) as `python -m build`
does: an sdist of a copy of the checkout, then the wheel from that sdist. The app is then
imported from the unpacked wheel in a fresh interpreter whose working directory is empty.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = (
    *("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"),
    *("controller", "web_ui", "hardware", "firmware", "docs"),
)
"""What the sdist is built from: the checkout but its venv, data and caches."""
PACKAGES = ("controller", "web_ui")
SHIPPED = Path("controller", "_shipped")

BACKEND = "import sys, setuptools.build_meta as backend; getattr(backend, sys.argv[1])(sys.argv[2])"

PROBE = """
import json, controller, web_ui
from controller.launcher.board.firmware import firmware_dir, proto
from controller.launcher.pins import load_pin_profile
from controller.policy.custom_profiles import ProfileShelf, SHIPPED
from web_ui.pages import API_DOC
from web_ui.words import files_by_language

print(json.dumps({
    "modules": [controller.__file__, web_ui.__file__, proto.__file__],
    "pin_profile": load_pin_profile("hbridge").name,
    "eject_profiles": ProfileShelf([SHIPPED]).names(),
    "api_doc": API_DOC.read_text(encoding="utf-8").splitlines()[0],
    "firmware": sorted(path.name for path in firmware_dir().glob("*.py")),
    "languages": sorted(files_by_language()),
}))
"""


def _check_backend() -> None:
    """Fail, saying what to do, when the venv's setuptools is older than the build asks."""
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    wanted = next(re.fullmatch(r"setuptools>=(\d+)", r) for r in requires if "setuptools" in r)
    assert wanted is not None, requires
    if int(version("setuptools").split(".")[0]) < int(wanted[1]):
        pytest.fail(
            f"the venv's setuptools {version('setuptools')} cannot build the wheel ({wanted[0]} "
            "is the build backend): pip install -e '.[test]'"
        )


def _build(hook: str, source: Path, out: Path, pattern: str) -> Path:
    """Run the build backend's `hook` in `source`; the one file it made in `out`."""
    out.mkdir()
    result = subprocess.run(
        [sys.executable, "-c", BACKEND, hook, str(out)],
        cwd=source, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    (made,) = out.glob(pattern)
    return made


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The app's wheel, built from its sdist, unpacked."""
    _check_backend()
    work = tmp_path_factory.mktemp("wheel")
    checkout = work / "checkout"
    checkout.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, checkout / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, checkout / name)
    sdist = _build("build_sdist", checkout, work / "sdist", "*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(work / "unpacked-sdist", filter="data")
    (unpacked_sdist,) = (work / "unpacked-sdist").iterdir()
    built = _build("build_wheel", unpacked_sdist, work / "dist", "*.whl")
    with zipfile.ZipFile(built) as archive:
        archive.extractall(work / "unpacked")
    return work / "unpacked"


def test_the_wheel_carries_every_data_file_of_the_packages(wheel: Path) -> None:
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and path.suffix != ".py" and "__pycache__" not in path.parts:
                name = path.relative_to(ROOT)
                assert (wheel / name).is_file(), f"{name} is not in the wheel"


def test_the_wheel_carries_the_shipped_files(wheel: Path) -> None:
    for name in ("hardware", "hardware/eject-profiles"):
        expected = {path.name for path in (ROOT / name).glob("*.toml")}
        assert {path.name for path in (wheel / SHIPPED / name).glob("*.toml")} == expected
    expected = {path.name for path in (ROOT / "firmware").glob("*.py")}
    assert {path.name for path in (wheel / SHIPPED / "firmware").glob("*.py")} == expected
    assert (wheel / SHIPPED / "docs" / "API.md").read_bytes() == (ROOT / "docs/API.md").read_bytes()


def test_the_installed_app_finds_its_files_in_the_package(wheel: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("UNO_ATTACK_", "PYTHON"))}
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=tmp_path, env={**env, "PYTHONPATH": str(wheel)},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-4000:]
    found: dict[str, Any] = json.loads(result.stdout)
    for module in found["modules"]:
        assert Path(module).is_relative_to(wheel), f"{module} is not the wheel's"
    assert found["pin_profile"] == "hbridge"
    assert "party" in found["eject_profiles"]
    assert found["api_doc"] == (ROOT / "docs/API.md").read_text(encoding="utf-8").splitlines()[0]
    assert found["firmware"] == sorted(path.name for path in (ROOT / "firmware").glob("*.py"))
    languages = sorted(path.stem for path in (ROOT / "web_ui/words").glob("*.toml"))
    assert found["languages"] == languages
