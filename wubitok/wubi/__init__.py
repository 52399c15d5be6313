"""The Wubi-86 layer: the bundled dictionary, the Wubi-BPE codec, conversion and queries.

Everything here is Qt-free and sits on the ground floor (errors, paths, fileio) and on
:mod:`wubitok.text`; engines, the input method and the front ends build on it.
"""
