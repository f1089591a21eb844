"""The case page speaks Portuguese: a case taken through many real steps (report with the
citizen's make, model, colour and time in place; automatic task; acceptance; notification of
the owner, Dores Art. 4º, I; the owner's statement, Art. 6º, §3º; removal, Art. 6º; depot
entry, Art. 3º, §3º) shows every fact and event with its label, never a raw key like
`owner_statement_kind`; the neighbourhood once; and the inspector's task card carries what
the citizen told."""
from __future__ import annotations

import re
from html.parser import HTMLParser

from sqlalchemy import select

from bot.inspector import card
from core.services.inspectors.task_list import case_card
from core.storage.models import OutboxMessage
from tests.support.panel import new_case
from tests.support.panel_cases import INSPECTOR, lived_case

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


class _Text(HTMLParser):
    """The words a reader sees (no tags, attributes, scripts or styles)."""

    def __init__(self):
        super().__init__()
        self.parts, self._skip = [], 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        self._skip -= tag in ("script", "style") and self._skip > 0

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    p = _Text()
    p.feed(html)
    return " ".join(" ".join(p.parts).split())


async def test_case_page_shows_no_raw_key_after_many_real_steps(panel, photo):
    sub, _ = await lived_case(panel.core, photo)
    async with panel.client("bruno") as c:
        html = await (await c.get(f"/casos/{sub.protocol}")).text()
    text = visible_text(html)
    assert "Declaração do proprietário" in text  # the owner's statement is there...
    assert SNAKE.findall(text) == []  # ...and no fact or event shows its code
    for said in ("Fiat Uno", "prata", "mais de 3 meses"):
        assert said in text
    assert text.count("Vila Nova") == 1  # the neighbourhood once
    code = sub.case_code  # the owner's code in its one printed form, as on the notice: K7QM-42XD
    assert f"código {code[:4]}-{code[4:]}" in text


async def test_inspector_sees_what_the_citizen_told_in_the_task_and_the_card(panel, photo):
    core = panel.core
    sub, _ = await lived_case(core, photo)
    async with core.db.read() as s:
        offer = (await s.execute(select(OutboxMessage).where(
            OutboxMessage.chat_id == INSPECTOR, OutboxMessage.kind == "task_offer"))
            ).scalars().first()
    told = ("Informado pelo cidadão (confira no local): marca/modelo: Fiat Uno; cor: prata; "
            "tempo no local: mais de 3 meses")
    assert told in offer.payload["text"]
    text = card.render(await case_card(core, INSPECTOR, sub.protocol))
    assert told in text
    assert "Endereço: Rua Goiás, 120 · Vila Nova" in text


async def test_neighbourhood_shown_once_when_the_address_names_it(panel, photo):
    sub = await new_case(panel.core, photo, 3, address="Rua Goiás, 120 - Vila Nova, Dores",
                         neighbourhood="Vila Nova")
    async with panel.client("bruno") as c:
        text = visible_text(await (await c.get(f"/casos/{sub.protocol}")).text())
    facts = text[text.index("Dados"):text.index("Proprietário")]
    assert "Endereço Rua Goiás, 120 - Vila Nova, Dores" in facts
    assert facts.count("Vila Nova") == 1  # not "…Vila Nova, Dores · Vila Nova"


def test_codes_inside_an_event_are_words_whatever_key_holds_them(core):
    """A state, a step or a deadline held under a key the panel has no label for (e.g. the
    deadline that was running before the owner's "Vou retirar", Art. 6º, §3º) is shown in
    words: never `owner_notified`, `notify_owner` or `lapse_deadline`."""
    from admin.fact_text import fact_rows
    lc = core.law.tracks["dores_vehicle"]
    rows = fact_rows(core, lc, {
        "restored_deadline": {"due": "2026-12-11", "article": "Art. 4º, I",
                              "description": "retirar o veículo do espaço público",
                              "transition": "notify_owner", "on_lapse": "lapse_deadline",
                              "state": "owner_notified"},
        "state_before": "owner_notified", "steps": ["notify_owner", "lapse_deadline"],
        "running": {"transition": "notify_owner", "on_lapse": "lapse_deadline"}})
    text = " ".join(f"{label}: {value}" for label, value in rows)
    assert "retirar o veículo do espaço público até 11/12/2026 (Art. 4º, I)" in text
    assert lc.states["owner_notified"].label in text
    assert lc.transitions["lapse_deadline"].label in text
    assert SNAKE.findall(text) == []
