"""Dashboard, case list, case page and the staff's actions on a case."""
from __future__ import annotations

from decimal import Decimal

from aiohttp import web

from admin import params, views_release
from admin.files import file_response
from admin.fact_text import present
from admin.forms import fields_for, parse_fact
from admin.city_guard import visible_dead_letters
from admin.web import CORE, core_of, redirect, render, require, user_of
from core.parsing import parse_money
from core.lifecycle import Actor
from core.services import staff as pq
from core.services.errors import InvalidInput, NotFound
from core.formatting import fmt_money
from core.services.messaging import delivery
from core.services.staff import payment_records
from core.services.papers import reissue
from core.services.inspectors import tasks
from core.services.citizens import followup
from core.services.staff.duplicates import close_as_duplicate
from core.services.staff.queue import staff_queue
from core.services.cases.steps import take_step

SPECIAL = {"close_duplicate"}


@require()
async def dashboard(request: web.Request) -> web.Response:
    core = core_of(request)
    data = await pq.dashboard(core)
    return render(request, "dashboard.html", {
        "d": data, "queue": await staff_queue(core),
        "dead_letters": len(await visible_dead_letters(request, core)) if core.many_cities
        else await delivery.dead_letter_count(core)})


@require()
async def queue_page(request: web.Request) -> web.Response:
    """The staff's queue: cases waiting for an inspector, oldest first, each with a choice of
    the active inspectors competent for its next step."""
    core = core_of(request)
    return render(request, "queue.html", {"queue": await staff_queue(core),
                                          "inspectors": await pq.inspectors(core, True)})


def filter_from(request: web.Request) -> pq.CaseFilter:
    """The case list's (and the CSV export's) filters, each checked (admin.params)."""
    q = request.query
    return pq.CaseFilter(state=params.text(q.get("state"), "Situação", 80),
                         category=params.text(q.get("category"), "Categoria", 80),
                         neighbourhood=params.text(q.get("neighbourhood"), "Bairro"),
                         q=params.text(q.get("q"), "Busca", 40), open_only=q.get("open") == "1",
                         date_from=params.date_br(q.get("date_from"), "Data inicial"),
                         date_to=params.date_br(q.get("date_to"), "Data final"),
                         inspector_id=params.int_id(q.get("inspector"), "Fiscal"))


def _states(core) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for lc in core.law.tracks.values():
        for st in lc.states.values():
            seen.setdefault(st.code, st.label)
    return sorted(seen.items(), key=lambda x: x[1])


@require()
async def case_list(request: web.Request) -> web.Response:
    core = core_of(request)
    f = filter_from(request)
    page = await pq.list_cases(core, f, params.cursor(request.query.get("after")))
    kept = {k: v for k, v in request.query.items() if k != "after" and v}
    return render(request, "cases.html", {
        "page": page, "f": f, "states": _states(core), "params": kept,
        "raw": request.query, "inspectors": await pq.inspectors(core)})


def _optional(core, t, case) -> tuple[str, ...]:
    """The step's optional facts that apply to the case's category (Law.category_facts:
    Dracena Art. 7º, a — animals for livestock; b — kilograms for goods)."""
    return tuple(o for o in t.optional if core.law.asks_fact(o, case.category))


@require()
async def case_page(request: web.Request) -> web.Response:
    core = core_of(request)
    d = present(core, await pq.case_detail(core, request.match_info["protocol"]))
    forms = []
    for t in d.actions:
        if t.code in core.law.release_steps:  # its own form: the release at the depot
            continue
        needed = tuple(r for r in t.requires if r not in d.facts or r == "reason")
        if t.code == "auction":
            needed = t.requires
        forms.append((t, fields_for(d.lifecycle, (*needed, *_optional(core, t, d.case)))))
    inspectors = await pq.inspectors(core, only_active=True) if d.case.is_open else []
    return render(request, "case.html", {
        "d": d, "c": d.case, "forms": forms, "can_assign": d.case.is_open,
        "inspectors": inspectors, "criteria": core.law.criteria,
        "release": await views_release.release_panel(request, d.case.protocol),
        "tile_url": core.settings.map_tile_url,
        "reissuable": await reissue.issued_documents(core, d.case.protocol)})


@require()
async def reissue_document(request: web.Request) -> web.Response:
    """"Emitir de novo": the legal document as first issued, downloaded as a PDF."""
    _sha, filename, blob = await reissue.reissue(
        core_of(request), request.match_info["protocol"], request.match_info["kind"],
        user_of(request).actor())
    return file_response(blob, filename.removesuffix(".pdf"), cache="no-store")


