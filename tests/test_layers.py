"""The layers import one way: `engine` <- `table` <- `web_ui`, `launcher` <- `table`, the eject
policy (`controller.policy`, pure) under both the launcher and the table, the simulation tools
on the engine and the policy only, and the `uno-attack` command (`controller.cli`) on top of
them all.

Checked by parsing every import of every module, the ones made only for type checking or
inside a function included, so a layer that reaches up or sideways fails here. The engine's own
rule (standard library only) is `tests/engine/test_purity.py`, which reads absolute imports;
here the engine's relative imports are held to it too. The order of the engine's own modules
is `tests/engine/test_layers.py`.

Import statements are not the whole story: importing `controller.launcher.anything` runs the
launcher package's `__init__`, which loads the GPIO libraries. So each layer's entry module is
also imported in a fresh interpreter, and what it loaded is checked (`RUN_TIME_ENTRIES`).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

GPIO_LIBRARIES = ("gpiozero", "serial", "RPi", "lgpio", "pigpio")

SIMULATION = ("controller.engine", "controller.policy")  # rules and eject profiles

ALLOWED: dict[str, tuple[str, ...]] = {
    # package: the project modules it may import (its own package always)
    "controller.sections": (),
    "controller.policy": (),  # pure: randomness in, counts out
    "controller.launcher": ("controller.sections", "controller.policy"),
    "controller.store": (),
    "controller.table": (
        "controller.engine",
        "controller.policy",
        "controller.launcher",
        "controller.store",
    ),
    "web_ui": (
        "controller.engine",
        "controller.table",
        "controller.store",
        "controller.sections",
        "controller.config",
        "controller.preset_store",
    ),
    # the simulation tools: the engine and the eject profiles only
    "controller.fastsim": SIMULATION,
    "controller.simulation": (*SIMULATION, "controller.fastsim"),
    "controller.tuning": (*SIMULATION, "controller.simulation"),
}
"""Who may import whom, for the layers the design names. A module not listed here may import
any layer below the command line (the configuration, the service's helpers)."""

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "web_ui": GPIO_LIBRARIES,  # the scoreboard never touches the hardware, not even by accident
    "controller.policy": GPIO_LIBRARIES,
    "controller.engine": ("controller", "web_ui"),
}
"""Outside libraries (or project packages) a layer may not import at all."""

HARDWARE = ("controller.launcher", *GPIO_LIBRARIES)
"""What no layer below the command line loads at run time: the launcher package and the GPIO
libraries its `__init__` brings along."""

RUN_TIME_ENTRIES = (
    "controller.engine",
    "controller.policy",
    "controller.store",
    "controller.sections",
    "controller.config",
    "controller.table",
    "controller.table.session",
    "controller.table.service",
    "controller.table.demo",
    "controller.fastsim",
    "controller.simulation",
    "controller.tuning",
    "web_ui.app",
    "web_ui.server",
)
"""Each layer's entry modules, imported one by one in a fresh interpreter. The table service
composes a launcher it is handed (`uno-attack run` opens it), naming its types for checking
only, so a table without one never loads the hardware layer."""

PROBE = """
import importlib, json, sys
parents = {}
class Spy:  # records, for every module imported, the module whose code imported it
    @staticmethod
    def find_spec(name, path=None, target=None):
        frame = sys._getframe(1)
        while frame is not None and frame.f_globals.get("__name__", "").startswith(
            ("importlib", "__main__")
        ):
            frame = frame.f_back
        parents.setdefault(name, frame.f_globals["__name__"] if frame else None)
sys.meta_path.insert(0, Spy)
importlib.import_module(sys.argv[1])
print(json.dumps({"loaded": sorted(sys.modules), "parents": parents}))
"""

