"""A question of the conversation (core.services.citizens.conversation.prompts.Prompt) as
WhatsApp messages, degrading by what the platform allows (Meta's Cloud API limits, the
shared notes): up to 3 choices whose words fit a button's 20 characters → reply buttons; up
to 10 → a list (a row's title ≤ 24, the rest of a long label as its description ≤ 72);
more, or labels that do not fit even so → numbered lines of text, read back by number or by
the choice's words (prompts.chosen). A location asked for → the location request message.

Each choice's reply id carries the question's key (the draft and the question's number,
core.services.citizens.conversation.steps), so an answer to an earlier question is stale
(`parse_reply`). A body longer than an interactive message takes goes first as a text of its
own."""
from __future__ import annotations

from typing import Any

from core.services.citizens.conversation.prompts import Choice, Prompt, numbered

BUTTONS_MAX, BUTTON_TITLE = 3, 20
ROWS_MAX, ROW_TITLE, ROW_DESCRIPTION = 10, 24, 72
BODY_MAX, TEXT_MAX, ID_MAX = 1024, 4096, 200  # a list row's id takes 200; a button's 256
LIST_BUTTON = "Ver opções"  # the list's button (≤ 20 characters)
CHOOSE = "Escolha uma opção:"  # the body under a long text sent before its choices


def reply_id(key: str, choice: Choice) -> str:
    """"<key>:<action>[:<value>]": what the person's tap answers."""
    return ":".join([key, choice.action] + ([choice.value] if choice.value is not None else []))


def parse_reply(key: str, reply: str) -> tuple[str, str] | None:
    """The (action, value) of a reply id for the question `key` shows now; None when the id
    belongs to another question (stale) or is not one of ours."""
    parts = reply.split(":", 2)
    if len(parts) < 2 or parts[0] != key or not parts[1]:
        return None
    return parts[1], parts[2] if len(parts) == 3 else ""


def _text(to: str, body: str) -> dict[str, Any]:
    return {"messaging_product": "whatsapp", "recipient_type": "individual", "to": to,
            "type": "text", "text": {"body": body[:TEXT_MAX], "preview_url": False}}


def _interactive(to: str, interactive: dict[str, Any]) -> dict[str, Any]:
    return {"messaging_product": "whatsapp", "recipient_type": "individual", "to": to,
            "type": "interactive", "interactive": interactive}


def _split(label: str, size: int) -> tuple[str, str]:
    """A label cut at a word to fit `size`, and the rest (for a list row's description)."""
    if len(label) <= size:
        return label, ""
    cut = label.rfind(" ", 0, size)
    cut = cut if cut > 0 else size
    return label[:cut].rstrip(), label[cut:].strip()


def _row(key: str, choice: Choice) -> dict[str, str] | None:
    title, rest = _split(choice.label, ROW_TITLE)
    if len(rest) > ROW_DESCRIPTION or len(reply_id(key, choice)) > ID_MAX:
        return None
    row = {"id": reply_id(key, choice), "title": title}
    if rest:
        row["description"] = rest
    return row


def messages(to: str, prompt: Prompt, key: str) -> list[dict[str, Any]]:
    """The Cloud API message bodies (POST /{phone-number-id}/messages) that show `prompt`
    to `to`, in order."""
    body, choices = prompt.text, prompt.choices
    before: list[dict[str, Any]] = []
    if (prompt.location or choices) and len(body) > BODY_MAX:
        before, body = [_text(to, body)], CHOOSE  # the long text, then its choices alone
    if prompt.location:
        return before + [_interactive(to, {"type": "location_request_message",
                                           "body": {"text": body},
                                           "action": {"name": "send_location"}})]
    if not choices:
        return [_text(to, body)]
    if (len(choices) <= BUTTONS_MAX and all(len(c.label) <= BUTTON_TITLE for c in choices)
            and len({c.label for c in choices}) == len(choices)):
        buttons = [{"type": "reply", "reply": {"id": reply_id(key, c), "title": c.label}}
                   for c in choices]
        return before + [_interactive(to, {"type": "button", "body": {"text": body},
                                           "action": {"buttons": buttons}})]
    rows = [_row(key, c) for c in choices]
    if len(choices) <= ROWS_MAX and None not in rows:
        return before + [_interactive(to, {"type": "list", "body": {"text": body},
                                           "action": {"button": LIST_BUTTON,
                                                      "sections": [{"rows": rows}]}})]
    return [_text(to, numbered(prompt))]
