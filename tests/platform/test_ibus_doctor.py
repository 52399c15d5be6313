"""``wubitok doctor ibus`` with a private ibus-daemon running and not running."""
from __future__ import annotations

import json

from test_ibus_cli import wubitok

FONT = "a Han font for the candidate window"


def ibus_lines(proc) -> list[str]:
    """The report's IBus lines but the font's (which depends on the machine's fonts)."""
    return [line for line in proc.stdout.splitlines() if ("IBus" in line or "ibus:" in line) and FONT not in line]


def test_with_the_daemon_running_and_listing_the_engine(private_ibus):
    env = private_ibus.env() | {"IBUS_ADDRESS": private_ibus.address}
    report = json.loads(wubitok(env, "doctor", "ibus", "--json").stdout)
    problems = {c["part"]: c["problem"] for c in report["checks"] if c["problem"]}
    assert list(problems) in ([], [FONT]), problems
    assert "wubitok-wubi86 in the running daemon" in [c["part"] for c in report["checks"]]
    proc = wubitok(env, "doctor", "ibus")
    if not problems:
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert proc.stdout == "ok       typing in every application (IBus)\n"
        assert report["uses"]["ibus"]["ready"] is True
    else:
        assert proc.returncode == 1 and ibus_lines(proc) == []


def test_with_no_daemon(tmp_path):
    from ibus_harness import PrivateIbus

    env = PrivateIbus(tmp_path).env()  # an empty HOME, no session bus
    proc = wubitok(env, "doctor", "ibus")
    assert proc.returncode == 1
    assert ibus_lines(proc) == [
        "MISSING  ibus: wubitok's component: not installed -> wubitok ibus install",
        "MISSING  ibus: a running ibus-daemon: no D-Bus session bus: run this inside a desktop session "
        "(or under dbus-run-session) with IBus started"]
    dead = wubitok(env | {"IBUS_ADDRESS": f"unix:path={tmp_path}/no-such-socket"}, "doctor", "ibus")
    assert "MISSING  ibus: a running ibus-daemon: cannot reach ibus-daemon at" in dead.stdout


def test_a_daemon_running_without_our_component(tmp_path):
    from ibus_harness import PrivateIbus

    ibus = PrivateIbus(tmp_path)
    ibus.start(component_path=str(tmp_path / "nothing"))
    try:
        proc = wubitok(ibus.env() | {"IBUS_ADDRESS": ibus.address}, "doctor", "ibus")
    finally:
        ibus.stop()
    assert proc.returncode == 1
    assert ibus_lines(proc) == ["MISSING  ibus: wubitok-wubi86 in the running daemon: not installed: "
                                "run 'wubitok ibus install'"]


def test_missing_system_parts_name_the_distribution_packages(tmp_path):
    from ibus_harness import PrivateIbus

    env = PrivateIbus(tmp_path).env()
    no_daemon = wubitok(env | {"PATH": str(tmp_path / "empty")}, "doctor", "ibus")
    assert any(line.startswith("MISSING  ibus: ibus-daemon: not found -> ") and "ibus" in line.split("->")[1]
               for line in no_daemon.stdout.splitlines()), no_daemon.stdout
    no_gi = wubitok(env, "doctor", "ibus", "--json", prelude="sys.modules['gi'] = None")
    (gi,) = [c for c in json.loads(no_gi.stdout)["checks"] if c["problem"] and "gi" in c["part"]]
    assert gi["packages"] == ["python3-gi", "python3-gobject", "python-gobject"]
    no_typelib = wubitok(env, "doctor", "ibus", prelude="sys.modules['gi.repository.IBus'] = None")
    assert "MISSING  ibus: IBus's introspection data: not installed" in no_typelib.stdout
