"""A private ibus-daemon with the wubitok engine, started once per test process."""
from __future__ import annotations

import os

import pytest
from ibus_harness import Client, PrivateIbus, connect


@pytest.fixture(scope="session")
def private_ibus(tmp_path_factory):
    ibus = PrivateIbus(tmp_path_factory.mktemp("ibus"))
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
    return connect(private_ibus.address)


@pytest.fixture
def client(ibus_bus):
    """A fresh input context, focused, with wubitok-wubi86 selected (a fresh engine instance)."""
    c = Client(ibus_bus)
    yield c
    c.destroy()
