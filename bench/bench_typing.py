#!/usr/bin/env python3
"""Keystrokes per character when typing real text with wubitok's engine, per charset setting,
with and without automatic phrases, and the share of the text the setting can type.

    nice -n 10 .venv/bin/python bench/bench_typing.py [--auto-phrase 3] [--check 400] [--quick]

Text (bench/genres.py, from Debian packages): modern = the held-out man pages of
``manpages-zh`` (zh_CN), prose = the held-out ``fortunes-zh`` fortunes, classical = all
Tang and Song poems of ``fortunes-zh``, Tang = 唐诗三百首 as bundled
(``resources/samples/tang300.txt``, the same ``fortunes-zh`` file: titles, authors and
poems) and the same converted to traditional characters by OpenCC's ``s2t``
(``wubitok.text.script``), traditional = the held-out zh_TW man pages.

``--quick``: only the default setting, the default under Rime's rules (no 顶字, no
auto-commit) and Rime, no automatic phrases (a few minutes instead of about fifteen).

Simplified first follows the typist (``wubitok/ime/script_sense.py``): the order steps
aside once 4 of the last 20 characters chosen are outside GB2312.  Under such a setting
each text is typed in order, each run planned with the order then in force and planned
again from the segment after which the typist's choices turn it, as the engine would.

The typist: every run of Han characters is typed in the fewest keys the engine allows
(dynamic programming over characters and the table's phrases): a code of 1-4 keys, ``=``
per page turned, then Space for the first candidate or the digit of another; no Space for
a 4-key code's first candidate when another code follows (顶字: its first key commits it)
or when it is the code's only candidate (auto-commit).  The candidate pages are the
engine's own (each code and code prefix typed into ``ImeEngine``; completions on the
first page count).  Keys per character = keys / Han characters typed; characters the
setting cannot type by a Wubi code (not in the charset) are left out of it and reported
as the untypable share.  Punctuation and non-Han text are not counted.

Automatic phrases (``--auto-phrase N``, fcitx5's wbx default is 3): the text is typed in
document order; a string of 2-4 characters typed character by character N times becomes a
user phrase under its standard phrase code, after the table's entries of that code, as
the engine does (``auto_phrase`` setting).  In-sample: it learns from the text it is
measured on, an upper bound on what a typist gains.

``--check N``: the key scripts of the first N runs of each text are fed through
``ImeEngine`` (learning off) and must commit exactly the run (no auto-phrase mode).

``--rime``: the same typist on Rime (librime 1.8.5 through its C API,
tests/ime/tables/rime_session.py) with Debian's ``wubi86`` schema and dictionary
as shipped (rime-data-wubi): its candidate pages, ``{Page_Down}`` per page, Space or
a digit after every code (the schema has neither auto-commit nor 顶字; its sentence
making, several codes and one Space, is not used: the typist commits code by code).
Debian ships the schema without rime-prelude's ``default.yaml`` and ``symbols.yaml``;
empty stand-ins for the sections it imports (key bindings, punctuation) are given,
which leaves the typing of Han text as it is, and its user dictionary is off (a fresh
typist; learning would reorder the pages under the check).  The scripts are checked
through librime.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import regex

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "ime" / "tables"))  # rime_session: librime through ctypes

from genres import load_genres  # noqa: E402

from wubitok.errors import InputError, UnknownCodeError  # noqa: E402
from wubitok.ime import ImeEngine, ImeOptions  # noqa: E402
from wubitok.ime.phrases import phrase_entry, typed_by_table  # noqa: E402
from wubitok.ime.script_sense import ScriptSense  # noqa: E402
from wubitok.ime.tables import typing_table  # noqa: E402
from wubitok.text.script import convert_script  # noqa: E402
from wubitok.wubi.dictionary import default_dictionary  # noqa: E402

HAN_RUN = regex.compile(r"\p{Han}+")
SETTINGS = {
    "all": ImeOptions(charset="all", simplified_first=False),
    "all, simplified first": ImeOptions(charset="all", simplified_first=True),
    "gbk": ImeOptions(charset="gbk", simplified_first=False),
    "gbk, simplified first (default)": ImeOptions(),
    # Simplified first is off whenever the output is a traditional script (the order only;
    # the typist is measured on the characters themselves, as in the other rows).
    "gbk, simplified first, output traditional": ImeOptions(output="traditional"),
    "gb2312": ImeOptions(charset="gb2312"),
    # Like for like with Rime's wubi86 as shipped, which has neither.
    "default without 顶字 and auto-commit": ImeOptions(top_commit=False, auto_commit=False),
}
QUICK = ("gbk, simplified first (default)", "default without 顶字 and auto-commit")
TANG = ROOT / "resources" / "samples" / "tang300.txt"
AUTO_PHRASE_LENGTHS = (2, 3, 4)


class Way(NamedTuple):
    mid: int  # keys when another code follows
    end: int  # keys at the end of a run
    code: str
    pos: int  # place in the code's candidate list


def texts() -> dict[str, str]:
    g = load_genres()
    tang = TANG.read_text(encoding="utf-8")
    return {
        "modern (manpages-zh)": "".join(g["zh_CN"]["test"]),
        "prose (fortunes-zh)": "".join(g["fortunes"]["test"]),
        "classical (tang300, song100)": "".join(d for s in ("train", "dev", "test") for d in g["classical"][s]),
        "Tang (tang300.txt)": tang,
        "Tang traditional (tang300.txt, s2t)": convert_script(tang, "traditional"),
        "traditional (manpages-zh zh_TW)": "".join(g["zh_TW"]["test"]),
    }


class Typist:
    """The cheapest way to type each text under one setting, from the engine's candidate lists."""

    def __init__(self, options: ImeOptions):
        self.options = options
        self.page = options.page_size
        d = default_dictionary()
        self.dictionary = d
        # code -> its candidates in the engine's order: the exact matches (the exported table,
        # which tests/ime/tables checks against the engine) ...
        self.lists: dict[str, list[str]] = {}
        for e in typing_table(d, None, options):
            self.lists.setdefault(e.code, []).append(e.text)
        # ... and for codes of 1-3 keys, the completions the engine shows on the first page.
        engine = ImeEngine(d, **{**options.to_dict(), "learning": False})
        prefixes = {c[:n] for c in self.lists for n in range(1, min(len(c), 3) + 1)}
        self.first_pages: dict[str, list[str]] = {}
        for prefix in prefixes:
            for key in prefix:
                engine.process(key)
            self.first_pages[prefix] = [c.text for c in engine.state.candidates]
            engine.process("escape")
        self.user: dict[str, list[str]] = {}  # automatic phrases by code
        self.best: dict[str, Way] = {}  # text -> the cheapest way to type it
        self.where: dict[str, set[str]] = {}  # text -> the codes that list it
        for code in set(self.lists) | set(self.first_pages):
            self._add_ways(code)
        self.longest = max(map(len, self.best))
        self._saved = dict(self.best), {t: set(c) for t, c in self.where.items()}

    def start(self) -> None:
        """A new text: a fresh typing session (the order depends on nothing typed before)."""

    def plan(self, run: str) -> tuple[int, list[tuple[str, Way]]] | None:
        """(keys, segments) to type ``run`` after what was typed before; None if it cannot be typed."""
        return self.type_run(run)

    def forget_phrases(self) -> None:
        """Back to the table alone (no automatic phrases)."""
        self.user = {}
        self.best, where = dict(self._saved[0]), self._saved[1]
        self.where = {t: set(c) for t, c in where.items()}

    def _candidates(self, code: str) -> list[str]:
        """The candidates of ``code`` as the engine lists them: exact matches (user phrases
        after the table's), then the completions its first page shows."""
        exact = self.lists.get(code, []) + sorted(self.user.get(code, []))
        first = self.first_pages.get(code, [])
        return exact + first[len(exact):]

    def _add_ways(self, code: str) -> None:
        shown = self._candidates(code)
        for pos, text in enumerate(shown):
            self.where.setdefault(text, set()).add(code)
            base = len(code) + pos // self.page  # the code, then "=" per page
            full = len(code) == 4 and pos == 0
            way = Way(base + (0 if full and self.options.top_commit else 1),
                      base + (0 if full and len(shown) == 1 and self.options.auto_commit else 1), code, pos)
            old = self.best.get(text)
            if old is None or (way.mid, way.end) < (old.mid, old.end):
                self.best[text] = way

    def add_phrase(self, text: str) -> bool:
        """A user phrase under its standard code, as the engine's auto_phrase adds it."""
        try:
            code, _ = phrase_entry(self.dictionary, text)
        except (InputError, UnknownCodeError):
            return False
        if typed_by_table(self.dictionary, code, text) or text in self.user.get(code, []):
            return False
        self.user.setdefault(code, []).append(text)
        # A code's first entry may lose auto-commit: recompute the ways of everything it lists.
        affected = self._candidates(code)
        for other in affected:
            self.best.pop(other, None)
        self.where.setdefault(text, set()).add(code)
        for c in {c for t in affected for c in self.where.get(t, ())}:
            self._add_ways(c)
        self.longest = max(self.longest, len(text))
        return True

    def type_run(self, run: str) -> tuple[int, list[tuple[str, Way]]] | None:
        """(keys, segments) of the cheapest way to type ``run``; None if it cannot be typed."""
        n = len(run)
        inf = 1 << 30
        cost = [0] + [inf] * n
        back: list[tuple[int, Way] | None] = [None] * (n + 1)
        for i in range(n):
            if cost[i] == inf:
                continue
            for j in range(i + 1, min(n, i + self.longest) + 1):
                way = self.best.get(run[i:j])
                if way is None:
                    continue
                c = cost[i] + (way.end if j == n else way.mid)
                if c < cost[j]:
                    cost[j], back[j] = c, (i, way)
        if cost[n] == inf:
            return None
        segments = []
        j = n
        while j:
            i, way = back[j]  # type: ignore[misc]
            segments.append((run[i:j], way))
            j = i
        return cost[n], segments[::-1]

    def script(self, segments: list[tuple[str, Way]]) -> list[str]:
        """The keys of a typed run, as ImeEngine takes them."""
        keys: list[str] = []
        for k, (_text, way) in enumerate(segments):
            keys += list(way.code) + ["="] * (way.pos // self.page)
            spent = len(way.code) + way.pos // self.page
            last = k == len(segments) - 1
            if (way.end if last else way.mid) > spent:
                keys.append("space" if way.pos % self.page == 0 else str(way.pos % self.page + 1))
        return keys


class SensingTypist:
    """The typist under a simplified-first setting, whose order follows the typist's script
    (script_sense.py): two typists, the order simplified first and as ranked, and the sense
    fed with each segment chosen; a run is planned again from where the sense turns."""

    def __init__(self, options: ImeOptions):
        self.simplified = Typist(options)
        self.as_ranked = Typist(dataclasses.replace(options, simplified_first=False))
        self.options, self.page, self.dictionary = options, self.simplified.page, self.simplified.dictionary
        self.best = self.simplified.best  # what can be typed: the same texts in either order
        self.sense = ScriptSense()

    @property
    def user(self) -> dict[str, list[str]]:
        return self.simplified.user

    def start(self) -> None:
        self.sense.reset()

    def plan(self, run: str) -> tuple[int, list[tuple[str, Way]]] | None:
        keys, out, i = 0, [], 0
        while i < len(run):
            traditional = self.sense.traditional
            result = (self.as_ranked if traditional else self.simplified).type_run(run[i:])
            if result is None:
                return None
            cost, segments = result
            for k, (text, _way) in enumerate(segments):
                self.sense.note(text)
                if self.sense.traditional != traditional and k < len(segments) - 1:
                    keys += sum(w.mid for _t, w in segments[:k + 1])  # another code follows each
                    out += segments[:k + 1]
                    i += sum(len(t) for t, _w in segments[:k + 1])
                    break
            else:
                keys += cost
                out += segments
                i = len(run)
        return keys, out

    def script(self, segments: list[tuple[str, Way]]) -> list[str]:
        return self.simplified.script(segments)

    def add_phrase(self, text: str) -> bool:
        added = self.simplified.add_phrase(text)
        self.as_ranked.add_phrase(text)
        return added

    def forget_phrases(self) -> None:
        self.simplified.forget_phrases()
        self.as_ranked.forget_phrases()


def make_typist(options: ImeOptions) -> Typist | SensingTypist:
    return SensingTypist(options) if options.orders_simplified_first else Typist(options)


RIME_DATA = Path("/usr/share/rime-data")
RIME_STAND_INS = {
    "default.yaml": "schema_list:\n  - schema: wubi86\nkey_binder:\n  bindings: []\nrecognizer:\n  patterns: {}\n"
                    "punctuator:\n  full_shape: {}\n  half_shape: {}\n",
    "symbols.yaml": "punctuator:\n  full_shape: {}\n  half_shape: {}\n  symbols: {}\n",
    # rime-prelude's newer default.yaml replaces ours at deploy time and lists schemas this machine
    # need not have (terra_pinyin): a patch keeps the list ours, whichever default.yaml wins.
    "default.custom.yaml": "patch:\n  schema_list:\n    - schema: wubi86\n",
    # A fresh typist whose choices do not reorder the pages while the scripts are checked.
    "wubi86.custom.yaml": "patch:\n  translator/enable_user_dict: false\n",
}


class RimeTypist(Typist):
    """The same typist over librime's candidate pages (Debian's wubi86 schema)."""

    def __init__(self, folder: Path):
        from rime_session import Rime  # noqa: PLC0415 - only with --rime

        for name, text in RIME_STAND_INS.items():
            (folder / name).write_text(text, encoding="utf-8")
        subprocess.run(["rime_deployer", "--build", str(folder), str(RIME_DATA), str(folder / "build")],
                       check=True, capture_output=True, timeout=600)
        self.rime = Rime(folder, RIME_DATA, prebuilt_dir=RIME_DATA / "build")
        if not self.rime.select_schema("wubi86"):
            raise RuntimeError("librime did not load Debian's wubi86 schema")
        self.options = ImeOptions(page_size=5, auto_commit=False, top_commit=False)
        self.page = 5
        self.dictionary = default_dictionary()
        codes = set()
        in_data = False
        for line in (RIME_DATA / "wubi86.dict.yaml").read_text(encoding="utf-8").splitlines():
            if line == "...":
                in_data = True
            elif in_data and "\t" in line:
                codes.add(line.split("\t")[1])
        codes = {c for c in codes if c.isalpha() and c.islower() and len(c) <= 4}
        codes |= {c[:n] for c in codes for n in range(1, len(c))}
        self.best, self.where, self.user = {}, {}, {}
        for code in sorted(codes):
            self.rime.clear()
            self.rime.keys(code)
            shown, last = self.rime.menu()
            pages = [shown]
            while len(code) == 4 and not last and shown:  # every page of a full code
                self.rime.keys("{Page_Down}")
                shown, last = self.rime.menu()
                pages.append(shown)
            for page_no, page in enumerate(pages):
                for i, text in enumerate(page):
                    way = Way(len(code) + page_no + 1, len(code) + page_no + 1, code, page_no * self.page + i)
                    if text not in self.best or way.mid < self.best[text].mid:
                        self.best[text] = way
        self.rime.clear()
        self.longest = max(map(len, self.best))

    def script(self, segments: list[tuple[str, Way]]) -> list[str]:
        keys: list[str] = []
        for _text, way in segments:
            keys += list(way.code) + ["{Page_Down}"] * (way.pos // self.page)
            keys.append("{space}" if way.pos % self.page == 0 else str(way.pos % self.page + 1))
        return keys

    def check(self, text: str, n: int) -> int:
        done = 0
        for m in HAN_RUN.finditer(text):
            result = self.plan(m.group())
            if result is None:
                continue
            committed = ""
            for key in self.script(result[1]):
                self.rime.keys(key)
                committed += self.rime.commit()
            assert committed == m.group(), (m.group(), committed, result)
            done += 1
            if done == n:
                break
        return done


def measure(typist: Typist | SensingTypist, text: str, auto_phrase: int = 0) -> dict[str, float]:
    typist.start()
    keys = typed = untypable = 0
    runs_typed: Counter[str] = Counter()
    for m in HAN_RUN.finditer(text):
        # Characters the setting cannot type split the run; they are counted as untypable.
        for run in regex.split(r"([^\p{Han}])", "".join(c if c in typist.best else "\0" for c in m.group())):
            if run == "\0":
                untypable += 1
            if not run or run == "\0":
                continue
            result = typist.plan(run)
            assert result is not None
            cost, segments = result
            keys += cost
            typed += len(run)
            if auto_phrase:
                _note_runs(typist, segments, runs_typed, auto_phrase)
    han = typed + untypable
    return {"kpc": keys / typed if typed else float("nan"), "typable": typed / han if han else 1.0,
            "han": han, "phrases": sum(map(len, typist.user.values()))}


def _note_runs(typist: Typist | SensingTypist, segments: list[tuple[str, Way]], runs_typed: Counter[str],
               n: int) -> None:
    """Strings of 2-4 characters typed one by one count; the Nth time one becomes a phrase."""
    stretch = ""
    for seg, _way in segments:
        if len(seg) > 1:
            stretch = ""
            continue
        stretch += seg
        for k in AUTO_PHRASE_LENGTHS:
            if len(stretch) >= k:
                s = stretch[-k:]
                runs_typed[s] += 1
                if runs_typed[s] == n:
                    typist.add_phrase(s)


def check(typist: Typist | SensingTypist, text: str, n: int) -> int:
    """Feed the key scripts of the first ``n`` typable runs through ImeEngine; returns how many."""
    # Output as typed: the check is of the keys and the candidate order (which the output
    # setting can change), not of OpenCC's conversion.
    engine = ImeEngine(typist.dictionary, **{**typist.options.to_dict(), "learning": False})
    engine.configure(output="unchanged", simplified_first=typist.options.orders_simplified_first)
    typist.start()  # the engine is new: its script sense too
    done = 0
    for m in HAN_RUN.finditer(text):
        result = typist.plan(m.group())
        if result is None:
            continue
        committed = "".join(engine.process(k).committed for k in typist.script(result[1]))
        assert committed == m.group() and not engine.state.composing, (m.group(), committed, result)
        done += 1
        if done == n:
            break
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--auto-phrase", type=int, default=3, metavar="N")
    parser.add_argument("--check", type=int, default=400, metavar="N")
    parser.add_argument("--rime", action=argparse.BooleanOptionalAction, default=True,
                        help="also Rime with Debian's wubi86 (needs librime-bin, rime-data-wubi)")
    parser.add_argument("--quick", action="store_true",
                        help="the default setting, the same under Rime's rules, and Rime; no automatic phrases")
    args = parser.parse_args()
    if args.quick:
        args.auto_phrase = 0
    corpora = texts()
    print(f"load average {os.getloadavg()[0]:.2f}; Han characters: " + ", ".join(
        f"{name} {sum(len(m.group()) for m in HAN_RUN.finditer(t)):,}" for name, t in corpora.items()))
    print("\nkeys per character (share of the Han text typable)\n")
    print("| setting | " + " | ".join(corpora) + " |")
    print("|---|" + "---|" * len(corpora))
    checked = 0
    for name, options in SETTINGS.items():
        if args.quick and name not in QUICK:
            continue
        typist = make_typist(options)
        cells = []
        for text in corpora.values():
            r = measure(typist, text)
            if args.check:
                checked += check(typist, text, args.check)
            cells.append(f"{r['kpc']:.3f} ({r['typable']:.2%})")
            if args.auto_phrase:
                auto = measure(typist, text, args.auto_phrase)
                cells[-1] += f"<br>auto-phrases: {auto['kpc']:.3f} ({auto['kpc'] / r['kpc'] - 1:+.1%}, " \
                             f"{auto['phrases']:.0f} phrases)"
                typist.forget_phrases()
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    if args.rime:
        with tempfile.TemporaryDirectory() as tmp:
            rime = RimeTypist(Path(tmp))
            cells = []
            rime_checked = 0
            for text in corpora.values():
                r = measure(rime, text)
                rime_checked += rime.check(text, args.check) if args.check else 0
                cells.append(f"{r['kpc']:.3f} ({r['typable']:.2%})")
            rime.rime.close()
        print("| Rime 1.8.5, Debian's wubi86, code by code | " + " | ".join(cells) + " |")
        print(f"\n{rime_checked} runs typed through librime with the Rime scripts: each committed exactly its text.")
    print(f"\n{checked} runs typed through ImeEngine with the scripts above: each committed exactly its text.")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
