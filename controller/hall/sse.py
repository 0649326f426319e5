"""Reading Server-Sent Events: the lines of a `text/event-stream` to events.

Only what a table's `/api/events` sends is kept: the event's name, its data and its id.
Comment lines (`: keep-alive`) and `retry:` are read and dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    name: str  # "message" when the event names none
    data: str
    id: str | None = None


def events(lines: Iterable[bytes]) -> Iterator[Event]:
    """The events in these lines (each with its line ending, as a stream gives them); an event
    ends at a blank line, and one without data is no event."""
    name = "message"
    data: list[str] = []
    ident: str | None = None
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield Event(name, "\n".join(data), ident)
            name, data, ident = "message", [], None
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
        elif field == "id":
            ident = value
