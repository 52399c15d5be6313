"""The IBus engine: a thin adapter that hands keys to :class:`ImeEngine` and shows its state.

Every typing rule (codes, candidates, commits, punctuation, modes) is ImeEngine's;
this class only translates between IBus and it, the way the app's pad
(gui/panes/ime_pad/editor.py) translates Qt key events:

- key releases are ignored, except a Shift released with no key in between,
  which toggles Chinese/English as in the pad;
- keys with Ctrl, Alt or Super pass through untouched (Ctrl+C still copies),
  except Ctrl+Delete while composing, which forgets the highlighted choice;
- a key the engine leaves to the editor, or that would only type itself (a
  digit, a space or any key in English mode while nothing is being composed),
  returns False so the application handles it natively (key repeat, its own
  shortcuts);
- navigation keys are swallowed while composing, as in the pad, so the cursor
  cannot leave the pre-edit text;
- what a key learns is written to the user database after the key's signals have been
  sent, before the key is answered (:mod:`.learning`);
- keys (and resets, page turns, menu choices) that arrive while the process is still
  loading (:mod:`.loading`) are queued and answered as taken, then handled in order once
  it is done; a queued key the engine then leaves to the application is forwarded to it
  (``forward_key_event``), so no key is lost and none reaches the application early;
- the pre-edit is the code being typed, underlined, and it is dropped (never
  committed) when focus leaves or the client resets;
- the lookup table holds the engine's current page, labelled 1..N, each
  candidate followed by its hint (the keys still to type, or the whole Wubi
  code in wildcard and pinyin lookups) in grey;
- properties: the three modes as toggles, then the typist's settings
  (:mod:`.settings`: charset, output script, 顶字, auto-commit, empty code, page
  size, learning), written to the settings store the pad uses and read again
  from it on focus-in.
"""
from __future__ import annotations

import dataclasses
import sys
from contextlib import AbstractContextManager, nullcontext
from typing import Any, NamedTuple

from ...errors import WubitokError
from ...ime import ImeEngine, ImeOptions, ImeState
from ...ime.options import missing_part
from .gi_loader import load_ibus
from .learning import EngineUserDatabase
from .loading import Loading
from .settings import SETTINGS, Choice, SavedOptions, Switch, parse_key

IBus, GLib = load_ibus()

_NAMED = {
    IBus.KEY_space: "space", IBus.KEY_KP_Space: "space",
    IBus.KEY_Return: "enter", IBus.KEY_KP_Enter: "enter",
    IBus.KEY_BackSpace: "backspace", IBus.KEY_Escape: "escape",
    IBus.KEY_Page_Up: "pageup", IBus.KEY_KP_Page_Up: "pageup",
    IBus.KEY_Page_Down: "pagedown", IBus.KEY_KP_Page_Down: "pagedown",
}
# What a named key types by itself when the engine gives it back unchanged.
_OWN_TEXT = {"space": " "}
_NAVIGATION = {
    IBus.KEY_Left, IBus.KEY_Right, IBus.KEY_Up, IBus.KEY_Down, IBus.KEY_Home, IBus.KEY_End,
    IBus.KEY_KP_Left, IBus.KEY_KP_Right, IBus.KEY_KP_Up, IBus.KEY_KP_Down, IBus.KEY_KP_Home, IBus.KEY_KP_End,
    IBus.KEY_Tab, IBus.KEY_ISO_Left_Tab, IBus.KEY_Delete, IBus.KEY_KP_Delete,
}
_SHIFTS = {IBus.KEY_Shift_L, IBus.KEY_Shift_R}
_FORGET = {IBus.KEY_Delete, IBus.KEY_KP_Delete}  # with Ctrl, while composing: forget the highlighted choice
_M = IBus.ModifierType
_PASS_THROUGH = (_M.CONTROL_MASK | _M.MOD1_MASK | _M.SUPER_MASK | _M.MOD4_MASK | _M.HYPER_MASK | _M.META_MASK)
_HINT_COLOUR = 0x808080


