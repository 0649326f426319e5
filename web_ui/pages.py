"""The server-rendered pages: the scoreboard, set-up, the rules sheet, admin, the API reference
(the history page is `history.py`'s).

Each page is a small template plus (but the API reference) a vendored script that talks to the
JSON API. The page hands its script one JSON block (`page-data`): the language's words, who this
tablet is (unlocked, admin), what kind of table it is (demo, simulated launcher) and what that
page needs (the current state, the decks' cards, ...), so the first paint needs no round trip
and the words have one source (`i18n.py`).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, session
from flask.typing import ResponseReturnValue

from controller.engine import DECKS
from controller.shipped import shipped
from controller.store import LOSSES, recorded_losses

from . import security
from .i18n import bundle, t
from .markdown import render_markdown
from .match_view import format_guide, schedules
from .option_words import SECTIONS
from .table_access import table_service
from .uno_words import uno_sheet

bp = Blueprint("pages", __name__)

API_DOC = shipped("docs/API.md")

# No inline scripts or styles: everything the pages run comes from /static.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def language() -> str:
    return str(session.get("language", security.settings().language))


def deck_cards() -> dict[str, list[dict[str, Any]]]:
    """Every deck's distinct cards and their points: the pickers for the turned-up card and
    the hands left at the end of a deal."""
    return {
        name: [{"card": card.text, "points": deck.value(card)} for card, _ in deck.counts]
        for name, deck in DECKS.items()
    }


def page_data(**extra: Any) -> dict[str, Any]:
    """The JSON block every page's script starts from."""
    demo = current_app.extensions.get("demo")
    return {
        "language": language(),
        **bundle(language()),
        "unlocked": security.unlocked(),
        "admin": security.is_admin(),
        "demo": demo is not None,
        "simulated": table_service().capabilities().simulated_launcher,
        **extra,
    }


def page(template: str, **context: Any) -> Response:
    """Render `template` with what every page needs (language, words, the tablet's rights)."""
    lang = language()
    html = render_template(
        template,
        language=lang,
        t=lambda key: t(key, lang),
        table_name=current_app.config["TABLE_NAME"],
        unlocked=security.unlocked(),
        admin=security.is_admin(),
        demo=current_app.extensions.get("demo") is not None,
        **context,
    )
    response = Response(html, mimetype="text/html")
    response.headers["Content-Security-Policy"] = CSP
    return response


@bp.get("/")
def scoreboard() -> ResponseReturnValue:
    data = page_data(state=table_service().snapshot(), decks=deck_cards(), schedules=schedules(),
                     warnings=log_warnings())  # fmt: skip
    return page("scoreboard.html", data=data, script="board")


@bp.get("/setup")
def setup() -> ResponseReturnValue:
    """Set up a match (needs the PIN: without it the page shows the PIN form). The script
    gets the options and presets from the API; the page adds the section titles and which
    options belong to which match format."""
    sections = SECTIONS.get(language(), SECTIONS["en"])
    data = page_data(state=table_service().snapshot(), sections=sections, formats=format_guide(),
                     warnings=operator_warnings())  # fmt: skip
    return page(
        "setup.html",
        data=data,
        script="setup",
        show_pin=not security.unlocked(),
        table_language=security.settings().language,
    )


@bp.get("/rules")
def rules_sheet() -> ResponseReturnValue:
    """What each card does in the game being played, calling UNO and catching a player who
    forgot (for the game and options on: `uno_words`), and the house rules that are on."""
    state = table_service().snapshot()
    data = page_data(state=state, decks=deck_cards())
    uno = uno_sheet(state["setup"], language()) if state.get("setup") else None
    return page("rules.html", data=data, script="rules", uno=uno)


@bp.get("/admin")
def admin() -> ResponseReturnValue:
    """Launcher status and controls (needs the admin password: else its form)."""
    return page("admin.html", data=page_data(warnings=operator_warnings()), script="admin")


def operator_warnings() -> list[str]:
    """Records missing from the event log, for everyone; default or weak credentials, for the
    tablets that may act on them (not the demo's)."""
    if current_app.extensions.get("demo") is not None or not security.unlocked():
        return log_warnings()
    return log_warnings() + security.settings().warnings(language())


def log_warnings() -> list[str]:
    """Records the table had acknowledged that a start found missing from its event log (a
    deleted -wal file), and records it could not replay and set aside (the state's
    `set_aside`), until the next set-up: whoever looks at the table must know why it went back
    (the journal says it in English; the reason stays in English, as the engine gives it)."""
    lang = language()
    words = t("warn_log_loss", lang)
    lost = [
        words.format(count=last - first + 1, first=first, last=last)
        for first, last in recorded_losses(table_service().setting(LOSSES))
    ]
    state = table_service().snapshot()
    aside = [set_aside_warning(notice, lang) for notice in state.get("set_aside", [])]
    return lost + aside + older_rules_warnings(state, lang)


def older_rules_warnings(state: dict[str, Any], lang: str) -> list[str]:
    """A match recorded under an earlier edition of the rules is played as it was recorded
    (§11): what today's rules would do otherwise, in the tablet's language."""
    rules = state.get("rules") or {}
    older = rules.get("older") or []
    if not older:
        return []
    key = "text_zh" if lang.startswith("zh") else "text"
    intro = t("warn_older_rules", lang).format(edition=rules["edition"])
    return [intro + " " + "; ".join(item[key] for item in older)]


def set_aside_warning(notice: dict[str, Any], lang: str) -> str:
    """One thing the table set aside from its log, in the tablet's language."""
    key = "warn_set_aside_match" if notice["match"] else "warn_set_aside_record"
    return t(key, lang).format(seq=notice["seq"], count=notice["records"], reason=notice["reason"])


@bp.get("/help/api")
def api_help() -> ResponseReturnValue:
    """The API reference, rendered from docs/API.md."""
    try:
        text = API_DOC.read_text(encoding="utf-8")
    except OSError:
        text = "# The scoreboard API\n\nThe reference (docs/API.md) is not installed here."
    return page("api_help.html", data=page_data(), body=render_markdown(text), script=None)


@bp.post("/session/lock")
def lock() -> ResponseReturnValue:
    """Lock this tablet again: it forgets the PIN (and admin login) until entered anew, and
    so does any copy of its cookie."""
    security.lock()
    return jsonify(unlocked=False)
