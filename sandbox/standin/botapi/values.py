"""The stand-in's value types: what a test injects (User) and reads back (Call, BotMessage,
Button), and the records it keeps (uploaded and stored files, webhook deliveries, faults)."""
from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from sandbox.standin.botapi.errors import ApiError
from sandbox.standin.botapi.formatting import render

@dataclass(frozen=True)
class User:
    """A Telegram user in a private chat with the bot (chat id == user id)."""

    id: int
    first_name: str = "Maria"
    username: str | None = None
    language_code: str | None = "pt-br"
    last_name: str | None = None

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        return d

    def chat(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "type": "private", "first_name": self.first_name}
        for key in ("last_name", "username"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        return d


@dataclass(frozen=True)
class Button:
    """One keyboard button as the user sees it."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    request_location: bool = False
    request_contact: bool = False


def parse_keyboard(reply_markup: dict | None) -> tuple[str | None, list[list[Button]]]:
    """(kind, rows): kind is "inline", "reply", "remove", "force_reply" or None."""
    if not reply_markup:
        return None, []
    if "inline_keyboard" in reply_markup:
        kind, rows = "inline", reply_markup["inline_keyboard"]
    elif "keyboard" in reply_markup:
        kind, rows = "reply", reply_markup["keyboard"]
    elif reply_markup.get("remove_keyboard"):
        return "remove", []
    elif reply_markup.get("force_reply"):
        return "force_reply", []
    else:
        return None, []
    parsed = []
    for row in rows:
        out = []
        for b in row:
            if isinstance(b, str):
                b = {"text": b}
            out.append(
                Button(
                    text=b.get("text", ""),
                    callback_data=b.get("callback_data"),
                    url=b.get("url"),
                    request_location=bool(b.get("request_location")),
                    request_contact=bool(b.get("request_contact")),
                )
            )
        parsed.append(out)
    return kind, parsed


@dataclass
class UploadedFile:
    """A multipart file part the bot uploaded."""

    field: str
    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class Call:
    """One Bot API request as the stand-in received it, and its answer."""

    method: str
    params: dict[str, Any]
    files: dict[str, UploadedFile]
    time: float
    ok: bool = True
    result: Any = None
    error_code: int | None = None
    description: str | None = None
    via_webhook_reply: bool = False
    finished: bool = False

    @property
    def chat_id(self) -> Any:
        return chat_id_of(self.params.get("chat_id"))  # a refused call's params stay as sent

    @property
    def text(self) -> str | None:
        """Plain text (or caption) as the user sees it (HTML tags stripped)."""
        raw = self.params.get("text", self.params.get("caption"))
        if raw is None:
            return None
        try:
            return render(str(raw), self.params.get("parse_mode"))
        except ApiError:
            return str(raw)

    @property
    def reply_markup(self) -> dict | None:
        return self.params.get("reply_markup")

    @property
    def keyboard(self) -> str | None:
        return parse_keyboard(self.reply_markup)[0]

    @property
    def buttons(self) -> list[list[Button]]:
        return parse_keyboard(self.reply_markup)[1]

    @property
    def message_id(self) -> int | None:
        if isinstance(self.result, dict):
            return self.result.get("message_id")
        return self.params.get("message_id")

    def file(self, name: str) -> bytes | None:
        """Bytes of an uploaded multipart part (e.g. "photo", "document", "file0")."""
        f = self.files.get(name)
        return f.data if f else None


@dataclass
class BotMessage:
    """A message the bot sent, in its current state (edits applied)."""

    chat_id: int
    message_id: int
    method: str
    raw: dict
    reply_markup: dict | None
    deleted: bool = False
    edits: int = 0

    @property
    def text(self) -> str | None:
        return self.raw.get("text", self.raw.get("caption"))

    @property
    def caption(self) -> str | None:
        return self.raw.get("caption")

    @property
    def keyboard(self) -> str | None:
        return parse_keyboard(self.reply_markup)[0]

    @property
    def buttons(self) -> list[list[Button]]:
        return parse_keyboard(self.reply_markup)[1]

    def flat_buttons(self) -> list[Button]:
        return [b for row in self.buttons for b in row]

    def button(self, text_contains: str) -> Button:
        for b in self.flat_buttons():
            if text_contains in b.text:
                return b
        raise LookupError(f"no button containing {text_contains!r} in {self.flat_buttons()}")


@dataclass
class StoredFile:
    file_id: str
    file_unique_id: str
    data: bytes
    file_path: str
    mime_type: str | None = None
    file_name: str | None = None
    source_url: str | None = None


@dataclass
class WebhookDelivery:
    update_id: int
    status: int | None
    error: str | None
    time: float


@dataclass
class Pending:
    update: dict
    delivered: bool = False

    @property
    def update_id(self) -> int:
        return self.update["update_id"]


@dataclass
class Fault:
    error_code: int | None
    description: str | None
    retry_after: int | None
    delay: float


@dataclass
class RateRule:
    max_calls: int
    per_seconds: float
    methods: frozenset[str]
    per_chat: bool
    retry_after: int | None
    history: dict[Any, deque] = field(default_factory=dict)



def chat_id_of(value: Any) -> Any:
    """A chat id as Telegram compares it: a User's id, an int when it is one, else the string."""
    if isinstance(value, User):
        return value.id
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def commands_key(scope: dict | None, language_code: str) -> tuple[str, str]:
    """setMyCommands' storage key: the scope (default when absent) and the language."""
    return json.dumps(scope or {"type": "default"}, sort_keys=True), language_code
