"""/start, /ajuda, /privacidade, /cancelar, /status, /minhas and the per-case notification
buttons ("notif:off:<protocol>", "notif:on:<protocol>")."""
from __future__ import annotations

import re

from telegram import ReplyKeyboardRemove

from bot import buttons
from bot.citizen import report, texts
from bot.citizen.prompts import ask, city_core
from core.services.citizens.conversation.states import FOLLOWUP, PREFIX as REPORT
from bot.router import Turn, inline
from bot.texts import STALE_BUTTON
from core.formatting import fmt_date
from core.services.messaging.conversation import IDLE
from core.services.errors import USER_ERRORS
from core.services.citizens.case_status import PublicCaseView, my_cases, set_notifications, status_view

PROTOCOL = re.compile(r"^\d{4}-\d{6}$")


def typed_protocol(turn: Turn) -> str | None:
    """A protocol number typed alone (AAAA-NNNNNN), understood as /status."""
    text = (turn.text or "").strip()
    return text if PROTOCOL.match(text) else None


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


def render_case(v: PublicCaseView) -> str:
    lines = [f"Protocolo {v.protocol} — {v.category_label}"]
    if v.city:  # several cities served: whose case it is
        lines.append(f"Município: {v.city}")
    if not (v.is_open and v.situation):  # open: the plain words below say where it stands
        lines.append(f"Situação: {v.state_label}")
    if v.address:
        lines.append(f"Local: {v.address}")
    lines.append(f"Aberto em {fmt_date(v.created)}")
    if v.steps:
        lines.append("Etapas:")
        lines += [f"• {fmt_date(s.day)} — {s.label}" for s in v.steps]
    lines.append(f"Próximo passo: {v.next_step_text()}")
    if v.notify is not None:
        lines.append("Avisos: " + ("ligados" if v.notify else "desligados"))
    return "\n".join(lines)


def notify_button(protocol: str, on: bool):
    if on:
        return inline([[("🔕 Parar avisos deste caso", buttons.notifications(protocol, on=False))]])
    return inline([[("🔔 Retomar avisos deste caso", buttons.notifications(protocol, on=True))]])


async def status(turn: Turn) -> None:
    if not turn.args or not PROTOCOL.match(turn.args[0]):
        await turn.reply("Envie o número do protocolo assim: /status 2026-000123")
    else:
        await _show_status(turn, turn.args[0])
    await resume(turn)


async def _show_status(turn: Turn, protocol: str) -> None:
    try:
        view = await status_view(turn.core, protocol)
    except USER_ERRORS as exc:  # unknown protocol: said plainly, the report goes on
        await turn.reply(exc.message)
        return
    await turn.reply(render_case(view))


async def mine(turn: Turn) -> None:
    views = await my_cases(turn.core, turn.user_id)
    if not views:
        await turn.reply("Você ainda não tem denúncias. Use /denunciar para registrar uma.")
        await resume(turn)
        return
    await turn.reply(f"Suas denúncias ({len(views)}):")
    for v in views:
        await turn.reply(render_case(v), notify_button(v.protocol, bool(v.notify))
                         if v.is_open else None)
    await resume(turn)


async def on_notify_button(turn: Turn) -> None:
    parts = turn.data
    if len(parts) != 3 or parts[1] not in ("on", "off") or not PROTOCOL.match(parts[2]):
        await turn.answer(STALE_BUTTON)
        return
    on = parts[1] == "on"
    if not await set_notifications(turn.core, turn.user_id, parts[2], on):
        await turn.answer("Você não acompanha esse caso.")
        return
    await turn.answer("Avisos retomados." if on else "Avisos desligados para este caso.")
    view = next((v for v in await my_cases(turn.core, turn.user_id)
                 if v.protocol == parts[2]), None)
    if view is not None:
        await turn.edit(render_case(view), notify_button(view.protocol, on))


async def on_unsub_button(turn: Turn) -> None:
    """"unsub:<protocol>": the button core services put under a case update (outbox)."""
    parts = turn.data
    if len(parts) != 2 or not PROTOCOL.match(parts[1]):
        await turn.answer(STALE_BUTTON)
        return
    if not await set_notifications(turn.core, turn.user_id, parts[1], False):
        await turn.answer("Você não acompanha esse caso.")
        return
    await turn.answer("Avisos desligados para este caso.")
    await turn.query.edit_message_reply_markup(notify_button(parts[1], False))
