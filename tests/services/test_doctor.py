"""The doctor's distribution detection and its fixes per distribution."""
from __future__ import annotations

import pytest

from wubitok.services.doctor import Check, distribution, missing_qt_libraries, qt_library_packages, table_checks

OS_RELEASES = {
    'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\n': "debian",
    'ID=debian\nVERSION_ID="12"\n': "debian",
    'ID=fedora\nVERSION_ID=40\n': "fedora",
    'ID="rocky"\nID_LIKE="rhel centos fedora"\n': "fedora",
    "ID=arch\n": "arch",
    "ID=manjaro\nID_LIKE=arch\n": "arch",
    "ID=alpine\n": None,
}


@pytest.mark.parametrize(("text", "expected"), OS_RELEASES.items())
def test_the_distribution_from_os_release(tmp_path, text, expected):
    path = tmp_path / "os-release"
    path.write_text(text)
    assert distribution(path) == expected
    assert distribution(tmp_path / "absent") is None


def test_a_fix_names_this_distribution_or_all_three():
    check = Check("tables", "Rime's rime_deployer", "not found", packages=("librime-bin", "librime", "librime"))
    assert check.fix("fedora") == "Fedora: sudo dnf install librime"
    assert check.line("debian") == ("tables: Rime's rime_deployer: not found -> "
                                    "Debian/Ubuntu: sudo apt install librime-bin")
    assert check.fix(None) == ("Debian/Ubuntu: sudo apt install librime-bin; Fedora: sudo dnf install librime; "
                               "Arch: sudo pacman -S librime")
    assert Check("cluster", "Dask", "missing", command="pip install 'wubitok[cluster]'").fix("arch") == \
        "pip install 'wubitok[cluster]'"
    # The JSON the app reads gives the same checks back.
    assert [Check.from_dict(c.__dict__) for c in table_checks()] == table_checks()


def test_qt_libraries_found_missing_by_ldd_name_their_packages():
    # What ldd says of Qt's X11 plugin on a minimal system, mapped per distribution.
    missing = ["libxcb-cursor.so.0", "libxcb-sync.so.1", "libEGL.so.1", "libxkbcommon-x11.so.0", "libfoo.so.3"]
    debian, fedora, arch = qt_library_packages(missing)
    assert debian == "libxcb-cursor0 libxcb-sync1 libegl1 libxkbcommon-x11-0 libfoo"
    assert fedora == "xcb-util-cursor libxcb libglvnd-egl libxkbcommon-x11 libfoo"
    assert arch == "xcb-util-cursor libxcb libglvnd libxkbcommon-x11 libfoo"
    assert qt_library_packages([]) == ()
    assert all(".so" in soname for soname in missing_qt_libraries())  # file names, whatever this machine lacks
