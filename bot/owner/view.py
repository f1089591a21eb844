"""The owner's view message (core.services.owners.owner_view(...).text()) and its buttons."""
from __future__ import annotations

from telegram import InlineKeyboardMarkup
from telegram.error import BadRequest

from bot.router import Turn, inline
from core.services.owners import OwnerView

#: "owner:sit:<flag>:<code>" → the ReleaseSituation field it toggles (Dores Art. 3º, §3º).
SITUATION_FLAGS = {"attorney": "by_attorney", "sold": "sale_communicated",
                   "unrecoverable": "unrecoverable"}
ALERT_MAX = 200  # Telegram's limit for a callback answer's text


def _active(view: OwnerView, callback_data: str) -> bool:
    parts = callback_data.split(":")
    if view.depot is None or len(parts) != 4 or parts[1] != "sit":
        return False
    return bool(getattr(view.depot.situation, SITUATION_FLAGS.get(parts[2], ""), False))


def keyboard(view: OwnerView) -> InlineKeyboardMarkup | None:
    """The view's actions as inline buttons; situation toggles that are on show ✅."""
    rows = [[(("✅ " if _active(view, a.callback_data) else "") + a.text, a.callback_data)
             for a in row] for row in view.actions]
    return inline(rows) if rows else None


async def send_view(turn: Turn, view: OwnerView) -> None:
    await turn.reply(view.text(), keyboard(view))


async def edit_view(turn: Turn, view: OwnerView) -> None:
    """Redraw the pressed view in place (a new message if it cannot be edited)."""
    try:
        await turn.edit(view.text(), keyboard(view))
    except BadRequest:
        await send_view(turn, view)


async def refuse(turn: Turn, text: str) -> None:
    """A polite refusal: an alert on the pressed button, or a message when it is long."""
    if turn.query is not None and len(text) <= ALERT_MAX:
        await turn.answer(text, alert=True)
        return
    await turn.answer()
    await turn.reply(text)
