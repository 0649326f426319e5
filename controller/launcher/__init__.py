"""The launcher: feed motor, UNO button, card sensor and lights, and the eject policy."""
