"""Which question an answer belongs to: an answer is stored only for the question the person
was last shown, and an update replayed from earlier in the chat never answers (or re-asks) a
later question.

Two marks live in the draft, written in the same transaction as the step they belong to:

- STEP, the number of the question shown: it moves on each time the conversation moves to
  another state. Every button a face shows carries it (`key`); a button from an earlier
  question (a "Pular" pressed on the plate question once the colour is asked) is stale, not an
  answer to the question asked now.
- SEEN, the newest of the person's messages already taken, by the face's order of messages in
  the chat (Telegram's message_id grows in a private chat; another face gives its own order,
  or none). A message at or below it was already taken: a replay, answered by nothing.
"""
from __future__ import annotations

from typing import Any

STEP = "step"
SEEN = "seen"


def key(draft: dict[str, Any]) -> str:
    """The draft and the question shown, as its buttons carry them ("a1b2c3.4")."""
    return f"{draft['id']}.{draft.get(STEP, 0)}"


def current(draft: dict[str, Any], pressed: str) -> bool:
    """Was the button carrying `pressed` shown with the question asked now?"""
    return "id" in draft and pressed == key(draft)


def replayed(draft: dict[str, Any], order: int | None) -> bool:
    """A message at or before the newest one already taken in this draft (None: the face has
    no order, nothing is a replay)."""
    return order is not None and order <= int(draft.get(SEEN, 0))


def advance(draft: dict[str, Any], was: str, state: str, order: int | None) -> dict[str, Any]:
    """`draft` as stored with `state` (the conversation was in `was`): the next question's
    number when the state changes, and the message taken (`order`) as the newest seen."""
    if state != was:
        draft[STEP] = int(draft.get(STEP, 0)) + 1
    if order is not None:
        draft[SEEN] = max(int(draft.get(SEEN, 0)), order)
    return draft
