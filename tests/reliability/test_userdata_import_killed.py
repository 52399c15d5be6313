"""``userdata import`` killed between its two steps is completed by running it again (issue #31, 9)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from cli_run import run

from wubitok.ime import UserFrequencies, load_options

# The import in its own process, killed with SIGKILL right after the database commit,
# before the settings are saved (the one moment that splits the two files).
KILLED_IMPORT = textwrap.dedent("""
    import os, signal, sys
    import wubitok.ime.userdata as userdata
    userdata.save_options = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL)
    userdata.import_user_data(sys.argv[1])
""")


def test_a_rerun_completes_an_import_killed_after_the_database(capsys, user_data_dir, tmp_path):
    export = tmp_path / "u.json"
    export.write_text(json.dumps({
        "format": "wubitok-userdata", "version": 1,
        "frequencies": [["wqiy", "你", 7]], "phrases": [["tfwt", "天地人和", "manual"]], "pins": [["khlg", "中国", 0]],
        "settings": {"page_size": 7, "auto_phrase": 3},
    }, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", KILLED_IMPORT, str(export)], capture_output=True, timeout=120)
    assert done.returncode == -9, done.stderr
    db = UserFrequencies()
    assert db.phrases() == [("tfwt", "天地人和", "manual")] and load_options().page_size == 5  # half done
    db.close()
    assert run(capsys, "userdata", "import", export)[0] == 0  # the same import again
    db = UserFrequencies()
    assert (db.phrases(), db.count("wqiy", "你"), db.pins("khlg")) == ([("tfwt", "天地人和", "manual")], 7,
                                                                      [("中国", 0)])
    db.close()
    assert (load_options().page_size, load_options().auto_phrase) == (7, 3)
