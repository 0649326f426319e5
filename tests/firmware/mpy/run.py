"""Runs the firmware checks on MicroPython: ``micropython run.py <firmware dir> [module ...]``.

Prints one ``RESULT <module>.<test> PASS|FAIL`` line per test function (``test_*`` in the
``check_*`` modules), a failure's traceback after it, and exits 1 if any failed.
"""

import io
import sys

CHECKS = ("check_proto", "check_beam_switch", "check_motor", "check_scratch", "check_board")


def run(modules):
    failed = 0
    for name in modules:
        module = __import__(name)
        for attr in sorted(dir(module)):
            if not attr.startswith("test_"):
                continue
            try:
                getattr(module, attr)()
            except Exception as error:  # report every failure, then go on
                failed += 1
                trace = io.StringIO()
                sys.print_exception(error, trace)
                print("RESULT %s.%s FAIL" % (name, attr))
                print(trace.getvalue())
            else:
                print("RESULT %s.%s PASS" % (name, attr))
    return failed


def main():
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    sys.path.insert(0, sys.argv[1])
    sys.path.insert(0, here)
    failed = run(sys.argv[2:] or CHECKS)
    sys.exit(1 if failed else 0)


main()
