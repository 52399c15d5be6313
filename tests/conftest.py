"""Test-wide setup: Qt offscreen, user data in a temp folder, one shared dictionary."""
from __future__ import annotations

import atexit
import os
import shutil
import signal
import tempfile

# Before anything imports Qt or reads the user data folder.  Removed at exit
# (each xdist worker makes and removes its own).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_DATA_DIR = tempfile.mkdtemp(prefix="wubitok-test-data-")
os.environ["WUBITOK_DATA_DIR"] = _DATA_DIR
atexit.register(shutil.rmtree, _DATA_DIR, ignore_errors=True)
# A suite started in the background by a shell without job control (`make test &`, nohup) inherits
# SIGINT ignored, and so would every command a test starts: Ctrl-C tests would see it do nothing.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402
from system import require  # noqa: E402

settings.register_profile("default", deadline=None, max_examples=200)
settings.register_profile("ci", deadline=None, max_examples=300, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture(autouse=True)
def _system_parts(request):
    """``@pytest.mark.system("ibus-daemon", ...)``: the parts of the system a test needs (tests/system.py).
    A fixture, so that a skip names the test in the summary, not this line."""
    for mark in request.node.iter_markers("system"):
        require(*mark.args)


@pytest.fixture(scope="session")
def wubi_dict():
    from wubitok.wubi.dictionary import default_dictionary

    return default_dictionary()


@pytest.fixture
def user_data_dir(tmp_path, monkeypatch):
    """A fresh, empty user data folder for one test."""
    d = tmp_path / "userdata"
    monkeypatch.setenv("WUBITOK_DATA_DIR", str(d))
    return d
