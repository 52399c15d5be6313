"""Memory that does not grow with the longest line (issue #37, 5): each command on one 10 MB line
(Han text without spaces, and mixed text with them) stays under 300 MB.  Before: encode --file
took 1.3 GB on a 5.7 MB line, encode -o 780 MB and compare 470 MB on a 6 MB one, convert --to wubi
380 MB on 10 MB of Han.  Slow (a few seconds a command): .ci/run runs it with the slow tests."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from wubitok.paths import resources_dir

LIMIT_MB = 300
MODELS = resources_dir() / "models"
_MEASURE = ("import resource, subprocess, sys\n"
            "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
            "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
            "print(done.returncode, peak // 1024, done.stderr.decode()[-300:].replace(chr(10), ' '))\n")


@pytest.fixture(scope="module")
def lines(tmp_path_factory):
    folder = tmp_path_factory.mktemp("long")
    text = (resources_dir() / "samples" / "fortunes-zh.txt").read_text(encoding="utf-8")
    out = {}
    for name, body in (("han", re.sub(r"\s+", "", text)), ("mixed", re.sub(r"\s+", " ", text))):
        data = body.encode("utf-8") * (10_000_000 // len(body.encode("utf-8")) + 1)
        path = folder / f"{name}.txt"
        path.write_text(data[:10_000_000].decode("utf-8", "ignore") + "\n", encoding="utf-8")
        out[name] = path
    return out


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["han", "mixed"])
@pytest.mark.parametrize("argv", [
    ["encode", "-m", MODELS / "wubi-bpe-6000.json", "--file"],
    ["encode", "-m", MODELS / "bpe-6000.json", "-q", "-o", "{out}.jsonl", "--file"],
    ["count", "-m", MODELS / "unigram-6000.json", "-q", "-o", "{out}.tsv", "--file"],
    ["compare", "-m", MODELS / "wordpiece-6000.json", "--file"],
    ["segment", "--file"],
    ["convert", "--to", "wubi", "--file"],
], ids=lambda a: a[0] + ("-o" if "-o" in a else ""))
def test_one_10_mb_line_stays_under_300_mb(lines, tmp_path, kind, argv):
    path = lines[kind]
    cmd = [sys.executable, "-m", "wubitok", *[str(a).format(out=tmp_path / "out") for a in argv], str(path)]
    done = subprocess.run([sys.executable, "-c", _MEASURE, *cmd], capture_output=True, text=True, timeout=900)
    code, peak_mb, err = done.stdout.split(" ", 2)
    assert code == "0", err
    assert int(peak_mb) <= LIMIT_MB, json.dumps({"peak_mb": int(peak_mb), "argv": cmd[3:]})
