"""The library, the CLI and the exports in a Python environment without PySide6 (issue #32):
``pip install wubitok`` has no Qt, and only ``wubitok gui`` (and ``compare --plot``) need it.

The environment is a real venv in which PySide6 is not installed: it sees this environment's
packages through a folder of links that leaves out PySide6 and shiboken6 (so the test needs no
download and takes seconds), and this source tree.  The wheel in a clean venv with only the core
dependencies is tests/test_packaging.py's slow test.
"""
from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from system import missing

ROOT = Path(__file__).resolve().parents[1]
QT_DISTRIBUTIONS = ("pyside6", "shiboken6")
# The one module that loads IBus when imported (service.py loads it inside the calls that need it).
GI_MODULES = ("wubitok.platform.ibus.engine",)
GUI_LINE = "pip install 'wubitok[gui]'"


def _left_out() -> set[str]:
    """Top-level names in site-packages that belong to Qt's distributions or to wubitok's own install."""
    names = set()
    for dist in importlib.metadata.distributions():
        name = (dist.metadata["Name"] or "").lower().replace("_", "-")
        if name.startswith(QT_DISTRIBUTIONS) or name == "wubitok":
            names.update(Path(str(f)).parts[0] for f in dist.files or [])
    return names


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A venv whose interpreter finds every package of this one except PySide6, and this wubitok."""
    root = tmp_path_factory.mktemp("no-qt")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")], check=True, timeout=120)
    python = root / "venv" / "bin" / "python"
    links = root / "packages"
    links.mkdir()
    site = Path(sysconfig.get_paths()["purelib"])
    skip = _left_out()
    for entry in site.iterdir():
        if entry.name in skip or entry.suffix == ".pth" or entry.name.startswith("__editable__"):
            continue
        (links / entry.name).symlink_to(entry)
    target = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                 capture_output=True, text=True, check=True).stdout.strip())
    (target / "wubitok-test.pth").write_text(f"{ROOT}\n{links}\n", encoding="utf-8")
    return python


def run(python: Path, *args: str, cwd: Path, check: bool = True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "QT_"))}
    env["WUBITOK_DATA_DIR"] = str(cwd / "data")
    proc = subprocess.run([str(python), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                          encoding="utf-8")
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def one_line(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


def test_pyside6_is_not_there_and_every_module_outside_the_gui_imports(venv, tmp_path):
    script = (
        "import importlib, importlib.util, json, pkgutil, wubitok\n"
        "out = {'qt': importlib.util.find_spec('PySide6') is not None, 'wubitok': wubitok.__file__, 'errors': {}}\n"
        "names = [m.name for m in pkgutil.walk_packages(wubitok.__path__, 'wubitok.')]\n"
        "for name in names:\n"
        "    if name == 'wubitok.__main__' or name.startswith('wubitok.gui.') and name != 'wubitok.gui.launch':\n"
        "        continue\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception as exc:\n"
        "        out['errors'][name] = f'{type(exc).__name__}: {exc}'\n"
        "out['count'] = len(names)\n"
        "out['qt_loaded'] = [m for m in __import__('sys').modules if m.startswith(('PySide6', 'shiboken6'))]\n"
        "print(json.dumps(out))\n"
    )
    out = json.loads(run(venv, "-c", script, cwd=tmp_path).stdout)
    assert out["qt"] is False and out["qt_loaded"] == []
    assert Path(out["wubitok"]).is_relative_to(ROOT)
    # The IBus engine's modules load the distribution's gi: they import wherever IBus does.
    needs_gi = set(GI_MODULES) if missing("gi", "ibus-typelib") else set()
    assert set(out["errors"]) == needs_gi, out["errors"]
    assert out["count"] > 100


def test_the_cli_trains_encodes_and_exports_and_the_transformers_folder_loads(venv, tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\nWubi-BPE 你好世界\n" * 20, encoding="utf-8")
    model = tmp_path / "wubi.json"
    run(venv, "-m", "wubitok", "train", "-m", "wubi-bpe", "-v", "400", "--quiet", str(corpus), "-o", str(model),
        cwd=tmp_path)
    ids = run(venv, "-m", "wubitok", "encode", "-m", str(model), "床前明月光", cwd=tmp_path).stdout.split()
    assert ids and all(i.isdigit() for i in ids)
    decoded = run(venv, "-m", "wubitok", "decode", "-m", str(model), *ids, cwd=tmp_path).stdout
    assert decoded.strip() == "床前明月光"
    folder = tmp_path / "hf"
    run(venv, "-m", "wubitok", "export", "-m", str(model), "--to", "transformers", "-o", str(folder), cwd=tmp_path)
    script = ("import importlib.util, sys\nfrom transformers import AutoTokenizer\n"
              f"tok = AutoTokenizer.from_pretrained({str(folder)!r}, trust_remote_code=True)\n"
              "ids = tok('床前明月光')['input_ids']\n"
              "print(tok.decode(ids, skip_special_tokens=True))\n"
              "print(importlib.util.find_spec('PySide6') is None, any(m.startswith('PySide6') for m in sys.modules))\n")
    lines = run(venv, "-c", script, cwd=tmp_path).stdout.splitlines()
    assert lines[-2:] == ["床前明月光", "True False"]


def test_the_app_says_in_one_line_what_to_install(venv, tmp_path):
    for args in (["-m", "wubitok", "gui"], ["-m", "wubitok", "gui", "--screenshot", "x.png"],
                 ["-c", "import sys; from wubitok.gui.launch import main; sys.exit(main())"]):
        line = one_line(run(venv, *args, cwd=tmp_path, check=False))
        assert line.endswith(f"the desktop app needs PySide6 (Qt), which is not installed: {GUI_LINE}"), line
    assert not (tmp_path / "x.png").exists()
    model = ROOT / "resources" / "models" / "bpe-6000.json"
    line = one_line(run(venv, "-m", "wubitok", "compare", "-m", str(model), "--plot", "chart.png", "你好",
                        cwd=tmp_path, check=False))
    assert line.endswith(f"--plot needs PySide6 (Qt), which is not installed: {GUI_LINE}"), line
    # Everything else answers as usual.
    assert run(venv, "-m", "wubitok", "lookup", "你好", cwd=tmp_path).stdout.strip()
    assert run(venv, "-m", "wubitok", "type", "wqiy ", cwd=tmp_path).stdout.strip() == "你"
    assert run(venv, "-m", "wubitok", "convert", "--help", cwd=tmp_path).returncode == 0
