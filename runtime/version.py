"""The package's version, in a module of its own: the native cache keys on it, and that code must not import
the package itself (mjrules imports the engines that import it)."""

__version__ = "0.1.0"
