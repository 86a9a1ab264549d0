"""``python -m wargrid.cli`` runs the command line."""

import sys

from . import main

if __name__ == "__main__":  # not when a worker process re-imports this module
    sys.exit(main())
