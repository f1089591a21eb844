"""The sample documents of docs/samples, from the real flow: `python -m docs.samples docs/samples`.

Nothing here writes a fact into the database. For each law, the real bot (sandbox.harness: the
same Application as `python -m bot`, over the Bot API stand-in) and the real panel (admin.app,
served on a local port and driven over HTTP with its forms and CSRF tokens) run on a fresh
SQLite data folder; a citizen reports in the chat, the staff invite the inspectors in the panel,
the inspectors bind with /fiscal, accept the task and fill the step's form on their phones,
the staff publish the editais and download them, the owner opens the QR code's link and asks
the summary. The documents are the PDFs the Bot API stand-in received and the panel served:
exactly what a user gets. The clock is the generator's (30/11/2026, then days pass for the
deadlines to run), so the samples are the same at every run; the periodic sweep runs as the
bot's loop would. PNG previews of the first pages (pdftoppm) go to png/ for the README.

SCENARIOS lists, for both laws and each category family, which document each scenario yields
(tests/e2e/test_documents_render.py checks they cover every document kind)."""
from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Awaitable, Callable

#: (file stem in docs/samples, document kind) each scenario yields. Kinds: the codes
#: core.services.papers.documents.keep records, "edital_<kind>", the owner's summary and the day's
#: notices.
SCENARIOS: dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] = {
    # name: (law slug, category family, files)
    "dores_vehicle_owner_known": ("dores-do-indaia", "motor_vehicle", (
        ("notificacao", "notificacao"),)),
    "dores_furniture": ("dores-do-indaia", "large_furniture", (
        ("notificacao-movel", "notificacao"),)),
    "dores_vehicle_owner_unknown": ("dores-do-indaia", "motor_vehicle", (
        ("notificacoes-do-dia", "notificacoes_do_dia"),
        ("notificacao-afixada", "notificacao_afixada"),
        ("edital-notificacao", "edital_notificacao"),
        ("termo-de-recolhimento", "termo_recolhimento"),
        ("resumo-proprietario", "resumo_proprietario"),
        ("edital-remocao", "edital_remocao"), ("edital-leilao", "edital_leilao"))),
    "dracena_infraction_absent": ("dracena", "infraction", (
        ("auto-de-infracao", "auto_infracao"), ("intimacao", "intimacao"))),
    "dracena_street_vendor": ("dracena", "street_vendor_goods", (
        ("nota-de-apreensao", "nota_apreensao"), ("termo-de-liberacao", "termo_liberacao"))),
    "dracena_abandoned_thing": ("dracena", "abandoned_thing", (
        ("auto-de-apreensao", "registro_apreensao"),
        ("edital-leilao-dracena", "edital_leilao"))),
}
#: The first page of these is shown in the project README (docs/samples/png/<name>.png).
PREVIEWS = ("notificacao", "notificacao-afixada", "termo-de-recolhimento", "auto-de-infracao")
START = datetime(2026, 11, 30, 13, 0, tzinfo=timezone.utc)  # Monday 30/11/2026, 10:00 in SP
WHERE = {"dores-do-indaia": (-19.4628, -45.6003), "dracena": (-21.4843, -51.5353)}
#: Where each Dores scenario's object is (places the Nominatim stand-in knows, far enough apart
#: not to be taken for the same report): Rua Getúlio Vargas, 100; Rua Sete de Setembro, 45;
#: Rua Padre Marinho, 33.
SPOTS = {"dores_vehicle_owner_known": (-19.46212, -45.60098),
         "dores_furniture": (-19.46452, -45.60187),
         "dores_vehicle_owner_unknown": (-19.46718, -45.59655)}
CITIZENS = ("Maria", "Joana", "Paulo", "Rita", "Tiago", "Luísa")
BOTS = {"dores-do-indaia": "ViaLivreDoresBot", "dracena": "ViaLivreDracenaBot"}
OFFICE = {"dores-do-indaia": ("Praça do Rosário, 1, Centro", "(37) 3551-0000",
                              "Av. Brasil, 900, Distrito Industrial"),
          "dracena": ("Rua Brasil, 1144, Centro", "(18) 3821-8200",
                      "Rua Sete de Setembro, 50, Jardim Bela Vista")}
