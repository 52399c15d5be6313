"""Entry point of the frozen app: no arguments opens the window, any
arguments go to the ``wubitok`` command line (``--version``, ``gui --screenshot``)."""
import sys

from wubitok.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["gui"]))
