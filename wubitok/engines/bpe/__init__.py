"""Byte-pair encoding: the shared trainer and encoder, and the two BPE engines.

``trainer`` learns merges from pre-token counts, ``encoder`` applies them,
``byte_level`` is GPT-style byte-level BPE, ``wubi`` is Wubi-BPE, and ``fast``
learns the same merges with Hugging Face ``tokenizers``.
"""
