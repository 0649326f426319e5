"""The engine's modules import one way: data at the bottom, the deal's state and its primitive
operations above it, the rule handlers above that, the verbs (`Game`) on top, and the users of
`Game` (dealing, notation, bots, matches) last. Checked by parsing every import, the ones made
only for type checking included, so a new call back into a higher module fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import controller.engine

ENGINE = Path(controller.engine.__file__).parent

LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "cards"),  # data: no engine imports
    ("decks",),
    ("formats",),  # the match formats and their facts, which the options read
    ("option_table",),
    ("options",),
    ("editions",),  # what each edition of the rules changed
    ("effects", "events", "actions"),
    ("state",),  # the deal's state and its primitive operations
    ("playability",),  # what may be played: predicates over the state
    ("resolve",),  # what follows a play
    ("play", "drawing", "claims", "start", "scoring"),  # the rule handlers
    ("legal_actions",),  # the actions the rules accept now
    ("game",),  # Game: the verbs
    ("deal", "notation", "bots"),
    ("match", "autoplay"),
    ("__init__",),
)
"""Bottom first. A module may import modules of lower layers, never one of its own layer or
above."""


def _rank() -> dict[str, int]:
    return {name: level for level, names in enumerate(LAYERS) for name in names}


def _engine_imports(path: Path) -> set[str]:
    """The engine modules `path` imports (relative imports and `controller.engine.x`)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 1:
                found.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("controller.engine."):
                found.add(node.module.split(".")[2])
    return found


def test_every_engine_module_has_a_layer() -> None:
    modules = {path.stem for path in ENGINE.glob("*.py")}
    assert modules == set(_rank())


def test_engine_modules_import_one_way() -> None:
    rank = _rank()
    upward = [
        f"{path.stem} imports {name}"
        for path in sorted(ENGINE.glob("*.py"))
        for name in sorted(_engine_imports(path))
        if rank[name] >= rank[path.stem]
    ]
    assert upward == []


def test_the_layer_check_sees_a_call_back_upward(tmp_path: Path) -> None:
    module = tmp_path / "state.py"
    module.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import Game\n"
    )
    assert _engine_imports(module) == {"game"}
