"""The one build step pyproject.toml cannot say: a wheel carries a copy of the repository's
files the app reads at run time (`controller/shipped.py`), which live outside its packages."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED = ("hardware/*.toml", "hardware/eject-profiles/*.toml", "firmware/*.py", "docs/API.md")
"""What the app reads, as globs in the repository (MANIFEST.in puts them in the sdist)."""
PACKAGED = Path("controller", "_shipped")  # where `controller.shipped` finds the copy


class BuildWithShippedFiles(build_py):
    """setuptools' build_py, then the shipped files copied into the built package. An editable
    install needs no copy: it reads them from the checkout."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for pattern in SHIPPED:
            sources = sorted(ROOT.glob(pattern))
            if not sources:
                raise FileNotFoundError(f"no file to ship matches {pattern} in {ROOT}")
            for source in sources:
                target = Path(self.build_lib, PACKAGED, source.relative_to(ROOT))
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)


setup(cmdclass={"build_py": BuildWithShippedFiles})
