"""The ``wargrid`` command line (filled in by the command-line module)."""
