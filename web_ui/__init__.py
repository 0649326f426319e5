"""The tablet scoreboard (Flask)."""
