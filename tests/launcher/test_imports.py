"""Nothing here may import the Pi-only GPIO libraries: RPi.GPIO raises at import off a Pi."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import sys
import controller.launcher, controller.cli.launcher, controller.launcher.selftest
import controller.launcher.calibrate, controller.launcher.safeoff, controller.launcher.lifecycle
import tests.hil.jig, tests.hil.conftest
launcher = controller.launcher.open_launcher("hbridge", backend="sim")
launcher.eject(1)
launcher.close()
bad = sorted(m for m in sys.modules if m == "lgpio" or m.startswith("RPi"))
print(",".join(bad))
"""


def test_imports_never_load_pi_only_gpio_libraries() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert out.stdout.strip() == ""


def test_imports_no_test_file_names_them() -> None:
    for path in (REPO / "tests" / "launcher").glob("*.py"):
        text = path.read_text()
        if path.name == "test_imports.py":
            continue
        assert "import lgpio" not in text and "RPi.GPIO" not in text, path
    for path in (REPO / "tests" / "hil").glob("*.py"):
        assert "import lgpio" not in path.read_text(), path
