"""The rules engine: UNO Attack and classic UNO, pure (standard library only, no I/O)."""
