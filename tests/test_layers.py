"""The layers import one way: `engine` <- `table` <- `web_ui`, `launcher` <- `table`, the eject
policy (`controller.policy`, pure) under both the launcher and the table, the simulation tools
on the engine and the policy only, and the `uno-attack` command (`controller.cli`) on top of
them all.

Checked by parsing every import of every module, the ones made only for type checking or
inside a function included, so a layer that reaches up or sideways fails here. The engine's own
rule (standard library only) is `tests/engine/test_purity.py`, which reads absolute imports;
here the engine's relative imports are held to it too. The order of the engine's own modules
is `tests/engine/test_layers.py`.

The engine and the table are imported by the layers above only through their packages' public
surface (`from controller.engine import Rules`, names their `__all__` offers), never a module
inside them (`PUBLIC_SURFACES`), but for the exceptions named with their reason (`REACHING_IN`).

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
    "controller.shipped": (),  # where the repository's files are (standard library only)
    "controller.policy": ("controller.shipped",),  # pure: randomness in, counts out
    "controller.launcher": ("controller.sections", "controller.policy", "controller.shipped"),
    "controller.store": (),
    "controller.table": (
        "controller.engine",
        "controller.policy",
        "controller.launcher",
        "controller.store",
    ),
    "controller.tournament": ("controller.engine", "controller.table", "controller.store"),
    "web_ui": (
        "controller.engine",
        "controller.table",
        "controller.tournament",
        "controller.store",
        "controller.sections",
        "controller.config",
        "controller.preset_store",
        "controller.shipped",
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
    "controller.tournament",
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

PUBLIC_SURFACES = ("controller.engine", "controller.table")
"""Packages the rest of the project imports only as a whole, taking the names of its
`__init__`'s `__all__`; their own modules import each other directly, and tests may reach in."""

REACHING_IN: dict[str, tuple[str, ...]] = {
    "controller.fastsim": ("controller.engine.autoplay", "controller.engine.deal"),
}
"""The modules inside a public surface a package may import all the same, and why. The fast
simulation path replays the validated engine's deal loop step for step (a differential test
compares the two), so it shares that loop's own limits instead of copying them: the longest
deal and its message (`autoplay.MAX_ACTIONS`, `runaway_text`) and the most cards the hands may
take together (`deal.most_dealt`)."""

TABLE_DOORS_ONLY = ("store", "hub", "launcher", "launcher_side", "simulator")
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


def _public_names(package: str) -> frozenset[str]:
    """The names `package`'s `__init__` offers in its `__all__`, read without importing it."""
    init = ROOT.joinpath(*package.split("."), "__init__.py")
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):
            return frozenset(ast.literal_eval(node.value))
    return frozenset()


PUBLIC_NAMES = {package: _public_names(package) for package in PUBLIC_SURFACES}


def reaching_in(path: Path) -> list[str]:
    """What `path` takes from a public surface it is not part of other than through that
    surface: a module inside it, or a name its `__all__` does not offer."""
    module = _module_name(path)
    allowed = next((v for k, v in REACHING_IN.items() if _within(module, k)), ())
    found = []
    for name in sorted(imports(path)):
        surface = next((p for p in PUBLIC_SURFACES if _within(name, p) and name != p), None)
        if surface and not _within(module, surface) and name not in allowed:
            found.append(f"{module} imports {name}, not {surface}")
    for surface, names in sorted(_names_taken(path).items()):
        if not _within(module, surface):
            found += [
                f"{module} imports {name} from {surface}: not in its __all__"
                for name in sorted(names - PUBLIC_NAMES[surface])
            ]
    return found


def _names_taken(path: Path) -> dict[str, set[str]]:
    """The names `path` imports from each public surface (`from controller.engine import x`)."""
    module, taken = _module_name(path), dict[str, set[str]]()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            (name,) = _resolve(module, node, path.name == "__init__.py")
            if name in PUBLIC_SURFACES:
                taken.setdefault(name, set()).update(alias.name for alias in node.names)
    return taken


def _sources() -> list[Path]:
    return sorted(path for top in ("controller", "web_ui") for path in (ROOT / top).rglob("*.py"))


def test_layers_import_only_downward() -> None:
    found = [line for path in _sources() for line in violations(path)]
    assert found == []


def test_layers_above_use_only_the_public_surfaces() -> None:
    found = [line for path in _sources() for line in reaching_in(path)]
    assert found == []


@pytest.mark.parametrize(
    ("where", "source", "expected"),
    [
        ("controller/table/x.py", "from controller.engine import Rules\n", []),
        ("controller/engine/x.py", "from .formats import FORMATS\n", []),
        ("controller/table/x.py", "from .codec import InvalidInput\n", []),
        (
            "web_ui/x.py",
            "from controller.engine.formats import FORMATS\n",
            ["web_ui.x imports controller.engine.formats, not controller.engine"],
        ),
        (
            "controller/table/x.py",
            "def f():\n    from ..engine.events import Event\n",
            ["controller.table.x imports controller.engine.events, not controller.engine"],
        ),
        (
            "controller/cli/x.py",
            "from controller.table.service import TableService\n",
            ["controller.cli.x imports controller.table.service, not controller.table"],
        ),
        (
            "controller/cli/x.py",
            "from controller.engine import formats\n",
            ["controller.cli.x imports formats from controller.engine: not in its __all__"],
        ),
        ("controller/fastsim/x.py", "from controller.engine.deal import most_dealt\n", []),
        (
            "controller/fastsim/x.py",
            "from controller.engine.match import Match\n",
            ["controller.fastsim.x imports controller.engine.match, not controller.engine"],
        ),
    ],
)  # fmt: skip
def test_layers_public_surface_check_sees_a_reach_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, source: str, expected: list[str]
) -> None:
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    path = tmp_path / where
    path.parent.mkdir(parents=True)
    path.write_text(source)
    assert reaching_in(path) == expected


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


def _names_the_table_key(node: ast.AST) -> bool:
    """`x["table"]`, `x.get("table")` or `x.setdefault("table", ...)`: the app's table read by
    its key."""
    if isinstance(node, ast.Subscript):
        key = node.slice
    elif isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute):
        if node.func.attr not in ("get", "setdefault"):
            return False
        key = node.args[0]
    else:
        return False
    return isinstance(key, ast.Constant) and key.value == "table"


def test_layers_web_reaches_its_table_one_way() -> None:
    """Every web module asks `table_access.table_service()` for the table service."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / "web_ui").rglob("*.py"))
        if path.name != "table_access.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if _names_the_table_key(node)
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
