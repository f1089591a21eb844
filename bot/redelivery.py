"""A redelivered update re-asks, never re-does.

With several workers in webhook mode a webhook call is answered only once its update was
handled (bot/webhook.py). A worker killed after the update's unit of work committed (the
update is marked processed with its effect) but before its reply reached Telegram leaves
the person without that reply, and Telegram delivers the same update again, to another
worker. That update is not processed again (no state change, no second case, no second
mark), but the person must not be left in silence:

- a message while a conversation waits for an answer: the conversation's pending question
  is asked again, through the resume hook its flow registered with the state
  (`Router.state(prefix, handler, resume=...)`). The state read is the one the first
  delivery committed, so the question is the one whose reply was lost;
- a message outside any conversation (or in a state with no resume hook): nothing. Its reply
  was a one-off answer (help, a status, a finished report's protocol) that cannot be rebuilt
  without doing the step again; the person still has the command menu;
- a pressed button (callback_query): the button is answered with no text (this stops its
  spinner) and nothing else.

A resume hook that fails with a user error (e.g. the case moved on) says nothing either.
"""
from __future__ import annotations

import logging

from bot.router import Turn
from core.services.errors import USER_ERRORS

log = logging.getLogger(__name__)


async def redelivered(turn: Turn) -> None:
    """Answer an update already processed (see the module's docstring); writes nothing."""
    log.info("update %s already processed: re-asking, not re-doing", turn.update_id)
    if turn.query is not None:
        await turn.answer()
        return
    if turn.message is None:
        return
    resume = turn.router.resume_handler(turn.conv.state)
    if resume is None:
        return
    try:
        await resume(turn)
    except USER_ERRORS as exc:  # by its type: its words are for the person, and may quote
        # what they typed ("Não encontramos “…”")
        log.info("redelivered update %s: nothing to ask again (%s)", turn.update_id,
                 type(exc).__name__)
