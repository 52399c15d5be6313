"""Types through a private ibus-daemon whose engine process has no OpenCC, with output=traditional
stored; prints what the application got as JSON.  Run by test_ibus_settings.py in a process of
its own (libibus keeps one bus per process, and the session's daemon has OpenCC).

    python typist_without_opencc.py ROOT
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from ibus_harness import Client, PrivateIbus, connect, wait_for

from wubitok.ime import ImeOptions, save_options
from wubitok.ime.options import SETTINGS_FILE

NO_OPENCC = str(Path(__file__).with_name("no_opencc"))


def main() -> int:
    root = Path(sys.argv[1])
    path = os.pathsep.join(p for p in (NO_OPENCC, os.environ.get("PYTHONPATH", "")) if p)
    ibus = PrivateIbus(root, extra_env={"PYTHONPATH": path})
    ibus.data_dir.mkdir(parents=True, exist_ok=True)
    save_options(ImeOptions(output="traditional"), ibus.data_dir / SETTINGS_FILE)  # chosen earlier, elsewhere
    ibus.start()
    try:
        bus = connect(ibus.address)
        typed = {}
        for name in ("first", "second"):  # two applications: one notice for the whole session
            client = Client(bus)
            handled = [client.key(k) for k in ("w", "q", "i", "y", "v", "b", "space", "l", "g", "y", "i")]
            wait_for(lambda c=client: "output.traditional" in c.properties, 30, "the settings' properties")
            typed[name] = {"handled": handled, "commits": client.commits, "preedit": client.preedit,
                           "told": client.auxiliary,
                           "traditional": client.properties["output.traditional"],
                           "output": client.properties["output"]}
            client.destroy()
    finally:
        ibus.stop()
    print(json.dumps(typed, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
