import sys
from pathlib import Path

# cli_run (the in-process CLI runner) and mounts live beside the tests that use them.
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "cli"))
