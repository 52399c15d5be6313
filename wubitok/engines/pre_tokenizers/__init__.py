"""How each engine cuts text into pre-tokens before its model sees it.

``gpt4`` (byte-level BPE), ``wubi`` (Wubi-BPE), ``bert`` (WordPiece), ``metaspace``
(Unigram), and ``special``: special tokens written in the text, which no engine splits.
"""