TABLE_DOORS_ONLY = ("store", "hub", "launcher", "simulator")
"""Attributes the web layer may not read: the table tells what it has, through its methods."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> list[str]:
    """The absolute module an import statement names (`from .. import x` names `pkg.x`)."""
    if node.level == 0:
        return [node.module or ""]
    parts = module.split(".")
    keep = len(parts) - node.level + (1 if is_package else 0)
    base = ".".join(parts[:keep])
    if node.module:
        return [f"{base}.{node.module}"]
    return [f"{base}.{alias.name}" for alias in node.names]


def imports(path: Path) -> set[str]:
    """Every module name `path` imports, absolute, wherever in the file the import stands."""
    module, found = _module_name(path), set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.update(_resolve(module, node, path.name == "__init__.py"))
    return found


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _layer(module: str) -> str | None:
    matches = [p for p in (*ALLOWED, *FORBIDDEN) if _within(module, p)]
    return max(matches, key=len) if matches else None


def _in_any(name: str, packages: tuple[str, ...]) -> bool:
    return any(_within(name, package) for package in packages)


def _project(name: str) -> bool:
    return _within(name, "controller") or _within(name, "web_ui")


def violations(path: Path) -> list[str]:
    """What `path` imports that its layer may not."""
    module = _module_name(path)
    return [line for name in sorted(imports(path)) if (line := _violation(module, name))]


def _violation(module: str, name: str) -> str | None:
    layer = _layer(module)
    if layer is not None and _within(name, layer):
        return None
    if _within(name, "controller.cli") and not _within(module, "controller.cli"):
        return f"{module} imports {name}: only the command line imports it"
    if _within(name, "web_ui") and not _within(module, "controller.cli"):
        return f"{module} imports {name}: only the command line starts the web layer"
    if layer in FORBIDDEN and _in_any(name, FORBIDDEN[layer]):
        return f"{module} imports {name}"
    if layer in ALLOWED and _project(name) and not _in_any(name, ALLOWED[layer]):
        return f"{module} imports {name}"
    return None


def loaded_hardware(entry: str) -> list[str]:
    """The hardware modules importing `entry` loads in a fresh interpreter, each first one of its
    package with the chain of imports that brought it (``a -> b -> gpiozero``)."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE, entry],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    report = json.loads(out.stdout)
    loaded, parents = set(report["loaded"]), report["parents"]
    found = []
    for package in HARDWARE:
        first = next((name for name in parents if name in loaded and _within(name, package)), None)
        if first is not None:
            chain = [first]
            while chain[-1] != entry and (parents.get(chain[-1]) or entry) not in chain:
                chain.append(parents.get(chain[-1]) or entry)  # None: the entry's own parents
            found.append(" -> ".join(reversed(chain)))
    return found


def _sources() -> list[Path]:
    return sorted(path for top in ("controller", "web_ui") for path in (ROOT / top).rglob("*.py"))


def test_layers_import_only_downward() -> None:
    found = [line for path in _sources() for line in violations(path)]
    assert found == []


@pytest.mark.parametrize("entry", RUN_TIME_ENTRIES)
def test_layers_hold_at_run_time(entry: str) -> None:
    found = loaded_hardware(entry)
    assert found == [], f"importing {entry} loads the hardware layer:\n" + "\n".join(found)


def test_layers_run_time_check_sees_the_hardware() -> None:
    found = loaded_hardware("controller.launcher.runner")
    assert found[0].startswith("controller.launcher.runner -> controller.launcher")
    assert any(line.endswith("-> gpiozero") for line in found)


def test_layers_web_reads_no_table_internals() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno} reads .{node.attr}"
        for path in sorted((ROOT / "web_ui").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in TABLE_DOORS_ONLY
    ]
    assert found == []


@pytest.mark.parametrize(
    ("where", "source", "expected"),
    [
        (
            "controller/launcher/x.py",
            "def f():\n    from controller.config import load_config\n",
            ["controller.launcher.x imports controller.config"],
        ),
        (
            "controller/launcher/x.py",
            "if TYPE_CHECKING:\n    from ..table import service\n",
            ["controller.launcher.x imports controller.table"],
        ),
        ("controller/launcher/x.py", "from .sim import SimOptions\n", []),
        ("web_ui/x.py", "import gpiozero\n", ["web_ui.x imports gpiozero"]),
        (
            "web_ui/x.py",
            "from controller.launcher import open_launcher\n",
            ["web_ui.x imports controller.launcher"],
        ),
        (
            "controller/policy/x.py",
            "from controller.launcher import Launcher\n",
            ["controller.policy.x imports controller.launcher"],
        ),
        (
            "controller/table/x.py",
            "import web_ui.app\n",
            ["controller.table.x imports web_ui.app: only the command line starts the web layer"],
        ),
        (
            "web_ui/x.py",
            "from controller.cli.run import urls\n",
            ["web_ui.x imports controller.cli.run: only the command line imports it"],
        ),
        (
            "controller/engine/x.py",
            "from ..store import Store\n",
            ["controller.engine.x imports controller.store"],
        ),
        (
            "controller/fastsim/x.py",
            "from controller.launcher.sim import SimOptions\n",
            ["controller.fastsim.x imports controller.launcher.sim"],
        ),
        ("controller/fastsim/x.py", "from controller.policy import Profile\n", []),
        ("controller/cli/x.py", "from web_ui.app import create_app\n", []),
    ],
)  # fmt: skip
def test_layers_check_sees_a_reach_up_or_sideways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, source: str, expected: list[str]
) -> None:
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    path = tmp_path / where
    path.parent.mkdir(parents=True)
    path.write_text(source)
    assert violations(path) == expected
