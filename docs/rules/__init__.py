"""The rule books of the variants written for mjrules (package data: the *.md files)."""
