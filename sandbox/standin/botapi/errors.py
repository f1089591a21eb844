"""Bot API error answers: {"ok": false, "error_code": ..., "description": ...}."""
from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A Bot API error answered as {"ok": false, "error_code": ..., "description": ...}."""

    def __init__(self, error_code: int, description: str, retry_after: int | None = None):
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.retry_after = retry_after

    def body(self) -> dict:
        body: dict[str, Any] = {
            "ok": False, "error_code": self.error_code, "description": self.description,
        }
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


def bad(description: str) -> ApiError:
    """Telegram's 400: "Bad Request: <description>"."""
    return ApiError(400, f"Bad Request: {description}")


def not_found() -> ApiError:
    """What Telegram answers for a method it does not know: 404 "Not Found"."""
    return ApiError(404, "Not Found")
