"""Intents → Telegram buttons. Core services say what a button does ({"intent": "task.accept",
"task": 42}, an outbox payload's button or an owner view's action); the bot alone knows the
callback_data format the router reads back ("task:accept:42", see bot/router.py and each
face's handlers). Telegram limits callback_data to 64 bytes."""
from __future__ import annotations

from dataclasses import asdict, is_dataclass
from typing import Any, Callable, Mapping

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

MAX_CALLBACK_BYTES = 64

#: The owner's "situation" toggles: the ReleaseSituation field (core) ↔ the short code in
#: "owner:sit:<code>:<case code>" (Dores Art. 3º, §3º, I and III, a–b).
SITUATION_CODES = {"by_attorney": "attorney", "sale_communicated": "sold",
                   "unrecoverable": "unrecoverable"}
SITUATION_FLAGS = {code: flag for flag, code in SITUATION_CODES.items()}

_FORMATS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "task.accept": lambda b: f"task:accept:{b['task']}",
    "task.refuse": lambda b: f"task:refuse:{b['task']}",
    "task.open": lambda b: f"task:open:{b['task']}",
    "case.open": lambda b: f"case:open:{b['case']}",
    "notice.photo": lambda b: f"insp:photo:{b['case']}:{b['step']}",
    "case.unsubscribe": lambda b: f"unsub:{b['case']}",
    "owner.view": lambda b: f"owner:view:{b['case']}",
    "owner.removed": lambda b: f"owner:removed:{b['case']}",
    "owner.will_remove": lambda b: f"owner:will_remove:{b['case']}",
    "owner.situation": lambda b: f"owner:sit:{SITUATION_CODES[b['flag']]}:{b['case']}",
    "owner.appeal": lambda b: f"owner:appeal:{b['case']}",
    "owner.pdf": lambda b: f"owner:pdf:{b['case']}",
    "owner.withdraw": lambda b: f"owner:undo:{b['case']}",
    # the reporter asked after the closing (core.services.citizens.followup; bot/citizen/followup.py)
    "followup.gone": lambda b: f"fup:gone:{b['case']}",
    "followup.there": lambda b: f"fup:there:{b['case']}",
    "followup.no_photo": lambda b: f"fup:nophoto:{b['case']}",
    "followup.done": lambda b: f"fup:done:{b['case']}",
}


def _fields(button: Any) -> Mapping[str, Any]:
    return asdict(button) if is_dataclass(button) else button


def callback_data(button: Any) -> str:
    """The callback_data for an intent (a payload's button dict or a core action dataclass).
    A payload queued before intents existed may still carry its callback_data: kept as is."""
    b = _fields(button)
    if b.get("callback_data"):
        return b["callback_data"]
    data = _FORMATS[b["intent"]](b)
    if len(data.encode()) > MAX_CALLBACK_BYTES:
        raise ValueError(f"callback_data over {MAX_CALLBACK_BYTES} bytes: {data!r}")
    return data


def button(b: Any, text: str | None = None) -> InlineKeyboardButton:
    fields = _fields(b)
    label = text if text is not None else fields["text"]
    if fields.get("url"):
        return InlineKeyboardButton(label, url=fields["url"])
    return InlineKeyboardButton(label, callback_data=callback_data(fields))


def markup(rows: list[list[Any]] | None) -> InlineKeyboardMarkup | None:
    """An outbox payload's "buttons" (rows of intents) as an inline keyboard."""
    if not rows:
        return None
    return InlineKeyboardMarkup([[button(b) for b in row] for row in rows])