PASSWORD = "amostras-somente-local"
NAMES = ("Ana Ribeiro", "Beto Araújo", "Carla Mendes", "Davi Souza", "Eva Lima", "Fábio Nunes",
         "Gil Castro")  # the inspectors, one per agency of the law


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@dataclass
class World:
    """One law's running system: the core, the bot over the stand-in, the panel's client."""

    core: object
    bot: object
    panel: object
    clock: Clock
    out: dict[str, bytes]
    inspectors: list  # Phone per agency

    def today(self) -> str:
        from core.formatting import fmt_date, local_date
        return fmt_date(local_date(self.clock.now))

    async def sweep(self) -> None:
        """One pass of the bot's sweep loop (lapses, then the inspectors' warnings)."""
        from bot.state import state_of
        from core.services.cases.sweep import sweep_deadlines
        from core.services.inspectors.warnings import inspector_warnings
        await sweep_deadlines(self.core)
        await inspector_warnings(self.core)
        state_of(self.bot.app).outbox_wake.set()
        await asyncio.sleep(0.5)

    async def page(self, url: str) -> str:
        r = await self.panel.get(url)
        text = await r.text()
        if r.status != 200:
            raise RuntimeError(f"{url}: {r.status} {text[:300]}")
        return text

    async def post(self, page_url: str, action: str, data: dict | list) -> object:
        token = re.search(r'name="csrf" value="([^"]+)"', await self.page(page_url)).group(1)
        items = list(data.items()) if isinstance(data, dict) else list(data)
        r = await self.panel.post(action, data=[*items, ("csrf", token)], allow_redirects=False)
        if r.status not in (200, 302, 303):
            raise RuntimeError(f"{action}: {r.status} {(await r.text())[:500]}")
        return r

    async def file(self, url: str) -> bytes:
        r = await self.panel.get(url)
        if r.status != 200:
            raise RuntimeError(f"{url}: {r.status}")
        return await r.read()


# -- the people ---------------------------------------------------------------------------------

async def report(w: World, citizen, category_label: str, where: tuple[float, float],
                 plate: str = "ABC1D23", words: str = "Em frente à padaria") -> str:
    """A citizen's report in the chat, answering what the bot asks; the protocol."""
    await citizen.command("denunciar", expect="O que você quer denunciar")
    await citizen.press(category_label, expect="Envie de 1 a 10 fotos")
    await citizen.photo(expect="1 foto recebida")
    await citizen.press("Pronto", expect="Onde fica")
    await citizen.location(*where, expect="")
    for _ in range(20):
        await asyncio.sleep(0.05)
        text = citizen.last().text or ""
        buttons = [b.text for b in citizen.last().flat_buttons()]
        if "Protocolo:" in text:
            return text.split("Protocolo: ")[1].split()[0]
        if text.startswith("Atualização do protocolo"):  # assigned at once: the receipt before
            said = [m.text or "" for m in citizen.h.api.messages(citizen.user)]
            return next(t for t in reversed(said) if "Protocolo:" in t
                        ).split("Protocolo: ")[1].split()[0]
        if "Confira sua denúncia" in text:
            await citizen.press("Confirmar", expect="Protocolo:")
        elif "placa" in text.lower() and "Qual" in text:
            await citizen.send(plate, expect="")
        elif "Qual é a cor" in text:
            await citizen.send("prata", expect="")
        elif "marca e o modelo" in text:
            await citizen.send("VW Gol", expect="")
        elif "Há quanto tempo" in text:
            await citizen.press(next((b for b in buttons if "Mais de 30" in b), buttons[0]),
                                expect="")
        elif "sinais" in text and "Continuar" in " ".join(buttons):
            await citizen.press(next(b for b in buttons if b not in ("Continuar", "Cancelar")))
            await citizen.press("Continuar", expect="")
        elif "acrescentar" in text or "Descreva" in text:
            await citizen.send(words, expect="")
        elif "Pular" in " ".join(buttons):
            await citizen.press("Pular", expect="")
        else:
            raise RuntimeError(f"citizen: no answer for {text!r}")
    raise RuntimeError("report did not end")


