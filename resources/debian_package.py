"""Unpack a Debian package for the scripts that make wubitok's data from one.

    from debian_package import unpack
    root, version = unpack("fortunes-zh", workdir)          # apt-get download, then unpack
    root, version = unpack("fortunes-zh", workdir, deb)     # a .deb already at hand

Used by resources/samples/make_samples.py, resources/frequency/make_frequency.py,
dicts/build_dictionary.py and bench/corpus.py: each records the package and its
version as the data's provenance.
"""
from __future__ import annotations

import subprocess
from pathlib import Path


def unpack(package: str, workdir: Path, deb: Path | None = None, *, cache: Path | None = None) -> tuple[Path, str]:
    """``package`` unpacked under ``workdir``: the root of its files, and its version.  The
    ``.deb`` is ``deb`` when given, else fetched into ``cache`` (default ``workdir``), or
    taken from there when one was fetched before."""
    if deb is None:
        cache = cache or workdir
        debs = sorted(cache.glob(f"{package}_*.deb"))
        if not debs:
            cache.mkdir(parents=True, exist_ok=True)
            subprocess.run(["apt-get", "download", package], cwd=cache, check=True)
            debs = sorted(cache.glob(f"{package}_*.deb"))
        deb = debs[-1]
    version = subprocess.run(["dpkg-deb", "--field", str(deb), "Version"], check=True, capture_output=True,
                             text=True).stdout.strip()
    root = workdir / f"{package}-files"
    # dpkg-deb -x makes the last folder only: a workdir that does not exist yet fails.
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root, version
