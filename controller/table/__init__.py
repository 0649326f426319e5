"""One table: the rules engine, the launcher, the event log and the scoreboard meet here."""
