"""The owner's view message (core.services.owners.text words core.services.owners.owner_view) and
its buttons (bot/buttons.py)."""
from __future__ import annotations

import logging

from telegram import InlineKeyboardMarkup, InputFile, MessageEntity
from telegram.error import BadRequest, TelegramError

from bot.buttons import SITUATION_FLAGS, callback_data  # noqa: F401 (actions.py reads it here)
from core import logs
from core.services.owners.text import view_text
from bot.router import Turn, inline
from core.documents.qr import qr_png
from core.formatting import fmt_money
from core.services.owners import OwnerAction, OwnerView
from core.services.owners.payments import PaymentOffer

log = logging.getLogger(__name__)

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
    if view.depot is not None and view.depot.payment is not None and view.depot.payment.pix:
        await send_pix(turn, view.depot.payment)


async def send_pix(turn: Turn, payment: PaymentOffer) -> None:
    """The PIX "copia e cola" as a monospace block (copied whole with a tap), then its QR code
    as a photo. Telegram failing now: the code alone, through the outbox (never lost)."""
    code = payment.pix
    try:
        await turn.bot.send_message(turn.chat_id, code,
                                    entities=[MessageEntity(MessageEntity.PRE, 0, len(code))])
    except TelegramError as exc:
        log.warning("PIX code to chat %s not sent at once (%s): queued",
                    logs.opaque(str(turn.chat_id)), exc)
        await turn.reply(code)
        return
    try:
        await turn.bot.send_photo(turn.chat_id, InputFile(qr_png(code, scale=8).getvalue(),
                                                          filename=f"pix-{payment.txid}.png"),
                                  caption=f"QR code do PIX de {fmt_money(payment.amount)} "
                                          f"(caso {payment.txid})")
    except TelegramError as exc:  # the code above pays as well
        log.warning("PIX QR code to chat %s not sent (%s)",
                    logs.opaque(str(turn.chat_id)), exc)


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
