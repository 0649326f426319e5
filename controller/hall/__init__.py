"""The hall: a read-only wall board that follows several tables, each through its public HTTP
API only (`docs/HALL.md`).

- `urls`: a table's address as the hall keeps it (`table_url`).
- `sse`: reading a table's event stream.
- `views`: what the board shows, from the tables' JSON: a match at a glance, the next round's
  seating, the standings across tables (defined there).
- `feed`, `follower`: one table followed on a thread of its own, caught up exactly after it
  was away (its stream resumed with `Last-Event-ID`, its matches read whole).
- `hall`: the tables together (`Hall`), and `GET /api/hall`'s answer.
- `discovery`: tables found on the network (mDNS/DNS-SD; imports python-zeroconf).

The board's page and `GET /api/hall` are served by `web_ui/hall/`; `uno-attack hall`
(`controller/cli/hall.py`) wires the two.
"""

from .hall import Hall
from .urls import table_url

__all__ = ["Hall", "table_url"]
