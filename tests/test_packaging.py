"""The wheel carries the dictionary and resources; an installed package finds them.

The slow test is a user's install: ``python -m build`` makes the sdist and, from it, the wheel;
the wheel goes into a clean venv (dependencies as wheels only) without the app, then with it.
"""
from __future__ import annotations

import ast
import importlib
import importlib.metadata
import os
import struct
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_installs_from_the_clone_or_a_built_wheel():
    """No package is published yet: `pip install wubitok` would find none, or someone else's (issue #37, 11)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install wubitok" not in readme and "pip install 'wubitok[" not in readme
    assert "pip install '.[gui]'" in readme and "pip wheel --no-deps -w dist ." in readme
    version = importlib.metadata.version("wubitok")
    assert f"dist/wubitok-{version}-py3-none-any.whl" in readme  # the name the wheel gets


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
    )
    return next(out.glob("wubitok-*.whl"))


def test_wheel_contains_dictionary_and_resources(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "wubitok/data/wubi86.sqlite" in names
    assert "wubitok/resources/fonts/DroidSansFallbackFull.ttf" in names
    assert any(n.startswith("wubitok/resources/samples/") for n in names)
    assert "wubitok/py.typed" in names  # type checkers read the package's annotations
    info = zipfile.ZipFile(wheel).getinfo("wubitok/data/wubi86.sqlite")
    assert info.file_size == (ROOT / "dicts" / "wubi86.sqlite").stat().st_size


def test_installed_wheel_finds_its_dictionary_without_the_source_tree(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True)
    code = ("import wubitok.paths as p, wubitok.wubi.dictionary as d;"
            "print(p.dictionary_path()); print(d.default_dictionary().full_code('你'))")
    # Run from an empty folder with only the installed copy on the path.
    proc = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(target)!r}); {code}"],
                          cwd=tmp_path, capture_output=True, text=True, check=True)
    path, full = proc.stdout.split()
    assert path.startswith(str(target)) and full == "wqiy"


def test_type_checkers_see_every_public_name_that_import_gives_lazily():
    import wubitok

    tree = ast.parse((ROOT / "wubitok" / "__init__.py").read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    typed = {a.name: f"wubitok.{node.module}:{a.name}"
             for node in block.body if isinstance(node, ast.ImportFrom) for a in node.names}
    assert typed == wubitok._EXPORTS
    for name, target in typed.items():
        module = target.partition(":")[0]
        assert getattr(wubitok, name) is getattr(importlib.import_module(module), name)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """``python -m build``: the sdist, and the wheel built from that sdist (its own isolated hatchling)."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], check=True,
                   capture_output=True, timeout=900)
    return next(out.glob("wubitok-*.whl")), next(out.glob("wubitok-*.tar.gz"))


class CleanVenv:
    """A new venv of this Python, used as a user would: only its own bin/ and site-packages."""

    def __init__(self, folder: Path):
        self.folder = folder
        subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], check=True, timeout=300)
        self.bin = folder / "venv" / "bin"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "QT_"))}
        self.env.update(PATH=os.pathsep.join([str(self.bin), self.env.get("PATH", "")]),
                        WUBITOK_DATA_DIR=str(folder / "data"))

    def pip_install(self, requirement: str) -> None:
        # Every dependency as a wheel, as `make run` installs them: nothing may need a compiler.
        subprocess.run([str(self.bin / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "--only-binary=:all:", requirement], check=True, env=self.env, timeout=1800)

    def run(self, *args: str, check: bool = True, **env: str) -> subprocess.CompletedProcess:
        proc = subprocess.run(args, cwd=self.folder, env=self.env | env, capture_output=True, text=True,
                              encoding="utf-8", timeout=300)
        if check:
            assert proc.returncode == 0, proc.stderr
        return proc

    def python(self, code: str, **env: str) -> str:
        return self.run(str(self.bin / "python"), "-c", code, **env).stdout


@pytest.mark.slow
def test_build_gives_an_sdist_with_the_sources_and_data(built):
    _, sdist = built
    names = set(tarfile.open(sdist).getnames())
    top = sdist.name.removesuffix(".tar.gz")
    for path in ("pyproject.toml", "dicts/wubi86.sqlite", "resources/models/wubi-bpe-6000.json",
                 "resources/translations/wubitok_zh_CN.qm", "wubitok/cli/__init__.py"):
        assert f"{top}/{path}" in names, path


@pytest.mark.slow
def test_the_wheel_installs_and_runs_in_a_clean_venv_without_and_then_with_the_app(built, tmp_path):
    wheel, _ = built
    venv = CleanVenv(tmp_path)
    venv.pip_install(str(wheel))
    site = venv.python("import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()

    # The library and the CLI, without Qt: the data come from inside the installed package.
    where = venv.python("import importlib.util, wubitok.paths as p, wubitok.services.model_files as m\n"
                        "print(importlib.util.find_spec('PySide6') is None)\n"
                        "print(p.dictionary_path()); print(m.bundled_models_dir())").split()
    assert where[0] == "True" and all(path.startswith(site) for path in where[1:]), where
    lookup = venv.run("wubitok", "lookup", "你好").stdout
    assert "你\twqiy" in lookup and "你好\tphrase code wqvb" in lookup
    model = str(Path(where[2]) / "wubi-bpe-6000.json")
    ids = venv.run("wubitok", "encode", "-m", model, "你好世界").stdout.split()
    assert ids and venv.run("wubitok", "decode", "-m", model, *ids).stdout.strip() == "你好世界"
    assert venv.run("wubitok", "type", "wqiy vbg ").stdout.strip() == "你好"
    # Traditional output is OpenCC's, a default dependency.
    assert venv.run("wubitok", "type", "--output", "traditional", "udnt ").stdout.strip() == "頭髮"
    refused = venv.run("wubitok", "gui", "--screenshot", "no.png", check=False)
    assert refused.returncode == 2 and refused.stderr.strip().endswith("pip install 'wubitok[gui]'"), refused.stderr

    # The app: the gui extra, then a screenshot offscreen with the bundled fonts and translations.
    venv.pip_install(f"{wheel}[gui]")
    shot = tmp_path / "shot.png"
    for command in (["wubitok", "gui"], ["wubitok-gui"]):
        shot.unlink(missing_ok=True)
        venv.run(*command, "--screenshot", str(shot), "--pane", "lookup", "--text", "你好", "--lang", "zh_CN",
                 QT_QPA_PLATFORM="offscreen")
        header = shot.read_bytes()[:24]
        assert header[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", header[16:24]) == (1200, 800)
    found = venv.python(
        "from PySide6.QtCore import QTranslator\nfrom PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\nfrom wubitok.gui.support import fonts, i18n\n"
        "print(fonts.load_bundled_font())\nqm = i18n.translations_dir() / 'wubitok_zh_CN.qm'\n"
        "print(qm)\nprint(QTranslator().load(str(qm)))\n", QT_QPA_PLATFORM="offscreen").splitlines()
    assert found[0] and found[1].startswith(site) and found[2] == "True", found
