"""The one error of reading typed input (core.parsing, core.identifiers): its own module so
that both can raise it without importing each other."""
from __future__ import annotations


class ParseError(ValueError):
    """Typed text that is not a value of its kind; `message` is Portuguese, safe to show."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
