"""tests/system.py: a missing part of the system skips with its reason, or fails under
WUBITOK_REQUIRE_SYSTEM_TESTS=1.  The machine is left alone: a part is missing because PATH
lacks it, present because PATH has a stand-in."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from system import PARTS, REQUIRE_VARIABLE, missing

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
REASON = "needs ibus-daemon (Debian: apt install ibus)"


def run_pytest(folder: Path, path: str, require: bool) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != REQUIRE_VARIABLE}
    env.update(PATH=path, PYTHONPATH=os.pathsep.join([str(TESTS), str(ROOT)]))
    if require:
        env[REQUIRE_VARIABLE] = "1"
    # Without Qt's plugin (nothing here needs Qt) and past the collection error the variable makes.
    args = ["-ra", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:pytest-qt", "--continue-on-collection-errors"]
    return subprocess.run([sys.executable, "-m", "pytest", *args, str(folder)], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def suite(tmp_path) -> Path:
    """Three tiny test files needing ibus-daemon: in a test, by the mark (the suite's conftest), at import."""
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "test_in_a_test.py").write_text(
        "from system import require\n\ndef test_types_through_ibus():\n    require('ibus-daemon')\n",
        encoding="utf-8")
    (folder / "conftest.py").write_text((TESTS / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "test_marked.py").write_text(
        "import pytest\n\n@pytest.mark.system('ibus-daemon')\ndef test_marked():\n    pass\n", encoding="utf-8")
    (folder / "test_at_import.py").write_text(
        "from system import require\n\nrequire('ibus-daemon')\n\ndef test_anything():\n    pass\n",
        encoding="utf-8")
    return folder


@pytest.fixture
def empty_path(tmp_path) -> str:
    (tmp_path / "bin").mkdir()
    return str(tmp_path / "bin")


def test_a_missing_part_is_a_skip_with_its_reason_in_the_summary(suite, empty_path):
    proc = run_pytest(suite, empty_path, require=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = [line for line in proc.stdout.splitlines() if line.startswith("SKIPPED")]
    assert summary and all(line.endswith(f": {REASON}") for line in summary), proc.stdout
    assert any("test_marked.py:" in line for line in summary)  # a marked test is named by its own line
    assert re.search(r"\b3 skipped\b", proc.stdout)


def test_under_the_variable_a_missing_part_fails_with_the_same_reason(suite, empty_path):
    proc = run_pytest(suite, empty_path, require=True)
    assert proc.returncode != 0
    assert "skipped" not in proc.stdout.splitlines()[-1]
    # The test and the marked test fail, the module fails to import.
    assert re.search(r"\b1 failed\b", proc.stdout) and re.search(r"\b2 errors\b", proc.stdout), proc.stdout
    assert proc.stdout.count(f"{REASON} ({REQUIRE_VARIABLE}=1)") >= 3


def test_a_part_on_path_runs_the_tests(suite, empty_path):
    daemon = Path(empty_path) / "ibus-daemon"
    daemon.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    daemon.chmod(0o755)
    for require in (False, True):
        proc = run_pytest(suite, empty_path, require=require)
        assert proc.returncode == 0 and re.search(r"\b3 passed\b", proc.stdout), proc.stdout


def test_unknown_part_names_are_a_mistake_in_the_test():
    with pytest.raises(KeyError, match="ibus_daemon"):
        missing("ibus_daemon")
    assert all(part.what and part.present for part in PARTS.values())


def test_no_other_skips_in_the_suite():
    """Every test that may not run here goes through tests/system.py, so CI's variable catches it."""
    pattern = re.compile(r"pytest\.skip\(|mark\.skip|importorskip|skipif")
    own = {TESTS / "system.py", Path(__file__).resolve()}
    offenders = [str(p.relative_to(ROOT)) for p in TESTS.rglob("*.py")
                 if p not in own and pattern.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


@pytest.mark.system("root", "mount")
def test_ci_bare_machine_hides_every_optional_part_and_leaves_the_machine_alone():
    """.ci/bare-machine, CI's fresh machine (issue #37, 1): the optional parts are missing inside,
    Python's gi and GLib's typelibs stay, and outside nothing changed."""
    hidden = ("ibus-typelib", "ibus-daemon", "Xvfb", "xdotool", "rime_deployer", "rime-data-wubi", "libime_tabledict")
    before = missing(*hidden)
    script = (f"import json, sys; sys.path.insert(0, {str(TESTS)!r}); from system import PARTS\n"
              f"print(json.dumps({{n: PARTS[n].present() for n in {hidden!r} + ('gi',)}}))")
    env = {k: v for k, v in os.environ.items() if k != "WUBITOK_BARE_MACHINE"}  # a namespace of its own
    done = subprocess.run([str(ROOT / ".ci" / "bare-machine"), sys.executable, "-c", script], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    present = json.loads(done.stdout)
    assert not any(present[n] for n in hidden), present
    assert present["gi"] == (not missing("gi"))
    assert missing(*hidden) == before
