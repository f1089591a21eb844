"""The storage's one error a person may see, importable without loading a database driver
(core.services.errors lists it among the errors a face answers with their message)."""
from __future__ import annotations

UNAVAILABLE_MESSAGE = "O sistema está temporariamente indisponível. Tente novamente em instantes."


class StorageUnavailable(Exception):
    """The database is busy or unreachable; the operation may be retried. `message` is
    Portuguese and safe to show to the person who asked."""

    def __init__(self, detail: str = ""):
        super().__init__(UNAVAILABLE_MESSAGE)
        self.message = UNAVAILABLE_MESSAGE
        self.detail = detail