class Toggle(NamedTuple):
    """A mode of the engine shown as an IBus property (panel menu) and switched by one engine key."""

    name: str  # the IBus property key: the ImeState field it shows
    key: str  # the ImeEngine key that toggles it
    on: str  # label when the state attribute is true
    off: str
    tooltip: str

    def active(self, state: Any) -> bool:  # an ImeState, or _Modes before the engine is loaded
        return bool(getattr(state, self.name))


class _Modes(NamedTuple):
    """The modes a new ImeEngine starts in, shown until it is loaded."""

    chinese: bool = True
    full_width: bool = False
    chinese_punctuation: bool = True


TOGGLES = (
    Toggle("chinese", "shift", "中文", "English", "Chinese / English (Shift)"),
    Toggle("full_width", "fullwidth", "全角", "半角", "Full-width / half-width letters and digits"),
    Toggle("chinese_punctuation", "punctuation", "中文标点", "English punctuation", "Chinese / English punctuation"),
)


class WubiEngine(IBus.Engine):  # type: ignore[name-defined]
    """One engine per input context; all share the process's dictionary index and user database."""

    __gtype_name__ = "WubitokWubiEngine"

    def __init__(self, loading: Loading, saved: SavedOptions, **properties: Any):
        super().__init__(**properties)  # engine_name, object_path, connection
        self._loading = loading
        self._session: ImeEngine | None = None  # once the process has loaded
        self._queue: list[tuple[Any, ...]] = []  # what came before: (handler, *arguments)
        self._destroyed = False
        self._telling = False  # a notice is shown in the auxiliary text (until the next key)
        self._forwarded_presses: set[int] = set()  # queued presses given back to the application
        self._saved = saved
        options = saved.current()
        self._shift_alone = False
        # What the client was last sent (None: nothing yet), so that a key sends only changes.
        self._shown_preedit: str | None = None
        self._shown_rows: tuple[str, ...] | None = None
        self._shown_modes: tuple[bool, bool, bool] | None = None
        # The cursor stays on the first candidate: the one Space commits and Ctrl+Delete forgets.
        self._table = IBus.LookupTable.new(options.page_size, 0, True, False)
        self._table.set_orientation(IBus.Orientation.HORIZONTAL)
        self._labels = 0  # how many labels the table holds
        self._props = IBus.PropList()
        self._prop: dict[str, Any] = {}
        for toggle in TOGGLES:
            prop = IBus.Property(key=toggle.name, prop_type=IBus.PropType.TOGGLE,
                                 tooltip=IBus.Text.new_from_string(toggle.tooltip), sensitive=True, visible=True)
            self._props.append(prop)
            self._prop[toggle.name] = prop
        for setting in SETTINGS:
            self._props.append(self._setting_property(setting))
        self._sync_properties(_Modes(), notify=False)
        self._sync_settings(options)
        loading.when_ready(self._loaded)

    def _loaded(self) -> None:
        """The process is ready: a typing session for this context, then what was queued."""
        if self._destroyed:
            return
        if self._loading.failed:  # nothing can type: what was queued is the application's
            for handler, *args in self._queue:
                if handler == self._key_event:
                    self.forward_key_event(*args)
            self._queue.clear()
            return
        self._session = self._loading.new_ime()
        self._sync_settings(self._session.options)
        self.register_properties(self._props)
        queue, self._queue = self._queue, []
        for handler, *args in queue:
            handler(*args)
        self._tell(self._loading.take_notices() + self._session.take_notices())

    def _later(self, handler: Any, *args: Any) -> bool:
        """Queue a request that came before the engine was loaded; True if it was queued."""
        if self._session is not None:
            return False
        if not self._loading.failed:
            self._queue.append((handler, *args))
        return True

    def _tell(self, notices: list[str]) -> None:
        """Tell the typist (a setting that cannot be in force and what it needs): in the
        candidate window's auxiliary text until the next key, and on the log (the daemon's
        stderr, kept only when it runs with --verbose).  ImeEngine gives each once per process."""
        if not notices:
            return
        for notice in notices:
            print(f"wubitok ibus engine: {notice}", file=sys.stderr)
        self.update_auxiliary_text(IBus.Text.new_from_string("; ".join(notices)), True)
        self._telling = True

    @property
    def _ime(self) -> ImeEngine:
        assert self._session is not None, "the engine is used before it is loaded"
        return self._session

    def do_destroy(self) -> None:
        self._destroyed = True
        self._queue.clear()
        IBus.Engine.do_destroy(self)

    def _setting_property(self, setting: Switch | Choice) -> Any:
        if isinstance(setting, Switch):
            prop = IBus.Property(key=setting.name, prop_type=IBus.PropType.TOGGLE,
                                 label=IBus.Text.new_from_string(setting.label), sensitive=True, visible=True)
            self._prop[setting.name] = prop
            return prop
        items = IBus.PropList()
        for value, label in setting.values:
            key = setting.key(value)
            # A choice whose part is not installed is shown greyed, with what it needs.
            needs = missing_part(setting.name, value)
            item = IBus.Property(key=key, prop_type=IBus.PropType.RADIO,
                                 label=IBus.Text.new_from_string(label if needs is None else f"{label} ({needs})"),
                                 tooltip=IBus.Text.new_from_string(f"needs {needs}" if needs else ""),
                                 sensitive=needs is None, visible=True)
            items.append(item)
            self._prop[key] = item
        menu = IBus.Property(key=setting.name, prop_type=IBus.PropType.MENU, sensitive=True, visible=True,
                             label=IBus.Text.new_from_string(setting.name), sub_props=items)
        self._prop[setting.name] = menu
        return menu

    # -- keys ----------------------------------------------------------------
    def _learning_held(self) -> AbstractContextManager[None]:
        """The user database's writes held until what the key changed has been sent (:mod:`.learning`)."""
        db = self._ime.user_db
        return db.held() if isinstance(db, EngineUserDatabase) else nullcontext()

    def do_process_key_event(self, keyval: int, keycode: int, state: int) -> bool:
        if self._session is None:
            if self._loading.failed:
                return False
            self._queue.append((self._key_event, keyval, keycode, state))
            return True  # answered now, handled once loaded
        if self._telling and not state & _M.RELEASE_MASK:
            self.hide_auxiliary_text()  # the notice has been seen: the typist types on
            self._telling = False
        with self._learning_held():
            return self._process_key(keyval, state)

    def _key_event(self, keyval: int, keycode: int, state: int) -> None:
        """A queued key: handled now, or forwarded to the application if the engine leaves it
        (a release only when its press was: the application saw neither)."""
        handled = self.do_process_key_event(keyval, keycode, state)
        if state & _M.RELEASE_MASK:
            if keyval in self._forwarded_presses:
                self._forwarded_presses.discard(keyval)
                self.forward_key_event(keyval, keycode, state)
        elif not handled:
            self._forwarded_presses.add(keyval)
            self.forward_key_event(keyval, keycode, state)

    def _process_key(self, keyval: int, state: int) -> bool:
        if state & _M.RELEASE_MASK:
            if keyval in _SHIFTS and self._shift_alone:
                self._shift_alone = False
                return self._feed("shift")
            return False
        if keyval in _SHIFTS:
            self._shift_alone = True
            return False
        self._shift_alone = False
        if state & _PASS_THROUGH:
            if keyval in _FORGET and state & _M.CONTROL_MASK and self._ime.composing:
                return self._forget_first()
            return False
        name = _NAMED.get(keyval)
        if name is None:
            char = IBus.keyval_to_unicode(keyval)  # "" when the key has no character
            if len(char) == 1 and " " < char < "\x7f":  # the keys of an ASCII keyboard
                name = char
        if name is None:
            return self._ime.composing and keyval in _NAVIGATION
        return self._feed(name)

    def _feed(self, key: str) -> bool:
        """Give ``key`` to the engine and show the result; False: the application's key."""
        composing = self._ime.composing
        result = self._ime.process(key)
        if not result.handled and not result.committed:
            return False
        if not composing and not self._ime.composing and result.committed == _OWN_TEXT.get(key, key):
            return False  # the key types itself: let the application do it
        self._commit(result.committed)
        return True

    def _forget_first(self) -> bool:
        """Ctrl+Delete, as in the pad: forget what was learned about the highlighted (first)
        candidate; the table's own entries stay."""
        if self._ime.state.candidates:
            try:
                self._ime.forget(0)
            except WubitokError as exc:  # the user database went away: keep typing
                print(f"wubitok ibus engine: {exc}", file=sys.stderr)
        self._show(self._ime.state)
        return True

    def _commit(self, text: str) -> None:
        if text:
            self.commit_text(IBus.Text.new_from_string(text))
        self._show(self._ime.state)

    # -- what the client shows ---------------------------------------------------
    def _show(self, state: ImeState) -> None:
        """Send what changed since the last key (each update is a D-Bus signal through the
        daemon to the application, on the way of every key's round trip)."""
        if state.preedit != self._shown_preedit:
            preedit = IBus.Text.new_from_string(state.preedit)
            if state.preedit:
                preedit.append_attribute(IBus.AttrType.UNDERLINE, IBus.AttrUnderline.SINGLE, 0, len(state.preedit))
            self.update_preedit_text_with_mode(preedit, len(state.preedit), state.composing,
                                               IBus.PreeditFocusMode.CLEAR)
            self._shown_preedit = state.preedit
        rows = tuple(f"{c.text} {c.hint}" if c.hint else c.text for c in state.candidates)
        if rows != self._shown_rows:
            if rows:
                self._fill_table(state)
                self.update_lookup_table(self._table, True)
            else:
                self.hide_lookup_table()
            self._shown_rows = rows
        if (state.chinese, state.full_width, state.chinese_punctuation) != self._shown_modes:
            self._sync_properties(state, notify=True)

    def _fill_table(self, state: ImeState) -> None:
        table = self._table
        table.clear()
        table.set_page_size(max(1, len(state.candidates)))
        for cand in state.candidates:
            shown = f"{cand.text} {cand.hint}" if cand.hint else cand.text
            text = IBus.Text.new_from_string(shown)
            if cand.hint:
                start = len(cand.text) + 1
                text.append_attribute(IBus.AttrType.FOREGROUND, _HINT_COLOUR, start, start + len(cand.hint))
            table.append_candidate(text)
        # clear() keeps the labels (all of them are sent with every table): add only new ones.
        for i in range(self._labels, len(state.candidates)):
            table.set_label(i, IBus.Text.new_from_string(f"{i + 1}"))
        self._labels = max(self._labels, len(state.candidates))

    def _sync_properties(self, state: ImeState | _Modes, *, notify: bool) -> None:
        self._shown_modes = (state.chinese, state.full_width, state.chinese_punctuation)
        for toggle in TOGGLES:
            prop = self._prop[toggle.name]
            on = toggle.active(state)
            wanted = IBus.PropState.CHECKED if on else IBus.PropState.UNCHECKED
            label = toggle.on if on else toggle.off
            if prop.get_state() == wanted and prop.get_label() and prop.get_label().get_text() == label:
                continue
            prop.set_state(wanted)
            prop.set_label(IBus.Text.new_from_string(label))
            prop.set_symbol(IBus.Text.new_from_string(label[:1]))
            if notify:
                self.update_property(prop)

    def _sync_settings(self, options: ImeOptions) -> None:
        """Show ``options`` (those in force) in the settings' properties (registered again by the caller)."""
        for setting in SETTINGS:
            value = getattr(options, setting.name)
            if isinstance(setting, Switch):
                self._prop[setting.name].set_state(_checked(value))
                continue
            self._prop[setting.name].set_label(IBus.Text.new_from_string(setting.label.format(setting.label_of(value))))
            for v, _ in setting.values:
                self._prop[setting.key(v)].set_state(_checked(v == value))

    def _configure(self, options: ImeOptions) -> None:
        """Put ``options`` in force in this engine (what differs from the current ones)."""
        current = self._ime.options
        changes = {f.name: getattr(options, f.name) for f in dataclasses.fields(ImeOptions)
                   if getattr(options, f.name) != getattr(current, f.name)}
        if not changes:
            return
        try:
            self._ime.configure(**changes)
        except WubitokError as exc:  # learning on, but the user database cannot be opened
            print(f"wubitok ibus engine: {exc}", file=sys.stderr)
            changes.pop("learning", None)
            self._ime.configure(**changes)
        self._tell(self._ime.take_notices())
        self._sync_settings(self._ime.options)

    # -- the client's other requests ---------------------------------------------
    def do_focus_in(self) -> None:
        self._shown_preedit = self._shown_rows = None  # the client may have dropped them: send afresh
        # The pad, `wubitok settings` or another engine process may have changed the settings
        # (before the engine is loaded, it reads them as it loads).
        if self._session is not None:
            self._configure(self._saved.current())
        self.register_properties(self._props)

    def do_focus_out(self) -> None:
        self._drop_composition()

    def do_reset(self) -> None:
        self._drop_composition()

    def do_disable(self) -> None:
        self._drop_composition()

    def _drop_composition(self) -> None:
        if self._later(self._drop_composition):
            return
        self._shift_alone = False
        self._ime.reset()
        self._show(self._ime.state)

    def do_page_up(self) -> None:
        if not self._later(self._feed, "pageup"):
            self._feed("pageup")

    def do_page_down(self) -> None:
        if not self._later(self._feed, "pagedown"):
            self._feed("pagedown")

    def do_candidate_clicked(self, index: int, button: int, state: int) -> None:
        if self._session is not None and 0 <= index < len(self._ime.state.candidates):
            with self._learning_held():
                self._commit(self._ime.select(index))

    def do_property_activate(self, name: str, state: int) -> None:
        if self._later(self.do_property_activate, name, state):
            return
        setting = parse_key(name)
        if setting is not None:
            option, value = setting
            if value is None:  # a switch: the panel reports the state it wants
                value = state == IBus.PropState.CHECKED
            elif state != IBus.PropState.CHECKED:
                return  # the radio item being left; its neighbour's activation carries the choice
            self._change_setting(option, value)
            return
        for toggle in TOGGLES:
            if toggle.name == name:
                # The panel reports the state it wants; only a change is a toggle.
                change = (state == IBus.PropState.CHECKED) != toggle.active(self._ime.state)
                self._commit(self._ime.process(toggle.key).committed if change else "")

    def _change_setting(self, option: str, value: Any) -> None:
        self._drop_composition()
        if getattr(self._ime.options, option) == value:
            return
        needs = missing_part(option, value)
        if needs is not None:  # greyed in the menu; a panel that sends it anyway changes nothing
            self._tell([f"{option} {value} needs {needs}"])
            return
        try:
            options = self._saved.change(**{option: value})
        except WubitokError as exc:  # the settings folder is not writable: in force for this session
            print(f"wubitok ibus engine: {exc}", file=sys.stderr)
            options = dataclasses.replace(self._ime.options, **{option: value})
        self._configure(options)
        self.register_properties(self._props)


def _checked(on: bool) -> Any:
    return IBus.PropState.CHECKED if on else IBus.PropState.UNCHECKED
