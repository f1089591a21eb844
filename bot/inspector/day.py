"""/notificacoes: the day's notices in one PDF, printed before going out (a fiscal in the
street has no printer; core.services.inspectors.day_notices)."""
from __future__ import annotations

from bot import buttons
from bot.inspector import texts
from bot.replies import send_document_or_queue
from bot.router import Turn, inline
from core.formatting import fmt_date, plural
from core.services.inspectors.day_notices import prepare_day_notices
from core.services.inspectors.accounts import actor_ref, require_inspector


async def day_notices(turn: Turn) -> None:
    inspector = await require_inspector(turn.core, turn.user_id)
    day = await prepare_day_notices(turn.core, inspector.id, actor_ref(inspector))
    if not day.notices:
        await turn.reply(texts.DAY_NOTICES_NONE)
        return
    when = fmt_date(day.day)
    lines = [texts.DAY_NOTICES_HEAD.format(day=when, n=len(day.notices))]
    lines += [texts.DAY_NOTICES_LINE.format(number=n.number, address=n.address or "sem endereço")
              for n in day.notices]
    lines.append(texts.DAY_NOTICES_TAIL)
    rows = [[(f"Abrir {n.protocol}", buttons.case_open(n.protocol))] for n in day.notices]
    await turn.reply("\n".join(lines)[:4096], inline(rows))
    await send_document_or_queue(
        turn.bot, turn.state, turn.chat_id, day.sha256, day.filename,
        texts.DAY_NOTICES_CAPTION.format(
            day=when, notices=plural(len(day.notices), "notificação", "notificações")), day.blob)