async def holder(w: World, protocol: str, heading: str = "Nova tarefa"):
    """The inspector whose chat got the task for `protocol`."""
    call = await w.bot.api.wait_for(
        method="sendMessage", since=0, timeout=30,
        predicate=lambda c: f"{heading} — protocolo {protocol}" in (c.params.get("text") or ""))
    return next(p for p in w.inspectors if str(p.user.id) == str(call.params["chat_id"]))


async def open_case(phone, protocol: str, accept: bool = True) -> None:
    if accept and any("Aceitar" in b.text for m in phone.h.api.messages(phone.user)
                      for b in m.flat_buttons()):
        try:
            await phone.press("Aceitar", expect=f"Protocolo {protocol}")
            return
        except (RuntimeError, AssertionError):
            pass
    await phone.command("tarefas", expect="")
    await phone.press(f"Abrir {protocol}", expect=f"Protocolo {protocol}")


async def edital(w: World, kind: str, number: str) -> bytes:
    return await w.file(f"/diario-oficial/{kind}.pdf?number={number}&signer=Carlos+Souza"
                        "&role=Secret%C3%A1rio+de+Administra%C3%A7%C3%A3o")


async def publish(w: World, kind: str, protocols: list[str], reference: str) -> None:
    await w.post("/diario-oficial", f"/diario-oficial/{kind}/publicar",
                 [*(("p", p) for p in protocols), ("date", w.today()),
                  ("reference", reference)])


# -- the scenarios ------------------------------------------------------------------------------

async def dores_vehicle_owner_known(w: World, citizen) -> None:
    protocol = await report(w, citizen, "Veículo motorizado", SPOTS["dores_vehicle_owner_known"])
    ana = await holder(w, protocol)
    await open_case(ana, protocol)
    mark = w.bot.api.mark()
    await ana.fill_step("Notificar")
    w.out["notificacao"] = await ana.document("notificacao-", since=mark)


async def _dores_unknown(w: World, citizen) -> None:
    from sandbox.standin.botapi import User
    from docs.sample_phone import Phone
    protocol = await report(w, citizen, "Veículo motorizado",
                            SPOTS["dores_vehicle_owner_unknown"], plate="QRS4E56", words="Parado há meses na esquina, sem pneus")
    ana = await holder(w, protocol)
    await open_case(ana, protocol)
    mark = w.bot.api.mark()
    await ana.command("notificacoes", expect="Notificações do dia")
    w.out["notificacoes-do-dia"] = await ana.document("Notificações do dia", since=mark)
    await ana.command("tarefas", expect="")
    await ana.press(f"Abrir {protocol}", expect=f"Protocolo {protocol}")
    mark = w.bot.api.mark()
    await ana.fill_step("Afixar notificação", {"papel afixado": "Impressa do dia"})
    w.out["notificacao-afixada"] = await ana.document("notificacao-afixada", since=mark)
    await ana.photo(expect="ecebid")
    await ana.press("Pronto", expect="Foto da notificação afixada registrada")
    w.out["edital-notificacao"] = await edital(w, "notificacao", "101/2026")
    await publish(w, "notificacao", [protocol], "DOM nº 100, p. 3")
    w.clock.now += timedelta(days=11)  # the 10 days from the publication (Art. 4º, II, b)
    await w.sweep()
    ana = await holder(w, protocol, "Remoção devida")
    await open_case(ana, protocol, accept=False)
    await ana.fill_step("Iniciar remoção")
    await ana.said(f"Protocolo {protocol} —", since=w.bot.api.mark() - 5)
    mark = w.bot.api.mark()
    await ana.fill_step("Entrada no pátio", {"data e hora do recolhimento": "skip"})
    w.out["termo-de-recolhimento"] = await ana.document("termo-de-recolhimento", since=mark)
    owner = Phone(w.bot, User(7001, "José"), w.today)
    code = re.search(r"start=([A-Z0-9-]+)", _pdf_text(w.out["notificacao-afixada"])
                     .replace(" ", "")).group(1)
    await owner.command("start", code, expect="")
    mark = w.bot.api.mark()
    await owner.press("Resumo em PDF", expect="", method="sendDocument")
    w.out["resumo-proprietario"] = await owner.document("resumo", since=mark)
    w.out["edital-remocao"] = await edital(w, "remocao", "102/2026")
    await publish(w, "remocao", [protocol], "DOM nº 105, p. 2")
    w.clock.now += timedelta(days=61)  # Art. 3º: 60 days in the depot
    await w.sweep()
    w.out["edital-leilao"] = await edital(w, "leilao", "140/2027")


