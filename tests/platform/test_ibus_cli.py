"""``wubitok ibus``: the component, install / uninstall / status, and one-line errors for bad set-ups."""
from __future__ import annotations

import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from system import IBUS, require

require("gi", "ibus-typelib")

from ibus_harness import PrivateIbus  # noqa: E402

from wubitok.platform.ibus import component  # noqa: E402


def wubitok(env: dict[str, str], *args: str, prelude: str = "") -> subprocess.CompletedProcess:
    """``wubitok ARGS`` in a fresh process (``prelude``: Python run first, e.g. to hide a module)."""
    script = f"import sys\n{prelude}\nfrom wubitok.cli import main\nsys.exit(main({list(args)!r}))\n"
    return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)


def one_line_error(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.fixture
def isolated(tmp_path) -> dict[str, str]:
    """An environment with an empty HOME, no session bus and no IBus."""
    env = PrivateIbus(tmp_path).env()
    return env


def test_component_names_the_engine_and_starts_this_installation(isolated):
    proc = wubitok(isolated, "ibus", "component")
    assert proc.returncode == 0, proc.stderr
    root = ET.fromstring(proc.stdout)
    assert shlex.split(root.findtext("exec")) == [sys.executable, "-m", "wubitok", "ibus", "engine"]
    engine = root.find("engines/engine")
    assert engine.findtext("name") == "wubitok-wubi86"
    assert engine.findtext("language") == "zh_CN"
    assert engine.findtext("layout") == "us"
    assert engine.findtext("longname") == "Wubi-86 (wubitok)"
    assert Path(engine.findtext("icon")).is_file()
    frozen = wubitok(isolated, "ibus", "component", prelude="sys.frozen = True")
    assert shlex.split(ET.fromstring(frozen.stdout).findtext("exec")) == [sys.executable, "ibus", "engine"]


@pytest.mark.system(*IBUS)
def test_user_install_is_found_by_a_daemon_started_with_its_environment(tmp_path):
    ibus = PrivateIbus(tmp_path)
    env = ibus.env()
    proc = wubitok(env, "ibus", "install")
    assert proc.returncode == 0, proc.stderr
    home_data = Path(env["XDG_DATA_HOME"])
    xml = home_data / "ibus" / "component" / "wubitok.xml"
    assert f"wrote {xml}" in proc.stdout and "ibus-daemon -drx" in proc.stdout
    # The typing index is built by the install, in the cache the engine reads, not at the first key.
    (index,) = [line.split()[2] for line in proc.stdout.splitlines() if line.startswith("typing index ")]
    assert Path(index).is_file() and Path(index).parent == Path(env["WUBITOK_DATA_DIR"]) / "cache"
    assert xml.read_text(encoding="utf-8") == wubitok(env, "ibus", "component").stdout
    env_file = Path(env["XDG_CONFIG_HOME"]) / "environment.d" / component.ENVIRONMENT_FILE
    (line,) = env_file.read_text().splitlines()
    name, value = line.split("=", 1)
    assert name == "IBUS_COMPONENT_PATH" and value.split(":") == [str(xml.parent), "/usr/share/ibus/component"]

    status = wubitok(env, "ibus", "status")  # installed, but no daemon in this environment
    assert f"installed: {xml}\n" in status.stdout
    assert "session bus" in one_line_error(status)

    ibus.start(component_path=value)  # what the next login gives the daemon
    try:
        # Asked in a process of its own: IBus.Bus is one per process, and this one has the session's.
        listed = wubitok(env | {"IBUS_ADDRESS": ibus.address}, "ibus", "status")
    finally:
        ibus.stop()
    assert listed.returncode == 0, listed.stderr
    assert "daemon: running; wubitok-wubi86 listed" in listed.stdout

    removed = wubitok(env, "ibus", "uninstall")
    assert removed.returncode == 0 and not xml.exists() and not env_file.exists()
    again = wubitok(env, "ibus", "uninstall")
    assert again.returncode == 0 and "nothing to remove" in again.stdout


def test_status_asks_the_running_daemon(private_ibus):
    env = private_ibus.env() | {"IBUS_ADDRESS": private_ibus.address}
    proc = wubitok(env, "ibus", "status")
    assert proc.returncode == 0, proc.stderr
    assert "installed: no" in proc.stdout
    assert "daemon: running; wubitok-wubi86 listed" in proc.stdout


@pytest.mark.parametrize("args", [("ibus", "install"), ("ibus", "engine"), ("ibus", "status")])
def test_without_pygobject_one_line_names_the_distribution_package(isolated, args):
    line = one_line_error(wubitok(isolated, *args, prelude="sys.modules['gi'] = None"))
    assert "apt install" in line and "python3-gi" in line and "python3-gobject" in line


def test_without_the_ibus_typelib_one_line_names_the_packages(isolated):
    line = one_line_error(wubitok(isolated, "ibus", "install", prelude="sys.modules['gi.repository.IBus'] = None"))
    assert "apt install ibus gir1.2-ibus-1.0" in line
    assert not (Path(isolated["XDG_DATA_HOME"]) / "ibus").exists()  # nothing written


def test_without_a_session_bus_or_a_daemon(isolated, tmp_path):
    assert "no D-Bus session bus" in one_line_error(wubitok(isolated, "ibus", "engine"))
    with_bus = isolated | {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"}
    assert "IBus is not running" in one_line_error(wubitok(with_bus, "ibus", "status"))
    dead = isolated | {"IBUS_ADDRESS": f"unix:path={tmp_path}/no-such-socket"}
    assert "cannot reach ibus-daemon" in one_line_error(wubitok(dead, "ibus", "engine"))


def test_an_unwritable_component_folder(isolated, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    line = one_line_error(wubitok(isolated | {"XDG_DATA_HOME": str(blocker)}, "ibus", "install"))
    assert "cannot write" in line and str(blocker) in line
    assert "--system goes with install" in one_line_error(wubitok(isolated, "ibus", "status", "--system"))


def user_component_path(env: dict[str, str]) -> str:
    """IBUS_COMPONENT_PATH as a user install writes it for the login's environment."""
    return f"{env['XDG_DATA_HOME']}/ibus/component:{component.SYSTEM_DIR}"


def test_install_refreshes_the_registry_cache_a_daemon_wrote_before(tmp_path):
    """IBus ran before the install (as on every desktop), so its registry cache exists without
    our component; after the install and a login with IBUS_COMPONENT_PATH, the daemon lists it."""
    ibus = PrivateIbus(tmp_path)
    env = ibus.env()
    ibus.start(component_path=str(component.SYSTEM_DIR), cache="auto")  # a login before the install
    ibus.stop()
    cache = Path(env["XDG_CACHE_HOME"]) / "ibus" / "bus" / "registry"
    assert cache.is_file()

    proc = wubitok(env, "ibus", "install")
    assert proc.returncode == 0, proc.stderr
    ibus.start(component_path=user_component_path(env), cache="auto")  # the next login
    try:
        listed = wubitok(env | {"IBUS_ADDRESS": ibus.address}, "ibus", "status")
    finally:
        ibus.stop()
    assert listed.returncode == 0, listed.stderr
    assert "daemon: running; wubitok-wubi86 listed" in listed.stdout, listed.stdout
    assert f"refreshed IBus's registry cache {cache}" in proc.stdout


def test_status_tells_a_stale_cache_from_a_missing_variable(tmp_path):
    ibus = PrivateIbus(tmp_path)
    env = ibus.env()
    value = user_component_path(env)
    # The component written as install writes it, but the cache refreshed before it existed:
    # what an install without the refresh leaves behind.
    installed = wubitok(env | {"PATH": str(tmp_path / "no-tools")}, "ibus", "install")
    assert installed.returncode == 0, installed.stderr
    assert (f"IBus's registry cache was not refreshed (the 'ibus' command is not installed); run: "
            f"IBUS_COMPONENT_PATH={value} ibus write-cache") in installed.stdout
    xml = Path(env["XDG_DATA_HOME"]) / "ibus" / "component" / "wubitok.xml"
    ibus.start(component_path=str(component.SYSTEM_DIR), cache="auto")
    try:
        without = wubitok(env | {"IBUS_ADDRESS": ibus.address}, "ibus", "status")
    finally:
        ibus.stop()
    assert "not listed: the running ibus-daemon was started without IBUS_COMPONENT_PATH" in without.stdout
    assert f"IBUS_COMPONENT_PATH={value} ibus-daemon -drx" in without.stdout

    ibus.start(component_path=value, cache="auto")
    try:
        stale = wubitok(env | {"IBUS_ADDRESS": ibus.address}, "ibus", "status")
        doctor = wubitok(env | {"IBUS_ADDRESS": ibus.address}, "doctor", "ibus")
    finally:
        ibus.stop()
    cache = Path(env["XDG_CACHE_HOME"]) / "ibus" / "bus" / "registry"
    assert f"MISSING  ibus: wubitok-wubi86 in the running daemon: IBus's registry cache {cache}" in doctor.stdout
    assert (f"not listed: IBus's registry cache {cache} was written before the install and hides it: "
            f"IBUS_COMPONENT_PATH={value} ibus write-cache && ibus restart") in stale.stdout, stale.stdout
    assert xml.is_file()
