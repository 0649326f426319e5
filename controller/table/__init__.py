"""One table: the rules engine, the launcher, the event log and the scoreboard meet here.

This package is the table's public surface: the service and the demo table, what they hand
out (the hub's messages and subscriptions, the match summaries) and the codec that reads and
writes their JSON. The layers above import only from `controller.table` (`tests/test_layers.py`
checks it); the table's own modules import each other directly.
"""

from .codec import InvalidInput, clean_name, clean_names, record_to_dict, whole_number
from .demo import DemoTable
from .hub import Message, Subscription
from .service import MAIN, TableService
from .session import check_setup
from .summaries import MatchSummary, Published, summarize

__all__ = [
    "MAIN",
    "DemoTable",
    "InvalidInput",
    "MatchSummary",
    "Message",
    "Published",
    "Subscription",
    "TableService",
    "check_setup",
    "clean_name",
    "clean_names",
    "record_to_dict",
    "summarize",
    "whole_number",
]
