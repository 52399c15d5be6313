"""PyInstaller hook registration (entry point ``pyinstaller40``).

Any freezer run on an app that imports wubitok picks up ``hook-wubitok.py``
from here, so the dictionary, models, fonts, translations and samples travel
with the frozen app without each app's spec having to list them.
"""
import os


def get_hook_dirs() -> list[str]:
    return [os.path.dirname(__file__)]
