"""The command line, driven from Python (the same as typing the commands)."""
import tempfile
from pathlib import Path

from wargrid.cli import main

with tempfile.TemporaryDirectory() as folder:
    board = str(Path(folder) / "board.json")
    main(["generate", board, "--size", "24x16", "--seed", "5"])
    main(["path", board, "2,2", "20,12", "--unit", "foot"])
    main(["render", board, str(Path(folder) / "board.svg")])
