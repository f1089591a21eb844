"""The README's walk ("Your first case, end to end") typed into the sandbox's own terminal
loop (sandbox.terminal.run_sandbox) line by line, each answer it quotes checked in what the
terminal printed after that line; its panel steps clicked in headless Chromium on the panel
the sandbox itself serves (on its demo clock), each label they name found on the page and each
answer they quote read there: the README cannot drift from the bot or the panel."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import AsyncIterator
from zoneinfo import ZoneInfo

from sandbox.terminal import run_sandbox
from tests.support.browser import login

ROOT = Path(__file__).resolve().parents[2]
ITEM = re.compile(r"^(\d+)\. (.*)$")
TYPED = re.compile(r"^`([^`]+)`[^→]*→ (.*)$")
QUOTED = re.compile(r"“([^”]+)”")
BOLD = re.compile(r"\*\*([^*]+)\*\*")


@dataclass(frozen=True)
class Step:
    number: int
    text: str  # the whole item, its lines joined
    typed: str | None  # the line typed in the sandbox; None: a step in the panel
    answers: tuple[str, ...]  # what the README quotes after the arrow

    @property
    def labels(self) -> tuple[str, ...]:
        """The on-screen labels a panel step names (in bold)."""
        return tuple(BOLD.findall(self.text))


def walk() -> list[Step]:
    """The README's numbered steps, in order; its protocols read in this year's numbering (the
    sandbox numbers a report by the real date: the README's example was written in 2026)."""
    text = (ROOT / "README.md").read_text("utf-8")
    section = text.split("## Your first case, end to end", 1)[1].split("\n## ", 1)[0]
    year = datetime.now(ZoneInfo("America/Sao_Paulo")).year
    items: list[list[str]] = []
    for line in section.splitlines():
        if m := ITEM.match(line.strip()):
            items.append([m.group(1), m.group(2)])
        elif items and line.startswith("    ") and line.strip():
            items[-1][1] += " " + line.strip()
        elif not line.strip() and items and len(items[-1]) == 2:
            items[-1].append("")  # the item ended
    steps = []
    for number, body, *_ in items:
        body = body.replace("2026-0000", f"{year}-0000")
        typed = TYPED.match(body)
        after = typed.group(2) if typed else body.partition("→")[2]
        steps.append(Step(int(number), body, typed.group(1) if typed else None,
                          tuple(QUOTED.findall(after))))
    return steps


def test_the_walk_is_in_the_readme():
    steps = walk()
    assert [s.number for s in steps] == list(range(1, len(steps) + 1))
    assert len(steps) >= 53 and steps[0].typed == "/denunciar"
    assert any((s.typed or "").startswith(":relogio") for s in steps)  # past the deadline
    owner = next(s for s in steps if "Valores devidos hoje" in s.answers)
    assert owner.typed == ":eu proprietario" and "br.gov.bcb.pix" in owner.answers  # the PIX
    panel = [s for s in steps if s.typed is None]
    assert len(panel) == len(PANEL) and all(s.labels for s in panel)
    assert any("Termo de liberação" in a for s in panel for a in s.answers)
    assert steps[-1].typed == ":eu proprietario"  # the owner sees the car released


# -- the panel's steps, in the README's order -----------------------------------------------

@dataclass
class Walker:
    page: object
    base: str
    password: str
    protocol: str
    demo_date: str  # "dd/mm/aaaa": the owner's "Valores devidos hoje" date
    total: str  # "280,00"
    termo: bytes = b""
    seen: str = ""  # the pages the step passed through, for the labels it names

    async def look(self) -> None:
        self.seen += await self.page.content()


async def _login(w: Walker) -> None:
    await w.page.goto(f"{w.base}/login")
    await w.look()
    await login(w.page, w.base, "demo", w.password)


async def _open_case(w: Walker) -> None:
    page = w.page
    await page.click("nav >> text=Casos")
    await w.look()
    await page.click(f"a:has-text('{w.protocol}')")
    await page.wait_for_url(f"{w.base}/casos/{w.protocol}")


async def _pay(w: Walker) -> None:
    form = w.page.locator("form.payment-form")
    await form.locator("input[name=reference]").fill("E00000000202612181200DEMO1234567")
    await form.locator("input[name=amount]").fill(w.total)
    await form.locator("input[name=paid_on]").fill(w.demo_date)
    await form.locator("button:has-text('Registrar pagamento')").click()
    await w.page.wait_for_load_state()


async def _tick(w: Walker) -> None:
    boxes = w.page.locator("form.release-form input[type=checkbox][name^=cond_]")
    assert await boxes.count() >= 1
    for i in range(await boxes.count()):
        await boxes.nth(i).check()


async def _who(w: Walker) -> None:
    form = w.page.locator("form.release-form")
    await form.locator("input[name=name]").fill("José da Silva")
    await form.locator("input[name=document]").fill("529.982.247-25")
    await form.locator("select[name=id_kind]").select_option("CNH")
    await form.locator("input[name=id_number]").fill("12345678900")


async def _release(w: Walker) -> None:
    page = w.page
    await page.click("button:has-text('Liberar e emitir o termo de liberação')")
    await page.wait_for_url(f"{w.base}/casos/{w.protocol}")
    link = page.locator("a:has-text('Termo de liberação')").first
    response = await page.request.get(w.base + (await link.get_attribute("href")))
    assert response.ok
    w.termo = await response.body()


PANEL = (_login, _open_case, _pay, _tick, _who, _release)


async def test_the_readme_walk_works_as_written(chromium, tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("ADMIN_PORT", "0")  # the sandbox's panel on a free port
    for name in ("DATABASE_URL", "PIX_KEY", "PIX_MERCHANT_NAME", "PIX_MERCHANT_CITY",
                 "PAYMENT_GUIA_INSTRUCTIONS"):
        monkeypatch.delenv(name, raising=False)
    output: list[str] = []
    missed: list[str] = []
    steps = walk()
    walker: list[Walker] = []

    def printed() -> str:
        return "\n".join(output)

    async def in_panel(step: Step, action) -> None:
        if not walker:
            base = re.search(r"Painel da prefeitura \(aberto pelo sandbox[^)]*\): (http://\S+)"
                             r"/login\n\s+usuário demo, senha (\S+) ", printed())
            assert base, printed()[:1500]
            fees = re.findall(r"Valores devidos hoje \((\d\d/\d\d/\d{4})\)", printed())
            total = re.findall(r"Pagar por PIX: R\$\s*([\d.]+,\d\d)", printed())
            protocol = re.findall(r"Protocolo: (\d{4}-\d{6})", printed())
            walker.append(Walker(await chromium.page(), base.group(1), base.group(2),
                                 protocol[0], fees[-1], total[-1]))
        w = walker[0]
        w.seen = await w.page.content()
        await action(w)
        await w.look()
        shown = await w.page.inner_text("body")
        for label in step.labels:
            if label not in w.seen:
                missed.append(f"step {step.number}: no {label!r} on the page")
        for answer in step.answers:
            if answer not in shown:
                missed.append(f"step {step.number} never showed {answer!r}: {shown[:600]}")

    async def lines() -> AsyncIterator[str]:
        actions = iter(PANEL)
        for step in steps:
            start = len(output)
            if step.typed is None:
                await in_panel(step, next(actions))
                continue
            yield step.typed
            for answer in step.answers:
                if not any(answer in line for line in output[start:]):
                    missed.append(f"{step.typed!r} never answered {answer!r}: "
                                  f"{output[start:][-6:]}")
        yield ":sair"

    await run_sandbox(lines(), output.append)
    assert missed == [], "\n".join(missed)
    text = printed()
    assert "Traceback" not in text and "(s)" not in text and "ERROR" not in text
    assert re.search(r"^Bot #\d+: 000201.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$", text, re.M)
    papers = sorted(p.name for p in (tmp_path / "data" / "sandbox" / "documentos").iterdir())
    assert any("notificacao" in p for p in papers)  # each paper where the walk says
    assert any("termo-de-recolhimento" in p for p in papers)
    termo = walker[0].termo
    assert termo.startswith(b"%PDF")  # the Termo de liberação, from the case's Documentos
    (tmp_path / "termo-de-liberacao.pdf").write_bytes(termo)
