"""/fiscal (binding), /tarefas (open tasks, by deadline then distance), the task buttons
(Aceitar, Recusar with a reason, Abrir caso) and the owner's "Abrir caso" button."""
from __future__ import annotations

import logging

from telegram import ReplyKeyboardRemove
from telegram.error import TelegramError

from bot import buttons
from bot.inspector import card, texts
from bot.inspector.states import REFUSE, TASKS
from bot.router import Turn, inline, location_keyboard
from bot.startup import set_inspector_menu
from bot.texts import STALE_BUTTON
from core import logs
from core.services.messaging.conversation import IDLE
from core.services.errors import Forbidden, InvalidInput
from core.services.inspectors.accounts import require_inspector, update_location
from core.services.inspectors.queue_flow import bind_and_take_waiting
from core.services.inspectors.task_list import open_tasks
from core.services.inspectors.tasks import OPEN, accept_task, refuse_task

log = logging.getLogger(__name__)


async def bind(turn: Turn) -> None:
    """`/fiscal CÓDIGO`: errors and cool-down are the service's own messages."""
    if not turn.args:
        await turn.reply(texts.BIND_USAGE)
        return
    bound = await bind_and_take_waiting(turn.core, turn.user_id, "".join(turn.args),
                                        turn.display_name)  # waiting cases offered at once
    try:  # the inspector's own menu, with /tarefas (set again at each start-up)
        await set_inspector_menu(turn.context.bot, turn.router, turn.user_id)
    except TelegramError as exc:
        log.warning("inspector menu not set for %s: %s", logs.opaque(str(turn.user_id)),
                    exc)
    await turn.reply(texts.BOUND.format(name=bound.name, agency=bound.agency_name))


def _distance(m: float | None) -> str:
    if m is None:
        return ""
    return f" — a {m / 1000:.1f} km".replace(".", ",") if m >= 1000 else f" — a {m:.0f} m"


async def list_tasks(turn: Turn, before: str = "") -> None:
    tasks = await open_tasks(turn.core, turn.user_id)
    head = before + "\n" if before else ""
    if not tasks:
        await turn.reply(head + texts.NO_TASKS)
    else:
        lines = [head + texts.TASKS_HEAD]
        for i, t in enumerate(tasks, 1):
            status = " (aguardando aceite)" if t.status == "offered" else ""
            lines.append(f"{i}. {t.protocol} — {t.category_label} — {t.state_label}{status}\n"
                         f"   {t.address or 'sem endereço'}{_distance(t.distance_m)}\n"
                         f"   Prazo: {t.due_text or 'sem prazo fixado'}")
        rows = [[(f"Abrir {t.protocol}", buttons.task("open", t.task_id))] for t in tasks]
        await turn.reply("\n".join(lines)[:4096], inline(rows))
    if turn.conv.state == IDLE:  # never overwrite another flow's draft
        await turn.save(TASKS, {})
        await turn.reply(texts.SHARE_LOCATION, location_keyboard(texts.LOCATION_BUTTON))


async def my_tasks(turn: Turn) -> None:
    await list_tasks(turn)


async def on_tasks_message(turn: Turn) -> None:
    """In insp:tasks: a location updates the inspector's position; anything else leaves."""
    msg = turn.message
    await turn.clear()
    if msg is not None and msg.location is not None:
        await update_location(turn.core, turn.user_id, msg.location.latitude,
                              msg.location.longitude)
        await turn.reply(texts.LOCATION_SAVED, ReplyKeyboardRemove())
        await list_tasks(turn)
        return
    await turn.reply(texts.LEFT_TASKS, ReplyKeyboardRemove())


async def _held(turn: Turn, task_id: int):
    """The inspector's open task `task_id`, or Forbidden (another's, closed, forged)."""
    for t in await open_tasks(turn.core, turn.user_id):
        if t.task_id == task_id:
            return t
    raise Forbidden(texts.NOT_MY_TASK)


async def on_task_button(turn: Turn) -> None:
    """task:accept:<id>, task:refuse:<id>, task:open:<id>."""
    data = turn.data
    if len(data) != 3 or not data[2].isdigit() or data[1] not in ("accept", "refuse", "open"):
        await turn.answer(STALE_BUTTON)
        return
    action, task_id = data[1], int(data[2])
    await require_inspector(turn.core, turn.user_id)
    task = await _held(turn, task_id)
    if action == "accept":
        done = await accept_task(turn.core, turn.user_id, task_id)
        await turn.answer(texts.ACCEPTED.format(protocol=done.protocol))
        await card.show(turn, done.protocol, texts.ACCEPTED.format(protocol=done.protocol))
    elif action == "refuse":
        if task.status not in OPEN:
            raise InvalidInput(texts.NOT_MY_TASK)
        await turn.save(REFUSE, {"task_id": task_id, "protocol": task.protocol})
        await turn.answer()
        await turn.reply(texts.ASK_REFUSAL.format(protocol=task.protocol))
    else:
        await card.show(turn, task.protocol)


async def on_refusal_reason(turn: Turn) -> None:
    d = turn.conv.draft
    reason = (turn.text or "").strip()
    if not reason or reason.startswith("/"):
        await turn.reply(texts.NEED_REASON)
        return
    try:
        done = await refuse_task(turn.core, turn.user_id, int(d["task_id"]), reason)
    except (Forbidden, InvalidInput):
        await turn.clear()  # the task is gone: nothing left to refuse
        raise
    await turn.clear()
    template = texts.REFUSED_TO if done.task_id is not None else texts.REFUSED_STAFF
    await turn.reply(template.format(protocol=d["protocol"]))


async def on_case_button(turn: Turn) -> None:
    """case:open:<protocol> (e.g. from the owner's statement)."""
    data = turn.data
    if len(data) != 3 or data[1] != "open":
        await turn.answer(STALE_BUTTON)
        return
    await require_inspector(turn.core, turn.user_id)
    await card.show(turn, data[2])
