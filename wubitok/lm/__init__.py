"""Does a tokenizer help a language model?  Train one small model per tokenizer and measure.

nanoGPT-style and short: ``model`` (the transformer), ``data`` (ids with
the characters each covers, and how a token's NLL is shared among them),
``chars`` (the character-level baseline), ``train`` (the loop and the
strided scoring), ``stats`` (mean and 95% interval over seeds),
``experiment`` (:func:`evaluate_tokenizers`, what is held equal).
PyTorch is the ``lm`` extra (``backend``); nothing here imports it until a
model is built, so this package loads without it.  No Qt: the CLI and the
app call it through ``wubitok.services.lm_eval``.
"""
