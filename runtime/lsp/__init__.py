"""The language server for `.mj` specs (`mjrules lsp`): the checker's diagnostics as you type, completion, hover,
go to definition and document symbols.

The work is done by plain modules that know nothing of the protocol (`document` checks a text and indexes its
names with the compiler's own parser and checker; `cursor` says where in a clause a position is; `features`
answers the requests from those and from the vocabulary the reference docs are generated from); `server` wires
them to pygls (the `lsp` extra: `pip install 'mjrules[lsp]'`). `textmate` generates the editors' highlighting
grammar from the same vocabulary.
"""
