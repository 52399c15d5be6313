"""librime driven through its C API (ctypes over librime.so.1, Debian's librime1), for the
tests of the Rime export: keys in, the candidate menu and the committed text out.

The structs are those of librime 1.8's rime_api.h.
"""
from __future__ import annotations

import ctypes
import ctypes.util
from pathlib import Path

Bool = ctypes.c_int
SessionId = ctypes.c_size_t


class Traits(ctypes.Structure):
    _fields_ = [("data_size", ctypes.c_int), ("shared_data_dir", ctypes.c_char_p),
                ("user_data_dir", ctypes.c_char_p), ("distribution_name", ctypes.c_char_p),
                ("distribution_code_name", ctypes.c_char_p), ("distribution_version", ctypes.c_char_p),
                ("app_name", ctypes.c_char_p), ("modules", ctypes.POINTER(ctypes.c_char_p)),
                ("min_log_level", ctypes.c_int), ("log_dir", ctypes.c_char_p),
                ("prebuilt_data_dir", ctypes.c_char_p), ("staging_dir", ctypes.c_char_p)]


class Composition(ctypes.Structure):
    _fields_ = [("length", ctypes.c_int), ("cursor_pos", ctypes.c_int), ("sel_start", ctypes.c_int),
                ("sel_end", ctypes.c_int), ("preedit", ctypes.c_char_p)]


class Candidate(ctypes.Structure):
    _fields_ = [("text", ctypes.c_char_p), ("comment", ctypes.c_char_p), ("reserved", ctypes.c_void_p)]


class Menu(ctypes.Structure):
    _fields_ = [("page_size", ctypes.c_int), ("page_no", ctypes.c_int), ("is_last_page", Bool),
                ("highlighted_candidate_index", ctypes.c_int), ("num_candidates", ctypes.c_int),
                ("candidates", ctypes.POINTER(Candidate)), ("select_keys", ctypes.c_char_p)]


class Commit(ctypes.Structure):
    _fields_ = [("data_size", ctypes.c_int), ("text", ctypes.c_char_p)]


class Context(ctypes.Structure):
    _fields_ = [("data_size", ctypes.c_int), ("composition", Composition), ("menu", Menu),
                ("commit_text_preview", ctypes.c_char_p), ("select_labels", ctypes.POINTER(ctypes.c_char_p))]


def _sized(struct_type):
    s = struct_type()
    s.data_size = ctypes.sizeof(struct_type) - ctypes.sizeof(ctypes.c_int)  # RIME_STRUCT_INIT
    return s


class Rime:
    """One librime instance over a deployed user folder (``rime_deployer --build`` ran there).

    librime keeps global state: make one per process (a session-scoped fixture)."""

    def __init__(self, user_dir: Path, shared_dir: Path = Path("/usr/share/rime-data"),
                 prebuilt_dir: Path | None = None):
        self.lib = lib = ctypes.CDLL(ctypes.util.find_library("rime") or "librime.so.1")
        lib.RimeCreateSession.restype = SessionId
        lib.RimeSimulateKeySequence.argtypes = [SessionId, ctypes.c_char_p]
        lib.RimeSelectSchema.argtypes = [SessionId, ctypes.c_char_p]
        lib.RimeGetContext.argtypes = [SessionId, ctypes.POINTER(Context)]
        lib.RimeFreeContext.argtypes = [ctypes.POINTER(Context)]
        lib.RimeGetCommit.argtypes = [SessionId, ctypes.POINTER(Commit)]
        lib.RimeFreeCommit.argtypes = [ctypes.POINTER(Commit)]
        lib.RimeClearComposition.argtypes = [SessionId]
        lib.RimeDestroySession.argtypes = [SessionId]
        self._keep = traits = _sized(Traits)  # librime keeps pointers into it
        self._dirs = [str(user_dir).encode(), str(shared_dir).encode(),
                      str(prebuilt_dir or user_dir / "build").encode()]
        traits.user_data_dir, traits.shared_data_dir, traits.prebuilt_data_dir = self._dirs
        traits.staging_dir = str(user_dir / "build").encode()
        traits.app_name = b"rime.wubitok-test"
        traits.min_log_level = 3  # fatal only
        lib.RimeSetup(ctypes.byref(traits))
        lib.RimeInitialize(ctypes.byref(traits))
        self.session = lib.RimeCreateSession()
        if not self.session:
            raise RuntimeError("librime made no session")

    def select_schema(self, schema_id: str) -> bool:
        return bool(self.lib.RimeSelectSchema(self.session, schema_id.encode()))

    def keys(self, sequence: str) -> None:
        """Keys in librime's notation: letters, {space}, {Return}, {Escape}..."""
        if not self.lib.RimeSimulateKeySequence(self.session, sequence.encode()):
            raise RuntimeError(f"librime did not take {sequence!r}")

    def candidates(self) -> list[str]:
        return self.menu()[0]

    def menu(self) -> tuple[list[str], bool]:
        """(the candidates of the page shown, whether it is the last page)."""
        ctx = _sized(Context)
        if not self.lib.RimeGetContext(self.session, ctypes.byref(ctx)):
            return [], True
        try:
            texts = [ctx.menu.candidates[i].text.decode() for i in range(ctx.menu.num_candidates)]
            return texts, bool(ctx.menu.is_last_page)
        finally:
            self.lib.RimeFreeContext(ctypes.byref(ctx))

    def commit(self) -> str:
        c = _sized(Commit)
        if not self.lib.RimeGetCommit(self.session, ctypes.byref(c)):
            return ""
        try:
            return c.text.decode()
        finally:
            self.lib.RimeFreeCommit(ctypes.byref(c))

    def clear(self) -> None:
        self.lib.RimeClearComposition(self.session)
        self.commit()

    def close(self) -> None:
        self.lib.RimeDestroySession(self.session)
        self.lib.RimeFinalize()
