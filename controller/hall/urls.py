"""Table addresses as the hall keeps them: one spelling per table service address."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def table_url(text: str) -> str:
    """A table's base URL: `http://` added when no scheme is given, the host in lower case and
    the path ending in `/` (`Pi-A.local:8080` → `http://pi-a.local:8080/`,
    `pi-a.local:8080/t/b` → `http://pi-a.local:8080/t/b/`). ValueError, saying why, for what
    is not an http(s) address of a table."""
    given = text.strip()
    parts = urlsplit(given if "://" in given else f"http://{given}")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{text!r} is not a table's address (like http://pi-a.local:8080/)")
    if parts.query or parts.fragment:
        raise ValueError(f"{text!r}: a table's address has no ?query or #fragment")
    try:
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        raise ValueError(f"{text!r}: the port must be a number from 1 to 65535") from None
    path = parts.path if parts.path.endswith("/") else f"{parts.path}/"
    return urlunsplit((parts.scheme, parts.netloc.lower(), path, "", ""))
