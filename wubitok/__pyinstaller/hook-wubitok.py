# PyInstaller hook: bundle wubitok's data where wubitok.paths looks first
# (wubitok/data, wubitok/resources), from a wheel install or a source checkout.
from wubitok.paths import dictionary_path, resources_dir

datas = [
    (str(dictionary_path()), "wubitok/data"),
    (str(resources_dir()), "wubitok/resources"),
]
# What the registries (wubitok.registry) name is imported by name at run time.
from wubitok.cli import COMMANDS  # noqa: E402
from wubitok.engines import ENGINES  # noqa: E402
from wubitok.exports import EXPORTS  # noqa: E402
from wubitok.registry import modules  # noqa: E402
from wubitok.services.earlyinit import PANES  # noqa: E402

hiddenimports = modules(COMMANDS) + modules(ENGINES) + modules(EXPORTS) + modules(PANES)
