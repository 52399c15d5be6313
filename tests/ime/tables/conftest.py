"""One user database and its exports, built once per session: the Rime schema deployed with
Debian's rime_deployer and loaded into librime, the fcitx5 table compiled with libime_tabledict."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from system import require

sys.path.insert(0, str(Path(__file__).parent))  # rime_session, the ctypes driver

from rime_session import Rime  # noqa: E402
from taught import LEARNED, PHRASES, PINS  # noqa: E402

from wubitok.ime import ImeOptions, UserFrequencies  # noqa: E402
from wubitok.ime.tables import completions, typing_table, write_fcitx5, write_rime  # noqa: E402
from wubitok.ime.tables.rime import SCHEMA_ID  # noqa: E402


@pytest.fixture(scope="session")
def taught_db(tmp_path_factory):
    db = UserFrequencies(tmp_path_factory.mktemp("taught") / "ime_user.sqlite")
    for code, text in PHRASES:
        db.add_phrase(code, text)
    for code, text in LEARNED:
        db.record(code, text)
    for code, text, position in PINS:
        db.pin(code, text, position)
    yield db
    db.close()


@pytest.fixture(scope="session")
def taught_table(wubi_dict, taught_db):
    return typing_table(wubi_dict, taught_db, ImeOptions())


@pytest.fixture(scope="session")
def rime(tmp_path_factory, wubi_dict, taught_table):
    """librime over the deployed export (one per process: librime's state is global)."""
    require("rime_deployer", "librime", "rime-data-wubi")
    folder = tmp_path_factory.mktemp("rime")
    write_rime(taught_table, folder, completions=completions(wubi_dict))
    # Only our schema is deployed.  A default.yaml of the user's own is not enough: the deployer
    # replaces it with a shared one of a newer config_version (rime-prelude's, which every Rime
    # user has, lists terra_pinyin and other schemas this machine need not have), so the list is
    # set by a patch too, which applies over whichever default.yaml wins.
    schema_list = f"schema_list:\n  - schema: {SCHEMA_ID}\n"
    (folder / "default.yaml").write_text(schema_list, encoding="utf-8")
    (folder / "default.custom.yaml").write_text("patch:\n  " + schema_list.replace("\n  ", "\n    "),
                                                encoding="utf-8")
    done = subprocess.run(["rime_deployer", "--build", str(folder), "/usr/share/rime-data", str(folder / "build")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (folder / "build" / f"{SCHEMA_ID}.table.bin").exists()
    engine = Rime(folder)
    assert engine.select_schema(SCHEMA_ID)
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def fcitx5_folder(tmp_path_factory, taught_table):
    folder = tmp_path_factory.mktemp("fcitx5")
    write_fcitx5(taught_table, folder)
    return folder
