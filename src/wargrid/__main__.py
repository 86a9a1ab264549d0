"""``python -m wargrid`` runs the command line (the same as the ``wargrid`` command)."""

import sys

from .cli import main

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
