"""Running ``wubitok`` in-process for the CLI tests."""
from __future__ import annotations

from wubitok.cli import main


def run(capsys, *argv):
    """(exit code, stdout, stderr) of ``wubitok ARGV...``; argparse's own exits count too."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err
