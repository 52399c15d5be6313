"""JSON text parsed with short, one-line errors."""
from __future__ import annotations

import json
from typing import Any

from ..errors import excerpt


class JsonError(ValueError):
    """Text that is not JSON, or JSON that cannot be held (too deep, too long a number)."""


def parse_json(text: str) -> Any:
    """``json.loads``, with every way it can fail as a :class:`JsonError` whose
    message is short: ``line 3: Expecting value``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonError(f"line {exc.lineno}: {exc.msg}") from None
    except RecursionError:
        raise JsonError("nested too deeply") from None
    except ValueError as exc:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise JsonError(excerpt(str(exc), 80)) from None
