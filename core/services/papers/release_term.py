"""The Termo de liberação of a case (core.documents.release_term), built from the release record
the release step left on the timeline (core.services.staff.release: who collected, the
document, the attorney's reference, the statement and the payments at that moment), kept as
evidence like every legal document (core.services.papers.documents.keep). Issuing it again
prints the same record: the statement is the frozen copy, never today's."""
from __future__ import annotations

from datetime import date, datetime, timezone
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core import documents as pdfs
from core.documents.release_term import FeeRow, PaymentRow, ReleaseTermData
from core.formatting import TZ, fmt_cpf_cnpj, fmt_date, fmt_money, fmt_time
from core.fees import money
from core.identifiers import format_case_code
from core.services.cases.transitions import case_facts, load_case
from core.services.context import Core
from core.services.errors import InvalidInput
from core.services.papers.documents import Issued, depot, header, keep
from core.services.papers.facts import Recorded, object_data, seized_items
from core.storage.models import Event
from core.storage.timeline import ActorRef

#: The timeline event holding the release record (private: it carries a CPF).
RECORD = "release_recorded"
KIND = "termo_liberacao"
LABEL = "Termo de liberação"
CAPACITY = {"owner": "Proprietário(a) ou responsável pelo bem",
            "attorney": "Procurador(a) do(a) proprietário(a), com procuração pública"}


def _local(at: datetime) -> datetime:
    return (at if at.tzinfo else at.replace(tzinfo=timezone.utc)).astimezone(TZ)


def _moment(at: datetime) -> str:
    local = _local(at)
    return f"{fmt_date(local)} às {fmt_time(local)}"


def _detail(line: dict) -> str:
    """"3 × R$ 30,00" for a tariff line with a quantity, "" for a given amount."""
    if not line.get("tariff"):
        return ""
    qty = Decimal(line["quantity"])
    shown = f"{qty.normalize():f}".replace(".", ",")
    return f"{shown} × {fmt_money(money(line['unit_value']))}"


async def issue_release_term(core: Core, protocol: str, by: ActorRef, *,
                             session: AsyncSession | None = None,
                             recorded: Recorded | None = None) -> Issued:
    """The Termo de liberação (two vias) of the case's release record."""
    async with core.transaction(session) as s:
        case = await load_case(s, protocol, for_update=True)
        core = core.for_case(case)  # the case's city: header, law, depot
        ev = (await s.execute(select(Event).where(Event.case_id == case.id,
                                                  Event.action == RECORD)
                              .order_by(Event.seq.desc()).limit(1))).scalar_one_or_none()
        if ev is None:
            raise InvalidInput("O termo de liberação só é emitido depois de registrada a "
                               "liberação do bem (Liberar, na página do caso).")
        r = ev.data or {}
        who = r["collector"]
        step = core.law.tracks[case.track].transitions.get(r.get("step", ""))
        stmt = r["statement"]
        facts = case_facts(case)
        power = who.get("power_of_attorney") or ""
        data = ReleaseTermData(
            header=header(core), number=case.protocol,
            case_code=format_case_code(case.case_code), law_name=core.law.title,
            step_article=step.article if step else "",
            obj=object_data(core, case), goods=_goods(facts), depot=_depot_line(core, facts.get("depot")),
            collector_name=who["name"], collector_document=fmt_cpf_cnpj(who["document"]),
            id_document=f"{who['id_kind']} nº {who['id_number']}",
            capacity=CAPACITY.get(who.get("capacity", ""), CAPACITY["owner"]),
            power_of_attorney=power,
            conditions=tuple((label, article) for _code, label, article in r["conditions"]),
            fees_as_of=_moment(datetime.fromisoformat(stmt["as_of"])),
            fees=tuple(FeeRow(ln["label"], ln["article"], _detail(ln),
                              fmt_money(money(ln["amount"]))) for ln in stmt["lines"]),
            fees_total=fmt_money(money(stmt["total"])),
            payments=tuple(PaymentRow(p["method"], p["reference"],
                                      fmt_date(date.fromisoformat(p["paid_on"])),
                                      fmt_money(money(p["amount"]))) for p in r["payments"]),
            paid_total=fmt_money(money(r["paid_total"])),
            staff_name=ev.actor_name or "", released_at=_moment(ev.at),
            generated_at=_local(ev.at))
        return await keep(core, s, case, by, KIND, f"termo-de-liberacao-{case.protocol}.pdf",
                          pdfs.release_term_pdf(data), step.article if step else None)


def _goods(facts: dict) -> str:
    """What was seized, as the agent recorded it (Dracena Art. 4º, §1º: the note's list;
    Art. 6º: the depot register), "" when the object is described by its boxes alone."""
    items = seized_items(facts.get("goods_list") or facts.get("goods_description"))
    return "; ".join(i.description for i in items)


def _depot_line(core: Core, name: object) -> str:
    d = depot(core, str(name or "") or None)
    return f"{d.name} — {d.address}"
