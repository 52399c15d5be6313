"""Entry point of the frozen app: no arguments opens the window, any
arguments go to the ``wubitok`` command line (``--version``, ``gui --screenshot``)."""
import multiprocessing
import sys

from wubitok.cli import main

if __name__ == "__main__":
    # Training with workers > 1 spawns processes; a frozen app must route them here.
    multiprocessing.freeze_support()
    sys.exit(main(sys.argv[1:] or ["gui"]))
