"""Package data: the Lark grammar of the mjrules spec language."""
