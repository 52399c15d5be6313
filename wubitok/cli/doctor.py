"""``wubitok doctor``: what each use needs on this machine, and what to install."""
from __future__ import annotations

import argparse
import json
import sys

from ..errors import InputError
from ..services import doctor
from .common import help_formatter

EPILOG = """\
examples:
  wubitok doctor                 every use; exit code 0 when all are ready
  wubitok doctor ibus tables     only typing through IBus and the Rime/fcitx5 tables
  wubitok doctor --json          the report as JSON (the app's Help menu shows it)"""


def register(sub: argparse._SubParsersAction) -> None:
    uses = "\n".join(f"  {key:<12} {label}" for key, label in doctor.USES.items())
    p = sub.add_parser("doctor", help="check what each use needs on this machine, and what to install",
                       formatter_class=help_formatter, epilog=EPILOG,
                       description="One line per use that is ready, one line per problem with what to "
                                   "install on this distribution (Debian/Ubuntu, Fedora, Arch).\n\nuses:\n" + uses)
    p.add_argument("uses", nargs="*", metavar="USE", help="the uses to check (default: all)")
    p.add_argument("--json", action="store_true", help="the report as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    unknown = [use for use in args.uses if use not in doctor.USES]
    if unknown:
        raise InputError(f"unknown use {unknown[0]!r} (choose from {', '.join(doctor.USES)})")
    wanted = args.uses or list(doctor.USES)
    checks = [c for c in doctor.core_checks() if c.use in wanted]
    # IBus is Linux's: elsewhere it is checked only when asked for by name (and then says so).
    if "ibus" in args.uses or ("ibus" in wanted and sys.platform.startswith("linux")):
        # gi and a D-Bus connection only when IBus is asked about.
        from ..platform.ibus.diagnosis import doctor_checks

        checks += doctor_checks()
    checks = doctor.ordered(checks)
    distro = doctor.distribution()
    if args.json:
        json.dump(doctor.report_json(checks, distro), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        print("\n".join(doctor.report_lines(checks, distro)))
    return 0 if all(c.ok for c in checks) else 1
