"""/rota: the inspector's route of the day (core.services.inspectors.route) — today's field
tasks in visiting order, each with the case, what to do there, the due date and a link that
opens the spot in a map app; split into messages within Telegram's 4096 characters, each
with the buttons of its stops (bot/buttons.py)."""
from __future__ import annotations

from telegram import InlineKeyboardMarkup

from bot.buttons import button
from bot.router import Turn
from core.formatting import fmt_date, plural
from core.services.inspectors.route import DayRoute, Stop, km, route_for_chat

LIMIT = 4096
NONE = "Nenhuma tarefa de campo para hoje ({day})."
HEAD = ("🗺️ Rota de hoje ({day}): {stops}, {total} {kind}.\n"
        "Saída: {start}.")
LATER = ("{tasks} com prazo ainda correndo {stay} para o dia do prazo (veja /tarefas).")
WHOLE = "Rota inteira no mapa (até 10 paradas): {url}"
SHARE = ("Para partir de onde você está, envie sua localização em /tarefas e peça /rota "
         "de novo.")
PRINT = "Antes de sair, imprima as notificações a afixar hoje em /notificacoes."


def stop_text(s: Stop) -> str:
    waiting = " (aguardando aceite)" if s.awaiting_accept else ""
    return (f"{s.number}. {s.protocol} — {s.kind}{waiting}\n"
            f"   {s.category_label} — {s.address} — a {km(s.leg_m)} "
            f"{'do ponto de saída' if s.number == 1 else 'da parada anterior'}\n"
            f"   O que fazer: {s.todo}\n"
            f"   Prazo: {s.due_text}\n"
            f"   Mapa: {s.maps_url}")


def messages(route: DayRoute) -> list[tuple[str, list[Stop]]]:
    """The route as (text, stops in it) messages, each within Telegram's limit."""
    day = fmt_date(route.day)
    tail = [LATER.format(tasks=plural(route.later, "tarefa", "tarefas"),
                         stay="fica" if route.later == 1 else "ficam")] if route.later else []
    if not route.stops:
        return [("\n".join([NONE.format(day=day), *tail]), [])]
    head = HEAD.format(day=day, stops=plural(len(route.stops), "parada", "paradas"), total=km(route.total_m),
                       kind=route.distances, start=route.start.label)
    tail = [WHOLE.format(url=route.directions_url), *tail, PRINT]
    if route.start.kind != "location":
        tail.append(SHARE)
    out: list[tuple[str, list[Stop]]] = []
    text, stops = head, []
    for s in route.stops:
        block = stop_text(s)[:LIMIT - 2]
        if len(text) + 2 + len(block) > LIMIT:
            out.append((text, stops))
            text, stops = block, [s]
        else:
            text, stops = f"{text}\n\n{block}", [*stops, s]
    for line in tail:
        if len(text) + 2 + len(line) > LIMIT:
            out.append((text, stops))
            text, stops = line, []
        else:
            text = f"{text}\n\n{line}"
    out.append((text, stops))
    return out


def keyboard(stops: list[Stop]) -> InlineKeyboardMarkup | None:
    if not stops:
        return None
    return InlineKeyboardMarkup([
        [button({"text": f"🗺️ {s.number}. Mapa", "url": s.maps_url}),
         button({"text": f"Abrir {s.protocol}", "intent": "case.open", "case": s.protocol})]
        for s in stops])


async def day_route(turn: Turn) -> None:
    route = await route_for_chat(turn.core, turn.user_id)
    for text, stops in messages(route):
        await turn.reply(text, keyboard(stops))
