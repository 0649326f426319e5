"""Boot the real main.py on MicroPython with the fake machine beside this file; when its
watchdog stops the program, print every motor line's duty (``LINE <gpio> <duty>``)."""

import sys

here = __file__.rsplit("/", 1)[0]
sys.path[:0] = [here, here + "/..", sys.argv[1]]

import machine  # noqa: E402  (the fake one, found first)

try:
    import main  # noqa: F401  (runs the board until the fake watchdog ends it)
except SystemExit:
    pass
for gpio in (13, 14, 15):
    print("LINE %d %d" % (gpio, machine.pins()[gpio].duty))