async def dores_furniture(w: World, citizen) -> None:
    protocol = await report(w, citizen, "Móvel de grande porte", SPOTS["dores_furniture"],
                            words="Sofá de três lugares largado na calçada")
    who = await holder(w, protocol)
    await open_case(who, protocol)
    mark = w.bot.api.mark()
    await who.fill_step("Notificar")
    w.out["notificacao-movel"] = await who.document("notificacao-", since=mark)


async def dracena_infraction_absent(w: World, citizen) -> None:
    protocol = await report(w, citizen, "Infração", WHERE["dracena"],
                            words="Entulho sobre a calçada")
    ana = await holder(w, protocol)
    await open_case(ana, protocol)
    mark = w.bot.api.mark()
    await ana.fill_step("Auto sem o infrator")
    w.out["auto-de-infracao"] = await ana.document("auto-de-infracao", since=mark)
    await ana.said(f"Protocolo {protocol} —", since=mark)
    mark = w.bot.api.mark()
    await ana.fill_step("Registrar intimação")
    w.out["intimacao"] = await ana.document("intimacao-", since=mark)


async def dracena_street_vendor(w: World, citizen) -> None:
    protocol = await report(w, citizen, "ambulante", WHERE["dracena"],
                            words="Banca de óculos e capinhas na praça")
    ana = await holder(w, protocol)
    await open_case(ana, protocol)
    mark = w.bot.api.mark()
    await ana.fill_step("Nota simplificada", {"peso": "4,5"})
    w.out["nota-de-apreensao"] = await ana.document("nota-de-apreensao", since=mark)
    w.out["termo-de-liberacao"] = await released(w, protocol)


async def released(w: World, protocol: str) -> bytes:
    """The city sets its current keeping value (Dracena Art. 7º, b), the clerk records the
    vendor's PIX and releases the goods on the case page ("Liberar", Art. 7º): the Termo de
    liberação as the panel serves it."""
    from core.services.staff.release import release_form
    await w.post("/tarifas", "/tarifas", {
        "code": "goods_kg_day", "amount": "0,50", "valid_from": w.today(),
        "article": "Art. 7º, b", "source": "Decreto municipal nº 10/2026"})
    case = f"/casos/{protocol}"
    total = (await release_form(w.core, protocol)).statement.total
    await w.post(case, f"{case}/pagamento", {
        "reference": "E00038166202612011200abcDEF12345", "paid_on": w.today(),
        "amount": f"{total:.2f}".replace(".", ",")})
    ticks = re.findall(r'name="(cond_[a-z_]+)"', await w.page(case))
    await w.post(case, f"{case}/liberar", [*((t, "1") for t in ticks), (
        "name", "Vendedor Ambulante da Silva"), ("document", "529.982.247-25"),
        ("id_kind", "RG"), ("id_number", "12.345.678-9")])
    link = re.search(r'<a href="(/evidencias/[0-9a-f]{64})">Termo de liberação</a>',
                     await w.page(case)).group(1)
    return await w.file(link)


async def dracena_abandoned_thing(w: World, citizen) -> None:
    protocol = await report(w, citizen, "Outras coisas abandonadas", WHERE["dracena"],
                            words="Carrinho de lanches largado na praça")
    ana = await holder(w, protocol)
    await open_case(ana, protocol)
    mark = w.bot.api.mark()
    await ana.fill_step("Apreender")
    w.out["auto-de-apreensao"] = await ana.document("auto-de-infracao-e-apreensao",
                                                  since=mark)
    w.clock.now += timedelta(days=3)  # Art. 4º, §2º: the 48 hours to appeal
    await w.sweep()
    w.out["edital-leilao-dracena"] = await edital(w, "leilao", "12/2026")


