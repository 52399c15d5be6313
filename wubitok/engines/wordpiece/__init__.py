"""WordPiece (BERT): ``model`` (the engine), ``trainer``, ``fast`` (HF ``tokenizers``).
"""
