"""Two programs changing different settings at once both keep their change (issue #31, 3)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

# Each process sets its own key over and over; before each change it checks that the file still
# holds the value it wrote last: a read-modify-write by the other process from an older read
# would have put an earlier value back.  A lost update is a non-zero exit.
WRITER = textwrap.dedent("""
    import json, os, sys, time
    from wubitok.cli import main
    from wubitok.ime.options import settings_path
    key, values = sys.argv[1], [int(v) for v in sys.argv[2].split(",")]
    last = None
    while not os.path.exists(sys.argv[3]):  # start together, both imports done
        time.sleep(0.01)
    for value in values:
        if last is not None:
            held = json.loads(settings_path().read_text(encoding="utf-8"))[key]
            if held != last:
                sys.exit(f"lost update: {key} is {held}, {last} was written")
        if main(["settings", "set", key, str(value)]) != 0:
            sys.exit("settings set failed")
        last = value
""")


def test_two_settings_set_at_once_lose_no_update(user_data_dir, tmp_path):
    user_data_dir.mkdir(parents=True)
    rounds, go = 300, tmp_path / "go"
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, key, ",".join(map(str, values)), str(go)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
               for key, values in (("auto_phrase", [i % 99 + 1 for i in range(rounds)]),
                                   ("page_size", [i % 9 + 1 for i in range(rounds)]))]
    go.touch()
    errors = [w.communicate(timeout=300)[1] for w in writers]
    assert [w.returncode for w in writers] == [0, 0], errors
    saved = json.loads((user_data_dir / "ime_settings.json").read_text(encoding="utf-8"))
    assert (saved["auto_phrase"], saved["page_size"]) == ((rounds - 1) % 99 + 1, (rounds - 1) % 9 + 1)
