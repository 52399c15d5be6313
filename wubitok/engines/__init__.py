"""Tokenizer engines: Wubi-BPE and the classic ones it is compared with.

Layout: ``base`` (the contract and the model-file envelope), ``corpus`` (the
training text in blocks), ``backends`` (built-in trainer or the reference
library), ``pre_tokenizers/`` (how each engine cuts text before its model),
then one subpackage per model family: ``bpe/`` (the shared BPE trainer and
encoder, byte-level BPE, Wubi-BPE), ``wordpiece/``, ``unigram/``.

``ENGINES`` is the one list of engines (``wubitok.registry`` style): model
type -> its class.  ``load_tokenizer``, ``engine_class``, the CLI's ``-m``
choices and the public API (``wubitok.WubiBPE``...) all read it, so a new
engine is one line here.  Nothing is imported here: importing this package
is cheap, and loading one model imports only its engine.
"""

ENGINES: dict[str, str] = {
    "wubi-bpe": "wubitok.engines.bpe.wubi:WubiBPE",
    "bpe": "wubitok.engines.bpe.byte_level:ByteLevelBPE",
    "wordpiece": "wubitok.engines.wordpiece.model:WordPiece",
    "unigram": "wubitok.engines.unigram.model:Unigram",
}
