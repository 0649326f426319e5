"""`python -m controller.cli`: the same command as the `uno-attack` console script."""

import sys

from controller.cli import main

sys.exit(main())
