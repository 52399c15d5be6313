# PyInstaller hook: bundle wubitok's data where wubitok.paths looks first
# (wubitok/data, wubitok/resources), from a wheel install or a source checkout.
from wubitok.paths import dictionary_path, resources_dir

datas = [
    (str(dictionary_path()), "wubitok/data"),
    (str(resources_dir()), "wubitok/resources"),
]
# Engines and CLI commands are imported by name at run time.
hiddenimports = [
    "wubitok.cli." + name for name in __import__("wubitok.cli", fromlist=["COMMAND_MODULES"]).COMMAND_MODULES
] + [
    "wubitok.engines." + name for name in __import__("wubitok.engines", fromlist=["ENGINE_MODULES"]).ENGINE_MODULES
]
