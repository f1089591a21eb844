"""/start, /ajuda, /privacidade, /cancelar, /status, /minhas and the per-case notification
buttons ("notif:off:<protocol>", "notif:on:<protocol>")."""
from __future__ import annotations

from telegram import ReplyKeyboardRemove

from bot import buttons
from bot.citizen import report
from core.services.citizens.conversation import guide as texts
from bot.citizen.prompts import ask, city_core
from core.services.citizens.conversation.states import FOLLOWUP, PREFIX as REPORT
from bot.router import Turn, inline
from bot.texts import STALE_BUTTON
from core.services.messaging.conversation import IDLE
from core.services.errors import USER_ERRORS
from core.services.citizens.case_status import my_cases, set_notifications, status_view
from core.services.citizens.conversation import tracking
from core.services.citizens.conversation.tracking import PROTOCOL, case_text


def typed_protocol(turn: Turn) -> str | None:
    """A protocol number typed alone (AAAA-NNNNNN), understood as /status."""
    return tracking.typed_protocol(turn.text)


async def resume(turn: Turn) -> None:
    """In the middle of a report, after answering a command: the pending question again (the
    draft stays)."""
    if turn.conv.state.startswith(REPORT):
        await ask(turn, turn.conv.state, texts.BACK_TO_REPORT)


async def start(turn: Turn) -> None:
    if turn.args:
        handler = turn.router.deep_link_handler(turn.args[0])
        if handler is not None:
            await handler(turn)
        else:
            await turn.reply(texts.DEEP_LINK_UNKNOWN)
        return
    await turn.reply(texts.welcome(turn.core, turn.update.effective_user.first_name))
    await resume(turn)


async def help_(turn: Turn) -> None:
    await turn.reply(texts.help_text(turn.core))
    await resume(turn)


async def privacy(turn: Turn) -> None:
    """The report's city when its location is known; with several cities and none yet, all
    of them, each with its law and its DPO."""
    city = turn.conv.draft.get("city") if turn.conv.state.startswith(REPORT) else None
    if city:
        await turn.reply(texts.privacy(city_core(turn.core, turn.conv.draft)))
    else:
        await turn.reply(texts.privacy(turn.core, every_city=True))
    await resume(turn)


async def cancel(turn: Turn) -> None:
    if turn.conv.state == IDLE:
        await turn.reply(texts.NOTHING_TO_CANCEL, ReplyKeyboardRemove())
        return
    reporting = turn.conv.state.startswith(REPORT)
    answered = turn.conv.state.startswith(FOLLOWUP)
    await turn.clear()
    await turn.reply(texts.CANCELLED if reporting else texts.FOLLOWUP_CANCELLED if answered
                     else texts.OTHER_CANCELLED, ReplyKeyboardRemove())


async def idle(turn: Turn) -> None:
    if (protocol := typed_protocol(turn)) is not None:
        await _show_status(turn, protocol)
        return
    if report.starts_report(turn.message):
        await report.start_with(turn)
        return
    await turn.reply(texts.IDLE_HINT)


async def in_report(turn: Turn) -> None:
    """A message during a report: a protocol typed alone is /status (then the question again);
    anything else is the report's (bot/citizen/report.py)."""
    if (protocol := typed_protocol(turn)) is not None:
        await _show_status(turn, protocol)
        await resume(turn)
        return
    await report.on_message(turn)


def notify_button(protocol: str, on: bool):
    """The switch under a case whose updates are `on`: it turns them off (or on)."""
    return inline([[(tracking.switch_label(on), buttons.notifications(protocol, on=not on))]])


async def status(turn: Turn) -> None:
    if not turn.args or not PROTOCOL.match(turn.args[0]):
        await turn.reply(tracking.STATUS_USAGE)
    else:
        await _show_status(turn, turn.args[0])
    await resume(turn)


async def _show_status(turn: Turn, protocol: str) -> None:
    try:
        view = await status_view(turn.core, protocol)
    except USER_ERRORS as exc:  # unknown protocol: said plainly, the report goes on
        await turn.reply(exc.message)
        return
    await turn.reply(case_text(view))


async def mine(turn: Turn) -> None:
    views = await my_cases(turn.core, turn.user_id)
    if not views:
        await turn.reply(tracking.NO_CASES)
        await resume(turn)
        return
    await turn.reply(tracking.mine_header(len(views)))
    for v in views:
        await turn.reply(case_text(v), notify_button(v.protocol, bool(v.notify))
                         if v.is_open else None)
    await resume(turn)


async def on_notify_button(turn: Turn) -> None:
    parts = turn.data
    if len(parts) != 3 or parts[1] not in ("on", "off") or not PROTOCOL.match(parts[2]):
        await turn.answer(STALE_BUTTON)
        return
    on = parts[1] == "on"
    if not await set_notifications(turn.core, turn.user_id, parts[2], on):
        await turn.answer(tracking.NOT_FOLLOWING)
        return
    await turn.answer(tracking.UPDATES_ON if on else tracking.UPDATES_OFF)
    view = next((v for v in await my_cases(turn.core, turn.user_id)
                 if v.protocol == parts[2]), None)
    if view is not None:
        await turn.edit(case_text(view), notify_button(view.protocol, on))


async def on_unsub_button(turn: Turn) -> None:
    """"unsub:<protocol>": the button core services put under a case update (outbox)."""
    parts = turn.data
    if len(parts) != 2 or not PROTOCOL.match(parts[1]):
        await turn.answer(STALE_BUTTON)
        return
    if not await set_notifications(turn.core, turn.user_id, parts[1], False):
        await turn.answer(tracking.NOT_FOLLOWING)
        return
    await turn.answer(tracking.UPDATES_OFF)
    await turn.query.edit_message_reply_markup(notify_button(parts[1], False))
