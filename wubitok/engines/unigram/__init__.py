"""Unigram language model (SentencePiece): ``model`` (the engine), ``trainer``,
``lattice`` (Viterbi, n-best, sampling), ``fast`` (``sentencepiece``).
"""
