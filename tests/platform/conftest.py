"""A private ibus-daemon with the wubitok engine, started once per test process."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from system import IBUS, require


@pytest.fixture(scope="session")
def private_ibus(tmp_path_factory):
    require(*IBUS)
    from ibus_harness import PrivateIbus  # gi: only once require() found it

    ibus = PrivateIbus(tmp_path_factory.mktemp("ibus"))
    # As `wubitok ibus install` does: the typing index is built before the engine first starts, so
    # the cases meet the engine a user meets, not its first-start interim (which types from the
    # dictionary and answers no pinyin lookup until the index is there: test_ibus_start's own case).
    build = ("from wubitok.ime.index import CandidateIndex; from wubitok.wubi.dictionary import default_dictionary; "
             "index = CandidateIndex(default_dictionary()); index.preload(); assert index.built()")
    subprocess.run([sys.executable, "-c", build], env=ibus.env(), check=True, timeout=600)
    before = os.environ.get("IBUS_ADDRESS")
    try:
        ibus.start()
        yield ibus
    finally:
        ibus.stop()
        if before is None:
            os.environ.pop("IBUS_ADDRESS", None)
        else:
            os.environ["IBUS_ADDRESS"] = before


@pytest.fixture(scope="session")
def ibus_bus(private_ibus):
    from ibus_harness import connect

    return connect(private_ibus.address)


@pytest.fixture
def client(ibus_bus):
    """A fresh input context, focused, with wubitok-wubi86 selected (a fresh engine instance)."""
    from ibus_harness import Client

    c = Client(ibus_bus)
    yield c
    c.destroy()
