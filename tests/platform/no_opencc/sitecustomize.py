"""On PYTHONPATH, makes this interpreter one without OpenCC: ``import opencc`` fails as if it
were not installed (nothing is uninstalled; the tests' stand-in for a machine without it)."""
import sys

sys.modules["opencc"] = None  # type: ignore[assignment]
