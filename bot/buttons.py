"""Intents → Telegram buttons, and the only writer of callback data. Core services say what a
button does ({"intent": "task.accept", "task": 42}, an outbox payload's button or an owner
view's action); the bot's own keyboards call the functions below (report, step_form, owner…).
Only this module knows the callback_data format the router reads back ("task:accept:42", see
bot/router.py and each face's handlers); tests/unit/test_bot_buttons.py fails if callback
data is written anywhere else in bot/. Telegram limits callback_data to 64 bytes."""
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

# -- the one writer of callback data: every button of the bot gets its data here -----------

def _data(*parts: object) -> str:
    data = ":".join(str(p) for p in parts)
    if len(data.encode()) > MAX_CALLBACK_BYTES:
        raise ValueError(f"callback_data over {MAX_CALLBACK_BYTES} bytes: {data!r}")
    return data


def task(action: str, task_id: int | str) -> str:
    """An inspector's task: accept, refuse or open it ("task:<action>:<task id>")."""
    return _data("task", action, task_id)


def case_open(protocol: str) -> str:
    """Open a case's card for its inspector ("case:open:<protocol>")."""
    return _data("case", "open", protocol)


def case_step(action: str, protocol: str, code: str) -> str:
    """On an inspector's case card: do a step, send the photo of a notice, issue a document
    again ("insp:<do|photo|again>:<protocol>:<step or document kind>")."""
    return _data("insp", action, protocol, code)


def step_form(draft_id: int | str, action: str, value: object | None = None) -> str:
    """A button of the inspector's step form ("insp:<draft id>:<action>[:<value>]")."""
    return _data("insp", draft_id, action, *(() if value is None else (value,)))


def report(draft_id: int | str, action: str, value: object | None = None) -> str:
    """A button of the citizen's report ("rep:<draft id>:<action>[:<value>]")."""
    return _data("rep", draft_id, action, *(() if value is None else (value,)))


def notifications(protocol: str, on: bool) -> str:
    """The citizen's switch for one case's notices ("notif:<on|off>:<protocol>")."""
    return _data("notif", "on" if on else "off", protocol)


def unsubscribe(protocol: str) -> str:
    return _data("unsub", protocol)


def my_data(action: str) -> str:
    """The citizen's erasure request (LGPD art. 18, VI): "lgpd:<ask|yes|no>"."""
    return _data("lgpd", action)


def followup(action: str, protocol: str) -> str:
    """The reporter's answer after the closing ("fup:<gone|there|nophoto|done>:<protocol>")."""
    return _data("fup", action, protocol)


def owner(action: str, *values: object) -> str:
    """A button of the owner's flow ("owner:<action>[:<value>…]", the case code last)."""
    return _data("owner", action, *values)


_FORMATS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "task.accept": lambda b: task("accept", b["task"]),
    "task.refuse": lambda b: task("refuse", b["task"]),
    "task.open": lambda b: task("open", b["task"]),
    "case.open": lambda b: case_open(b["case"]),
    "notice.photo": lambda b: case_step("photo", b["case"], b["step"]),
    "case.unsubscribe": lambda b: unsubscribe(b["case"]),
    "owner.view": lambda b: owner("view", b["case"]),
    "owner.removed": lambda b: owner("removed", b["case"]),
    "owner.will_remove": lambda b: owner("will_remove", b["case"]),
    "owner.situation": lambda b: owner("sit", SITUATION_CODES[b["flag"]], b["case"]),
    "owner.appeal": lambda b: owner("appeal", b["case"]),
    "owner.pdf": lambda b: owner("pdf", b["case"]),
    "owner.withdraw": lambda b: owner("undo", b["case"]),
    # the reporter asked after the closing (core.services.citizens.followup; bot/citizen/followup.py)
    "followup.gone": lambda b: followup("gone", b["case"]),
    "followup.there": lambda b: followup("there", b["case"]),
    "followup.no_photo": lambda b: followup("nophoto", b["case"]),
    "followup.done": lambda b: followup("done", b["case"]),
}


def _fields(button: Any) -> Mapping[str, Any]:
    return asdict(button) if is_dataclass(button) else button


def callback_data(button: Any) -> str:
    """The callback_data for an intent (a payload's button dict or a core action dataclass).
    A payload queued before intents existed may still carry its callback_data: kept as is."""
    b = _fields(button)
    if b.get("callback_data"):
        return b["callback_data"]
    return _FORMATS[b["intent"]](b)


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
