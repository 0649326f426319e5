"""The engine is pure: it imports nothing outside the standard library."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import controller.engine

ENGINE = Path(controller.engine.__file__).parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_engine_imports_only_the_standard_library() -> None:
    for path in sorted(ENGINE.glob("*.py")):
        outside = _imports(path) - set(sys.stdlib_module_names) - {"__future__"}
        assert not outside, f"{path.name} imports {sorted(outside)}"


def test_engine_does_no_io_and_reads_no_clock() -> None:
    forbidden = {"time", "datetime", "os", "io", "socket", "pathlib", "threading", "subprocess"}
    for path in sorted(ENGINE.glob("*.py")):
        assert not (_imports(path) & forbidden), path.name
        assert not (_called_names(path) & {"open", "print", "input"}), path.name


def _called_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    return {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