@require()
async def case_action(request: web.Request) -> web.StreamResponse:
    core = core_of(request)
    user = user_of(request)
    protocol, code = request.match_info["protocol"], request.match_info["code"]
    form = await request.post()
    d = await pq.case_detail(core, protocol)
    t = d.lifecycle.transitions.get(code)
    allowed = {a.code for a in d.lifecycle.available(d.case.state, Actor.STAFF)}
    if t is None or code not in allowed:
        raise InvalidInput("Esta ação não está disponível para servidores neste momento do "
                           "procedimento.")
    if code in core.law.release_steps:  # Dores Art. 3º, §3º; Dracena Art. 7º: the checklist
        raise InvalidInput("A liberação é registrada pelo formulário “Liberar” da página do "
                           "caso: condição por condição, com quem retira e os pagamentos.")
    back = f"/casos/{d.case.protocol}"
    if code == "close_duplicate":
        await close_as_duplicate(core, d.case.protocol, str(form.get("duplicate_of", "")),
                                 str(form.get("reason", "")), user)
        raise redirect(request, back, "Caso encerrado como duplicado e incorporado ao original.")
    facts = {}
    for field in fields_for(d.lifecycle, (*t.requires, *_optional(core, t, d.case))):
        value = parse_fact(field, form, core.tz)
        if value not in (None, "", []):
            facts[field.name] = value
    if code == followup.REOPEN:  # an answer given by phone or e-mail: the inspector told now
        done = await followup.reopen_on_answer(core, d.case.protocol, facts, user.actor())
        who = (f"Tarefa oferecida a {done.inspector_name}." if done.inspector_name else
               "Nenhum fiscal competente ativo: o caso está na fila de atribuição.")
        raise redirect(request, back, f"Registrado: {t.label}. {who}")
    if code == "auction" and facts.get("auction_proceeds"):
        taxes = parse_money(str(form.get("taxes", "") or "0"))
        split = await pq.auction_split(core, d.case.protocol,
                                       Decimal(facts["auction_proceeds"]), taxes)
        facts["auction_split"] = [[s.recipient, str(s.amount)] for s in split]
    taken = await take_step(core, d.case.protocol, code, user.actor(), facts)  # with its document
    issued = "".join(f" Documento emitido: {name} (em Documentos)."
                     for _, name, _ in taken.documents)
    raise redirect(request, back, f"Registrado: {t.label}.{issued}")


@require()
async def record_payment(request: web.Request) -> web.StreamResponse:
    """POST /casos/{protocol}/pagamento: the payment of the depot's fees (the PIX end-to-end
    id or the guia's number, the amount, the date); a different amount is shown with its
    difference."""
    form = await request.post()
    protocol = request.match_info["protocol"]
    done = await payment_records.record_payment(
        core_of(request), protocol, params.text(form.get("amount"), "Valor pago", 40),
        params.text(form.get("paid_on"), "Data do pagamento", 40),
        params.text(form.get("reference"), "Identificador", 80), user_of(request).actor())
    raise redirect(request, f"/casos/{protocol}", f"Pagamento registrado: "
                   f"{fmt_money(done.amount)} — {done.words}. O proprietário foi avisado.")


@require()
async def assign(request: web.Request) -> web.StreamResponse:
    core = core_of(request)
    form = await request.post()
    protocol = request.match_info["protocol"]
    inspector_id = params.int_id(form.get("inspector_id"), "Fiscal")
    if inspector_id is None:
        raise InvalidInput("Escolha um fiscal.")
    done = await tasks.assign_case(core, protocol, inspector_id, user_of(request).actor())
    if form.get("back") == "fila":  # assigned from the staff's queue: back to it
        raise redirect(request, "/fila", f"Caso {done.protocol} atribuído a "
                       f"{done.inspector_name}; o fiscal foi avisado.")
    raise redirect(request, f"/casos/{protocol}", "Caso atribuído; o fiscal foi avisado.")


@require()
async def evidence_file(request: web.Request) -> web.StreamResponse:
    core = core_of(request)
    sha = request.match_info["sha"]
    ev = await pq.evidence_of(core, sha)
    if ev is None:
        raise NotFound("Arquivo não encontrado.")
    try:
        data = await core.evidence.aget(sha)
    except (FileNotFoundError, ValueError):
        raise web.HTTPNotFound(text="Arquivo ausente ou corrompido no armazenamento.") from None
    return file_response(data, f"evidencia-{sha[:12]}")


_ = CORE
