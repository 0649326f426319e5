"""A tournament across a service's tables (RULES.md §9.6): what the organiser entered once
(`Plan`), where it stands from the tables' logs (`progress`), and the desk that seats each round
at the tables and shows every table the standings (`TournamentDesk`)."""

from .desk import TournamentDesk
from .plan import KINDS, Plan, seat_order
from .standings import Progress, progress

__all__ = ["KINDS", "Plan", "Progress", "TournamentDesk", "progress", "seat_order"]
