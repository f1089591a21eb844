"""The owner's printable summary: a one-page PDF of the conditions, fees and deadlines of
their case (core.documents), from the same view the bot shows."""
from __future__ import annotations

from decimal import Decimal

from core import documents
from core.documents import data as doc
from core.formatting import date_in_full, fmt_date
from core.identifiers import format_case_code
from core.services.papers.facts import object_data
from core.services.papers.placeholders import depot_address
from core.services.context import Core
from core.services.owners.access import owned
from core.services.owners.view import owner_view


async def owner_summary_pdf(core: Core, telegram_id: int, case_code: str, *,
                            bot_username: str = "") -> bytes:
    """A one-page PDF of the owner's conditions, fees and deadlines (core.documents)."""
    view = await owner_view(core, telegram_id, case_code)
    async with core.db.read() as s:
        case, _ = await owned(s, telegram_id, case_code)
    core = core.for_case(case)  # the case's city header, law, depot and PIX
    law = core.law
    facts = (case.details or {}).get("facts", {})
    obj = object_data(core, case)  # the reviewed facts, as on the legal papers
    none = doc.DeadlineText("sem prazo em curso", "—", "—", "")
    d = view.deadline_shown  # once: a depot date may state it (dates below)
    deadline = doc.DeadlineText(d.due_in_full, fmt_date(d.due), d.article, d.explanation) \
        if d else none
    dep = view.depot
    auction = none
    if dep and dep.auction_after:
        auction = doc.DeadlineText(date_in_full(dep.auction_after), fmt_date(dep.auction_after),
                                   dep.auction_article, "")
    fees = tuple(doc.FeeLine(f.label, f.article, f.quantity, f.unit_value,
                             fmt_date(f.valid_from) if f.valid_from else "—", f.amount)
                 for f in (dep.fees.lines if dep and dep.fees else ()))
    release = tuple(doc.ReleaseItem(r.label, r.article, r.documents)
                    for r in (dep.release if dep else law.release_checklist(case.category)))
    pay = dep.payment if dep else None
    data = doc.OwnerSummaryData(
        header=doc.CityHeader(core.city.name, core.city.uf, law.title, law.slug),
        case_code=format_case_code(case.case_code),
        obj=obj, state=view.state_label, deadline=deadline, release=release, fees=fees,
        per_day=dep.fees.per_day if dep and dep.fees else Decimal("0"),
        per_day_article=dep.fees.per_day_article if dep and dep.fees else "—",
        depot=doc.Depot(str(facts.get("depot") or "Pátio municipal"),
                        depot_address(core.city), core.city.depot_hours),
        auction_after=auction, link=doc.OwnerLink(bot_username or getattr(core.settings, "telegram_bot_username", "")
                           or "ViaLivreBot", case.case_code),
        generated_at=core.now().astimezone(core.tz),
        fees_as_of=fmt_date(dep.fees.as_of) if dep and dep.fees else "",
        estimate=bool(dep and dep.fees and dep.fees.estimate),
        dates=tuple(d.paper for d in dep.dates) if dep else (),
        per_day_basis=dep.fees.per_day_basis if dep and dep.fees else "",
        pix=pay.pix if pay else "", pix_txid=pay.txid if pay else "",
        guia=pay.guia if pay else "")
    return documents.owner_summary_pdf(data)
