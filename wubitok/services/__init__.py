"""Qt-free services both front ends use: training runs, encode pools, model files, app options.

They sit above every library layer (engines, compare, scale, exports, ime) and below the
front ends (cli, gui, platform), which are thin clients of them.
"""