RUN: dict[str, Callable[..., Awaitable[None]]] = {
    "dores_vehicle_owner_known": dores_vehicle_owner_known,
    "dores_furniture": dores_furniture,
    "dores_vehicle_owner_unknown": _dores_unknown,
    "dracena_infraction_absent": dracena_infraction_absent,
    "dracena_street_vendor": dracena_street_vendor,
    "dracena_abandoned_thing": dracena_abandoned_thing,
}


def _pdf_text(blob: bytes) -> str:
    import io
    from pypdf import PdfReader
    return " ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(blob)).pages)


# -- running a law ------------------------------------------------------------------------------

async def run_law(slug: str, names: list[str], data_dir: Path) -> dict[str, bytes]:
    from aiohttp.test_utils import TestClient, TestServer

    from admin.app import create_app
    from sandbox.harness import BotHarness
    from sandbox.standin.botapi import User
    from core.services.context import Core
    from core.services.staff.accounts import create_user
    from core.settings import Settings
    from docs.sample_phone import Phone

    address, phone, depot = OFFICE[slug]
    settings = Settings(_env_file=None, municipality=slug, data_dir=data_dir,
                        telegram_bot_username=BOTS[slug], office_address=address,
                        office_phone=phone, depot_address=depot, database_url="")
    clock = Clock()
    core = await Core.open(settings, clock=clock)
    await create_user(core, "secretaria", PASSWORD, "admin")  # `python -m admin create-user`
    out: dict[str, bytes] = {}
    try:
        async with BotHarness(core) as bot, \
                TestClient(TestServer(create_app(core))) as panel:
            page = await panel.get("/login")
            token = re.search(r'name="csrf" value="([^"]+)"', await page.text()).group(1)
            await panel.post("/login", data={"username": "secretaria", "password": PASSWORD,
                                             "csrf": token, "next": "/"})
            w = World(core, bot, panel, clock, out, [])
            for k, agency in enumerate(core.law.agencies.values()):
                name = NAMES[k % len(NAMES)]
                r = await w.post("/fiscais", "/fiscais/convidar", {
                    "name": name, "agency": agency.code, "matricula": f"12.34{k}-6"})
                code = re.search(r"\b[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}\b",
                                 await r.text()).group(0)
                p = Phone(bot, User(900 + k, name.split()[0]), w.today)
                await p.command("fiscal", code, expect="Conta vinculada")
                w.inspectors.append(p)
            for name in names:  # each scenario's own citizen, who gets its case's news
                k = list(SCENARIOS).index(name)
                await RUN[name](w, Phone(bot, User(600 + k, CITIZENS[k % len(CITIZENS)]),
                                         w.today))
    finally:
        await core.close()
    return out


def write(folder: Path, names: list[str] | None = None) -> dict[str, Path]:
    """Run the scenarios (all, or `names`), write their PDFs and the PNG previews."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    names = names or list(SCENARIOS)
    written: dict[str, Path] = {}
    for slug in dict.fromkeys(SCENARIOS[n][0] for n in names):
        with tempfile.TemporaryDirectory(prefix="vialivre-samples-") as tmp:
            got = asyncio.run(run_law(slug, [n for n in names if SCENARIOS[n][0] == slug],
                                      Path(tmp)))
        for stem, blob in got.items():
            path = folder / f"{stem}.pdf"
            path.write_bytes(blob)
            written[stem] = path
    if shutil.which("pdftoppm"):
        (folder / "png").mkdir(exist_ok=True)
        for stem in PREVIEWS:
            if stem in written:
                subprocess.run(["pdftoppm", "-png", "-r", "45", "-f", "1", "-l", "1",
                                "-singlefile", str(written[stem]),
                                str(folder / "png" / stem)], check=True)
    return written


def main(argv: list[str]) -> int:
    if not argv:
        print("uso: python -m docs.samples PASTA [CENÁRIO ...]", file=sys.stderr)
        return 2
    for stem, path in write(Path(argv[0]), argv[1:] or None).items():
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
