"""The inspector's flow: /fiscal binding, task messages (Aceitar / Recusar / Abrir caso),
/tarefas, /notificacoes (the day's notices to print before going out), /rota (the day's
route), the case card with only the actions the lifecycle allows, and the on-site form that
takes a step and sends its legal document. Every rule lives in core.services (inspectors,
tasks, step_forms, documents)."""
from __future__ import annotations

from functools import wraps

from bot.inspector import after, card, day, form, resume, route, tasks
from bot.inspector.states import AFTER, FORM, REFUSE, TASKS
from bot.router import Handler, Router, Turn
from bot.texts import STALE_BUTTON
from core.services.inspectors.accounts import inspector_city, require_inspector


async def on_button(turn: Turn) -> None:
    """insp:do:<protocol>:<code> (card action) and insp:<draft id>:... (form)."""
    data = turn.data
    await require_inspector(turn.core, turn.user_id)
    if len(data) == 4 and data[1] == "do":
        await form.start(turn, data[2], data[3])
    elif len(data) == 4 and data[1] == "again":  # "Emitir de novo" on the case card
        await card.again(turn, data[2], data[3])
    elif len(data) == 4 and data[1] == "photo":  # the notice's photo, asked again
        await after.resume(turn, data[2], data[3])
    elif len(data) >= 3 and turn.conv.state == AFTER:
        await after.on_button(turn, data)
    elif len(data) >= 3:
        await form.on_button(turn, data)
    else:
        await turn.answer(STALE_BUTTON)


def in_city(handler: Handler) -> Handler:
    """The inspector's answers run for the inspector's own city (its law, cases and papers:
    core.services.inspectors.accounts.inspector_city); another city's case is a missing one."""
    @wraps(handler)
    async def run(turn: Turn) -> None:
        turn.core = await inspector_city(turn.core, turn.user_id)
        await handler(turn)
    return run


def register(router: Router) -> None:
    router.command("fiscal", tasks.bind)  # /fiscal CÓDIGO (not in the public menu)
    router.command("tarefas", in_city(tasks.my_tasks), "Minhas tarefas de vistoria",
                   role="inspector")
    router.command("notificacoes", in_city(day.day_notices), "Imprimir as notificações do dia",
                   role="inspector")
    router.command("rota", in_city(route.day_route), "Rota do dia", role="inspector")
    router.callback("task", in_city(tasks.on_task_button))
    router.callback("case", in_city(tasks.on_case_button))
    router.callback("insp", in_city(on_button))
    again = in_city(resume.resume)
    router.state(TASKS, in_city(tasks.on_tasks_message), resume=again)
    router.state(REFUSE, in_city(tasks.on_refusal_reason), resume=again)
    router.state(FORM, in_city(form.on_message), resume=again)
    router.state(AFTER, in_city(after.on_message), resume=again)
