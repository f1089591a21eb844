"""One bot for two cities: the real `python -m bot` process on a database that records Dores do
Indaiá (MG) and Dracena (SP) before it starts. Each city's inspector (bound with an invite of
their city) receives only their city's new tasks (Dores Art. 4º; Dracena Art. 2º), sees only
them in /tarefas, and a Dores inspector pressing a button of Dracena's case gets exactly the
answer of a case that does not exist."""
from __future__ import annotations

from types import SimpleNamespace

from core.services.cases.evidence import EvidenceIn
from core.services.citizens.reports import ReportIn, submit_report
from core.services.context import Core
from core.services.inspectors.accounts import invite_inspector
from core.services.installation.municipalities import add_municipality
from core.settings import Settings
from sandbox.standin.botapi import User
from tests.support.bot_chat import jpeg, said
from tests.support.bot_process import BotProcess
from tests.support.inspector import DORES, DRACENA

ANA = User(901, "Ana")  # fiscal de posturas, Dores do Indaiá
DANI = User(902, "Dani")  # fiscalização, Dracena


async def _report(core: Core, category: str, where, i: int) -> str:
    sha, _ = core.evidence.put_image(jpeg(i))
    r = ReportIn(category=category, lat=where[0], lon=where[1],
                 photos=[EvidenceIn(sha, "image/jpeg", "photo", f"f{i}", f"u{i}")],
                 address="Rua 1, 10, Centro")
    return (await submit_report(core, 555, r, display_name="Maria")).protocol


async def _bind(api, h, user: User, code: str) -> None:
    api.add_user(user)
    await api.send_command(user, "fiscal", code)
    await said(h, user, "Conta vinculada", timeout=20)


async def _answer_to(api, user: User, message, data: str) -> str:
    """What the bot answers to a button with `data` pressed on `message` (the alert's text)."""
    since = api.mark()
    await api.press_button(user, message, data, check=False)
    call = await api.wait_for(method="answerCallbackQuery", since=since, timeout=20)
    return call.params.get("text") or ""


async def test_each_inspector_receives_only_the_tasks_of_its_city(tmp_path):
    async with BotProcess.around(tmp_path / "data") as proc:
        api, h = proc.api, SimpleNamespace(api=proc.api)
        core = await Core.open(Settings(_env_file=None, municipality="dores-do-indaia",
                                        data_dir=proc.data_dir, database_url=""))
        try:
            await add_municipality(core, "dracena")  # recorded before the bot starts
            dracena = core.for_city("dracena")
            ana_code = await invite_inspector(core, "Ana Fiscal", "posturas", "clara")
            dani_code = await invite_inspector(dracena, "Dani Fiscal", "fiscalizacao", "rui")
            await proc.start()
            await _bind(api, h, ANA, ana_code)
            await _bind(api, h, DANI, dani_code)

            ours = await _report(core, "motor_vehicle", DORES, 1)
            theirs = await _report(dracena, "infraction", DRACENA, 2)
            to_ana = await api.wait_for(method="sendMessage", chat_id=ANA, since=0, timeout=30,
                                        text=f"Nova tarefa — protocolo {ours}")
            await api.wait_for(method="sendMessage", chat_id=DANI, since=0, timeout=30,
                               text=f"Nova tarefa — protocolo {theirs}")
            assert "Fiscalização" not in to_ana.params["text"]
            await api.send_command(ANA, "tarefas")
            listed = await said(h, ANA, "1.", timeout=20)
            assert ours in listed.params["text"] and theirs not in listed.params["text"]
            await api.send_command(DANI, "tarefas")
            listed = await said(h, DANI, "1.", timeout=20)
            assert theirs in listed.params["text"] and ours not in listed.params["text"]

            missing = await _answer_to(api, ANA, to_ana, "case:open:2026-999999")
            other = await _answer_to(api, ANA, to_ana, f"case:open:{theirs}")
            assert other == missing and "Não encontramos esse caso" in other
            step = await _answer_to(api, ANA, to_ana, f"insp:do:{theirs}:issue_auto")
            assert step == missing
        finally:
            await core.close()
    for user, own, other in ((ANA, ours, theirs), (DANI, theirs, ours)):
        texts = " ".join(c.text or ""
                         for c in api.calls if c.chat_id == user.id)
        assert own in texts and other not in texts
