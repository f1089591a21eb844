"""The owner's view message (bot/owner/render.py words core.services.owners.owner_view) and
its buttons (bot/buttons.py)."""
from __future__ import annotations

from telegram import InlineKeyboardMarkup
from telegram.error import BadRequest

from bot.buttons import SITUATION_FLAGS, callback_data  # noqa: F401 (actions.py reads it here)
from bot.owner.render import view_text
from bot.router import Turn, inline
from core.services.owners import OwnerAction, OwnerView

ALERT_MAX = 200  # Telegram's limit for a callback answer's text


def _active(view: OwnerView, action: OwnerAction) -> bool:
    """A situation toggle that is on (Dores Art. 3º, §3º)."""
    if view.depot is None or action.intent != "owner.situation":
        return False
    return bool(getattr(view.depot.situation, action.flag, False))


def keyboard(view: OwnerView) -> InlineKeyboardMarkup | None:
    """The view's actions as inline buttons; situation toggles that are on show ✅."""
    rows = [[(("✅ " if _active(view, a) else "") + a.text, callback_data(a))
             for a in row] for row in view.actions]
    return inline(rows) if rows else None


async def send_view(turn: Turn, view: OwnerView) -> None:
    await turn.reply(view_text(view), keyboard(view))


async def edit_view(turn: Turn, view: OwnerView) -> None:
    """Redraw the pressed view in place (a new message if it cannot be edited)."""
    try:
        await turn.edit(view_text(view), keyboard(view))
    except BadRequest:
        await send_view(turn, view)


async def refuse(turn: Turn, text: str) -> None:
    """A polite refusal: an alert on the pressed button, or a message when it is long."""
    if turn.query is not None and len(text) <= ALERT_MAX:
        await turn.answer(text, alert=True)
        return
    await turn.answer()
    await turn.reply(text)
