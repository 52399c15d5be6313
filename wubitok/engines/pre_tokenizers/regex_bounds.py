"""Bounds on the regular expressions a model file brings (issue #31, 10).

A pattern in a model is code from whoever made the file: ``(a+)+$`` takes
seconds on 2,000 characters and ``(?:a|aa)+$`` minutes on 42.  Two bounds:

* at load, :func:`check_pattern` refuses the classic catastrophic shape, a
  group that repeats without bound and holds an unbounded repeat itself
  (``(a+)+``, ``(\\w*\\s?)*``); possessive repeats (``a++``) and atomic groups
  (``(?>...)``) never backtrack and pass;
* at run time, a pattern from a model runs under ``regex``'s ``timeout=``
  (:func:`time_budget`), which catches what the shape test cannot (overlapping
  alternatives like ``(a|aa)+``); running over is one line, not a hang.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...errors import InputError, excerpt

# Seconds a model's pattern may take on a text: a fixed allowance and 20 µs per character.
# The GPT-4 pattern takes under 1 µs per character; a catastrophic one runs for minutes on 50.
BASE_SECONDS = 2.0
SECONDS_PER_CHAR = 2e-5


def time_budget(length: int) -> float:
    """The ``timeout=`` for running a model's pattern over ``length`` characters."""
    return BASE_SECONDS + length * SECONDS_PER_CHAR


def too_slow(pattern: str, length: int) -> InputError:
    return InputError(f"the model's pattern {excerpt(pattern, 60)} took over {time_budget(length):.0f} s on "
                      f"{length:,} characters: it backtracks catastrophically; fix the model's pattern",
                      code="model.regex_timeout")


@dataclass
class _Group:
    atomic: bool
    unbounded_inside: bool = False


def _quantifier_at(pattern: str, i: int) -> tuple[bool, int] | None:
    """(unbounded and backtracking, index after it) for a quantifier starting at ``i``, else None."""
    if i >= len(pattern):
        return None
    c = pattern[i]
    if c in "*+":
        end, unbounded = i + 1, True
    elif c == "?":
        end, unbounded = i + 1, False
    elif c == "{":
        close = pattern.find("}", i)
        body = pattern[i + 1:close] if close != -1 else ""
        if close == -1 or not body or not all(ch.isdigit() or ch in ", " for ch in body):
            return None  # a literal brace
        end, unbounded = close + 1, body.rstrip().endswith(",") or (
            "," in body and int(body.split(",")[1] or 0) > 64)
    else:
        return None
    if end < len(pattern) and pattern[end] == "+":  # possessive: never gives back
        return False, end + 1
    if end < len(pattern) and pattern[end] == "?":  # lazy: backtracks all the same
        end += 1
    return unbounded, end


def _skip_escape(pattern: str, i: int) -> int:
    """Index after the escape starting at ``i`` (``\\x``, ``\\p{...}``, ``\\N{...}``, ``\\x{...}``)."""
    if i + 1 < len(pattern) and pattern[i + 1] in "pPNxu" and i + 2 < len(pattern) and pattern[i + 2] == "{":
        close = pattern.find("}", i)
        return close + 1 if close != -1 else len(pattern)
    return i + 2


def _skip_class(pattern: str, i: int) -> int:
    """Index after the character class starting at ``i`` (nested classes of regex's V1 included)."""
    depth, j = 0, i
    while j < len(pattern):
        c = pattern[j]
        if c == "\\":
            j = _skip_escape(pattern, j)
            continue
        if c == "[" and (j == i or pattern[j - 1] != "\\"):
            depth += 1
            j += 1
            if j < len(pattern) and pattern[j] == "^":
                j += 1
            if j < len(pattern) and pattern[j] == "]":
                j += 1  # a leading ] is a literal
            continue
        if c == "]":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return len(pattern)


def check_pattern(pattern: str) -> None:
    """InputError when ``pattern`` repeats, without bound, a group that itself repeats without bound."""
    stack = [_Group(atomic=False)]
    i = 0
    while i < len(pattern):
        c = pattern[i]
        after_atom = None
        if c == "\\":
            after_atom = _skip_escape(pattern, i)
        elif c == "[":
            after_atom = _skip_class(pattern, i)
        elif c == "(":
            atomic = pattern.startswith("(?>", i)
            if pattern.startswith("(?#", i):  # a comment
                close = pattern.find(")", i)
                i = close + 1 if close != -1 else len(pattern)
                continue
            stack.append(_Group(atomic=atomic))
            i += 1
            continue
        elif c == ")" and len(stack) > 1:
            group = stack.pop()
            q = _quantifier_at(pattern, i + 1)
            unbounded, end = q if q is not None else (False, i + 1)
            if unbounded and group.unbounded_inside and not group.atomic:
                raise InputError(f"the model's pattern {excerpt(pattern, 60)} repeats a group that repeats"
                                 f" (at character {i + 1}): it can backtrack catastrophically; refused",
                                 code="model.regex_nested")
            if (unbounded or group.unbounded_inside) and not group.atomic:
                stack[-1].unbounded_inside = True
            i = end
            continue
        else:
            after_atom = i + 1
        q = _quantifier_at(pattern, after_atom)
        if q is not None:
            unbounded, after_atom = q
            if unbounded:
                stack[-1].unbounded_inside = True
        i = after_atom
