"""The spec language's size limits, in one place (docs/limits.md lists them with their error codes).

They bound what a spec that passes `mjrules check` may ask of the back ends: every such spec builds (the
generated Cython nests no deeper than these allow) and runs (the reference interpreter recurses no deeper).
The range of values is mjrules.model.arith.MAX_VALUE.
"""
from __future__ import annotations

MAX_SPEC_CHARS = 1_000_000  # E002: characters in one spec file
MAX_TOKENS = 200_000        # E002: tokens (words, numbers, operators) in one spec file
MAX_NESTING = 40            # E036: brackets and blocks open at once: ( [ {
MAX_EXPR_DEPTH = 120        # E036: levels of one expression, with the defines it uses expanded (a sum or a
                            # product of n terms counts n levels: it is evaluated as n nested operations)
MAX_TERMS = 1_000           # E037: terms of one `and` or `or`, values of one `in (...)`, arguments of one call
MAX_ITEMS = 1_000           # E040: options, patterns, modifiers, events, statuses, tables, defines (each), rows of
                            # one table (the code generator's work grows with patterns times modifiers)
MAX_NUMBER_DIGITS = 301     # E039: digits of a number's whole part (the range of values is +-10^300)
