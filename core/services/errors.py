"""Errors a use case raises. Each carries a Portuguese `message` safe to show the person who
asked; the faces (bot, panel) show it as it is and never a stack trace.

May import: core's pure rules and core.storage.errors; no other service."""
from __future__ import annotations

from core.lifecycle import TransitionRefused
from core.parsing import ParseError
from core.storage.errors import StorageUnavailable


class ServiceError(Exception):
    """`field`: the input the message is about (a form shows it beside that field), if one."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class NotFound(ServiceError):
    """Nothing matches; the message never says whether something else exists."""


class Forbidden(ServiceError):
    """The person may not do this (role, agency, ownership)."""


class InvalidInput(ServiceError):
    """The data is refused before anything is written."""


#: Everything a face should answer with `exc.message` instead of a generic apology (a
#: ParseError is typed input a face read with core.parsing and could not take).
USER_ERRORS = (ServiceError, ParseError, TransitionRefused, StorageUnavailable)
