"""Graph API error answers: {"error": {"message", "type", "code", "error_subcode",
"error_data", "fbtrace_id"}}, with the Cloud API's codes.

Meta asks apps to branch on ``code`` and ``error_data.details`` only; the subcodes here are the
stand-in's own and no face should read them."""
from __future__ import annotations

import secrets
from typing import Any

# code -> (HTTP status, title as Graph puts it in the message)
CODES: dict[int, tuple[int, str]] = {
    100: (400, "Invalid parameter"),
    104: (401, "An access token is required to request this resource."),
    190: (401, "Invalid OAuth access token - Cannot parse access token"),
    130429: (400, "Rate limit hit"),
    131000: (500, "Something went wrong"),
    131008: (400, "Required parameter is missing"),
    131009: (400, "Parameter value is not valid"),
    131047: (400, "Re-engagement message"),
    131026: (400, "Message undeliverable"),
    131051: (400, "Unsupported message type"),
    131053: (400, "Media upload error"),
    131056: (400, "(Business Account, Consumer Account) pair rate limit hit"),
    132000: (400, "Number of parameters does not match the expected number of params"),
    132001: (404, "Template name does not exist in the translation"),
    133010: (400, "Phone number Not Registered"),
}
_SUBCODES = {100: 2494010, 131008: 2494011, 131009: 2494012, 190: 2494013}


class GraphError(Exception):
    def __init__(self, code: int, details: str | None = None, *, status: int | None = None,
                 message: str | None = None, subcode: int | None = None) -> None:
        http, title = CODES.get(code, (400, "Error"))
        self.code, self.details, self.subcode = code, details, subcode
        self.status = status or http
        self.message = message or f"(#{code}) {title}"
        super().__init__(self.message)

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {
            "message": self.message,
            "type": "OAuthException",
            "code": self.code,
            "error_subcode": self.subcode or _SUBCODES.get(self.code, 2494000 + self.code % 1000),
            "fbtrace_id": "A" + secrets.token_urlsafe(16),
        }
        if self.details is not None:
            error["error_data"] = {"messaging_product": "whatsapp", "details": self.details}
        return {"error": error}

    def as_status_error(self) -> dict[str, Any]:
        """The same error as a status webhook's ``errors`` item."""
        http, title = CODES.get(self.code, (400, "Error"))
        return {"code": self.code, "title": title, "message": title,
                "error_data": {"details": self.details or title}}


def invalid(details: str) -> GraphError:
    return GraphError(131009, details)


def unauthorized() -> GraphError:
    return GraphError(190, status=401, message="Invalid OAuth access token - Cannot parse "
                      "access token")
