"""`uno-attack rules --list`: every rule option (id, values, default, meaning), the feature ids
of RULES.md §11 that stand for an option's setting, the match formats and the presets."""

from __future__ import annotations

import argparse
import json
from typing import Any

from controller.engine import ALIASES, ALWAYS_ON, FORMATS, IMPLIED, OPTIONS, WITHOUT_OPTION
from controller.preset_store import presets


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "rules",
        help="list the rule options, formats and presets",
        description="The rule options (for --option and the tablet's set-up), formats, presets.",
    )
    parser.add_argument("--list", action="store_true", help="list everything (the default)")
    parser.add_argument("--game", choices=("attack", "classic"), help="only this game's options")
    parser.add_argument("--json", action="store_true", help="as one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    options = [o for o in OPTIONS if args.game is None or args.game in o.games]
    if args.json:
        print(json.dumps(_as_dict(options), ensure_ascii=False, indent=1))
        return 0
    print("Options (--option id=value; a true/false option also as --option id):")
    for o in options:
        values = "|".join(o.choices) if o.choices else _kind(o)
        games = "" if len(o.games) == 2 else f" [{next(iter(o.games)).value} only]"
        print(f"  {o.id:<32} {values:<40} default {_text(o.default):<8} {o.en}{games}")
    print("\nFeature ids of RULES.md §11 (--option id switches the setting on):")
    for feature, (option, value) in sorted(ALIASES.items()):
        print(f"  {feature:<32} = {option}={_text(value)}")
    for feature, follows in sorted(IMPLIED.items()):
        print(f"  {feature:<32} on whenever {' or '.join(follows)} is on")
    print("\nFeature ids of RULES.md §11 with no option:")
    for feature, how in sorted(WITHOUT_OPTION.items()):
        print(f"  {feature:<32} {how}")
    print("\nFeature ids of RULES.md §11 always in their game's rules (--option id is accepted):")
    for feature, game_kinds in sorted(ALWAYS_ON.items()):
        print(f"  {feature:<32} {' and '.join(sorted(g.value for g in game_kinds))}")
    print(f"\nFormats (--format NAME): {', '.join(FORMATS)}")
    print("\nPresets:")
    for key, preset in presets().items():
        print(f"  {key:<32} {preset.name} ({preset.game})")
    return 0


def _kind(option: Any) -> str:
    if option.kind is bool:
        return "true|false"
    return f"{option.minimum}..{option.maximum}"


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if value != "" else '""'


def _as_dict(options: list[Any]) -> dict[str, Any]:
    return {
        "options": [
            {"id": o.id, "default": o.default, "choices": list(o.choices), "meaning": o.en,
             "zh": o.zh, "section": o.section, "games": sorted(o.games)}
            for o in options
        ],
        "features": {k: {"option": o, "value": v} for k, (o, v) in sorted(ALIASES.items())},
        "implied": {k: list(follows) for k, follows in sorted(IMPLIED.items())},
        "without_option": dict(sorted(WITHOUT_OPTION.items())),
        "always_on": {k: sorted(g.value for g in games) for k, games in sorted(ALWAYS_ON.items())},
        "formats": list(FORMATS),
        "presets": [p.to_dict() for p in presets().values()],
    }  # fmt: skip
