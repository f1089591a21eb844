"""/rota end to end through the Bot API stand-in: the inspector's route of the day, each stop
with the case, what to do, the due date and a link that opens the spot in a map app; from the
location shared today; split within Telegram's 4096 characters."""
from __future__ import annotations

from bot.inspector.route import LIMIT
from tests.support.inspector import ANA, INTRUDER, bind, report, tap, task_message
from tests.support.bot_chat import said

# From the centre going west, ~1 km apart: reported out of order.
WEST = [(-19.4628, -45.6003 - 0.0095 * k) for k in (1, 2, 3)]


async def test_rota_lists_todays_stops_in_order_with_what_to_do_and_a_map_link(
        bot, core, photo):
    await bind(bot, ANA, "Ana Fiscal", "posturas", WEST[2])  # shared today, at the far end
    near_office = await report(core, photo, where=WEST[0])
    far = await report(core, photo, where=WEST[2])
    middle = await report(core, photo, where=WEST[1])
    for protocol in (near_office, far, middle):
        await task_message(bot, ANA, protocol)
    await bot.api.send_command(ANA, "rota")
    msg = await said(bot, ANA, "Rota de hoje (01/12/2026): 3 paradas")
    text = msg.text
    assert "Saída: localização enviada pelo fiscal hoje às" in text
    # from where she stands: the far one first, then back towards the centre
    assert text.index(f"1. {far}") < text.index(f"2. {middle}") < text.index(f"3. {near_office}")
    assert "Vistoria (aguardando aceite)" in text
    assert "O que fazer: Vistoriar o local" in text and "Notificar" in text
    assert "Prazo: sem prazo fixado em lei" in text
    lat, lon = WEST[2]
    assert f"https://www.google.com/maps/search/?api=1&query={lat:.6f},{lon:.6f}" in text
    assert "em linha reta" in text and "/notificacoes" in text
    buttons = msg.buttons
    assert buttons[0][0].url.startswith("https://www.google.com/maps/search/?api=1&query=")
    assert buttons[0][1].text == f"Abrir {far}" and buttons[0][1].callback_data == \
        f"case:open:{far}"
    await tap(bot, ANA, f"Abrir {middle}", expect=f"Protocolo {middle}")  # the case card


async def test_rota_without_tasks_and_for_a_non_inspector(bot, core):
    await bind(bot, ANA, "Ana Fiscal", "posturas")
    await bot.api.send_command(ANA, "rota")
    await said(bot, ANA, "Nenhuma tarefa de campo para hoje (01/12/2026).")
    bot.api.add_user(INTRUDER)
    await bot.api.send_command(INTRUDER, "rota")
    refused = await said(bot, INTRUDER)
    assert "Rota de hoje" not in refused.text


async def test_a_long_route_is_split_within_telegrams_limit(bot, core, photo):
    await bind(bot, ANA, "Ana Fiscal", "posturas")
    protocols = []
    for i in range(28):  # a day of 28 stops does not fit in one message
        where = (-19.4628 + 0.0007 * (i % 7), -45.6003 - 0.0007 * (i // 7))
        protocols.append(await report(core, photo, where=where))
    await task_message(bot, ANA, protocols[-1])
    start = len(bot.api.calls)
    await bot.api.send_command(ANA, "rota")
    await said(bot, ANA, "Rota de hoje (01/12/2026): 28 paradas")
    await said(bot, ANA, "peça /rota de novo", since=start)
    sent = [c for c in bot.api.calls[start:] if c.method == "sendMessage"
            and str(c.params.get("chat_id")) == str(ANA.id)]
    assert len(sent) >= 2 and all(len(c.params["text"]) <= LIMIT for c in sent)
    joined = "\n".join(c.params["text"] for c in sent)
    for n, protocol in enumerate(protocols, 1):
        assert protocol in joined
        assert f"\n{n}. " in joined
    assert sum(len(c.buttons) for c in sent) == 28  # every stop has its buttons
    assert "Saída: centro de Dores do Indaiá" in sent[0].params["text"]
