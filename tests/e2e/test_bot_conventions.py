"""Telegram conventions at the bot's start-up, through the Bot API
stand-in: the citizens' command menu for everyone, a chat-scoped menu with /tarefas for each
bound inspector (withdrawn when the inspector is deactivated, from the panel or the CLI, via
the outbox), the Portuguese descriptions naming the configured city, and the location prompt
that explains how to send a pin from home."""
from __future__ import annotations

from bot.state import state_of
from sandbox.harness import BotHarness
from sandbox.standin.botapi import User
from core.services.inspectors.accounts import inspector_for
from core.services.inspectors.tasks import deactivate_inspector
from core.storage.timeline import ActorRef
from tests.support.inspector import ANA, BETO, bind
from tests.support.panel import post_form
from tests.support.bot_chat import jpeg, said

STAFF = ActorRef("staff", "u1", "Maria (Secretaria)")
MARIA = User(5001, "Maria")


def chat(user: User) -> dict:
    return {"type": "chat", "chat_id": user.id}


def names(commands: list[dict]) -> list[str]:
    return [c["command"] for c in commands]


def last_param(api, method: str, name: str) -> str:
    calls = api.sent(method=method)
    assert calls, f"{method} was not called"
    return calls[-1].params[name]


async def test_menus_for_citizens_and_inspectors_and_withdrawn_on_deactivation(core):
    async with BotHarness(core) as bot:
        citizens = names(bot.api.my_commands())
        assert {"denunciar", "minhas", "ajuda"} <= set(citizens) and "tarefas" not in citizens
        await bind(bot, ANA, "Ana Fiscal", "posturas")  # /fiscal CÓDIGO sets her menu at once
        assert names(bot.api.my_commands(scope=chat(ANA))) == citizens + [
            "tarefas", "notificacoes", "rota"]
        await bind(bot, BETO, "Beto", "transito")
        beto = await inspector_for(core, BETO.id)
        await bot.restart()  # idempotent: the same menus again, nothing refused
        assert names(bot.api.my_commands()) == citizens
        assert "tarefas" in names(bot.api.my_commands(scope=chat(ANA)))
        assert "tarefas" in names(bot.api.my_commands(scope=chat(BETO)))
        assert all(c.ok for c in bot.api.sent(ok=None)
                   if c.method.lower().startswith(("setmy", "deletemy")))

        mark = bot.api.mark()
        await deactivate_inspector(core, beto.id, STAFF)  # as the panel and the CLI do
        state_of(bot.app).outbox_wake.set()
        await bot.api.wait_for(method="deleteMyCommands", since=mark, timeout=5)
        assert bot.api.my_commands(scope=chat(BETO)) == []  # back to the citizens' menu
        assert "tarefas" in names(bot.api.my_commands(scope=chat(ANA)))
        await bot.restart()  # a deactivated inspector gets no menu back at start-up
        assert bot.api.my_commands(scope=chat(BETO)) == []


async def test_descriptions_in_portuguese_name_the_city_dores(core):
    async with BotHarness(core) as bot:
        long_text = last_param(bot.api, "setMyDescription", "description")
        short = last_param(bot.api, "setMyShortDescription", "short_description")
    assert "Dores do Indaiá/MG" in long_text and "Denuncie" in long_text
    assert "/privacidade" in long_text and len(long_text) <= 512
    assert "Dores do Indaiá" in short and len(short) <= 120


async def test_descriptions_name_dracena_when_its_law_is_configured(make_core):
    core = await make_core("dracena")
    async with BotHarness(core) as bot:
        long_text = last_param(bot.api, "setMyDescription", "description")
        short = last_param(bot.api, "setMyShortDescription", "short_description")
    assert "Dracena/SP" in long_text and "Dores" not in long_text
    assert "Dracena" in short and len(short) <= 120


async def test_location_prompt_explains_the_pin_from_home_and_the_button(core):
    async with BotHarness(core) as bot:
        await bot.api.send_command(MARIA, "denunciar")
        await said(bot, MARIA, "O que você quer denunciar")
        await bot.api.press_button(MARIA, bot.api.last_message(MARIA), text="Veículo")
        await said(bot, MARIA, "Envie de 1 a 10 fotos")
        await bot.api.send_photo(MARIA, jpeg(1))
        await said(bot, MARIA, "1 foto recebida")
        await bot.api.press_button(MARIA, bot.api.last_message(MARIA), text="Pronto")
        prompt = await said(bot, MARIA, "Onde fica")
    assert "📎 → Localização" in prompt.text
    assert prompt.keyboard == "reply"
    assert prompt.buttons[0][0].request_location  # the 📍 button for who is on the spot


async def test_deactivation_in_the_panel_reaches_the_inspectors_telegram(core, panel):
    async with BotHarness(core) as bot:
        await bind(bot, ANA, "Ana Fiscal", "posturas")
        assert "tarefas" in names(bot.api.my_commands(scope=chat(ANA)))
        ana = await inspector_for(core, ANA.id)
        mark = bot.api.mark()
        async with panel.client("ana") as c:  # the panel's admin
            r = await post_form(c, "/fiscais", f"/fiscais/{ana.id}/desativar", {})
            assert r.status == 302
        state_of(bot.app).outbox_wake.set()
        call = await bot.api.wait_for(method="deleteMyCommands", since=mark, timeout=5)
        assert call.params["scope"] == chat(ANA)
        assert bot.api.my_commands(scope=chat(ANA)) == []
        await bot.api.send_command(ANA, "tarefas")
        await said(bot, ANA, "só para fiscais")


async def test_a_refused_start_up_call_is_logged_and_the_bot_still_serves(core, caplog):
    harness = BotHarness(core)
    harness.api.fail_next("setMyDescription", 400, description="Bad Request: test refusal")
    async with harness as bot:
        assert "Dores do Indaiá" in last_param(bot.api, "setMyShortDescription",
                                               "short_description")  # the next steps ran
        assert {"denunciar", "ajuda"} <= set(names(bot.api.my_commands()))
        await bot.api.send_command(MARIA, "start")
        await said(bot, MARIA, "Olá, Maria!")
    assert "setMyDescription refused" in caplog.text
