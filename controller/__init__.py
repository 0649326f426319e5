"""uno-attack: the controller for a UNO Attack card launcher on a Raspberry Pi."""
