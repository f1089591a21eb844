"""How the panel words a case's facts and events for a clerk: Portuguese labels for codes
(abandonment signs, categories, missing parts, states, agencies, documents), dd/mm/aaaa dates,
R$ amounts; plumbing (ids, coordinates) hidden, stored files counted."""
from __future__ import annotations

from datetime import date, datetime, timezone
from decimal import Decimal
from typing import Any

from core.documents.data import MISSING_PARTS
from core.facts import MONEY, fact_kind
from core.formatting import fmt_date, fmt_datetime, fmt_money, fmt_place
from core.lifecycle import Lifecycle
from core.services.citizens import followup
from core.services.context import Core
from core.services.cases.deadline_recount import RECOUNT_ACTION, RECOUNT_LABEL
from core.services.messaging.notifications import VIA_OWNER
from core.services.inspectors.step_forms import EXTRA_LABELS as STEP_LABELS
from core.services.papers.kinds import document_kinds
from core.services.staff.case_pages import CaseDetail
from core.formatting import fmt_cpf_cnpj
from core.identifiers import mask_cpf
from core.services.papers.release_term import CAPACITY, RECORD as RELEASE_RECORD
from core.services.staff.payment_records import ACTION as PAYMENT_ACTION

EVENT_LABELS = {"report": "Denúncia registrada", "support": "Apoio de outro cidadão",
                "merge_duplicate": "Denúncia duplicada incorporada",
                "auction_edital": "Edital de leilão publicado",
                "task_offered": "Tarefa oferecida a fiscal", "task_accepted": "Fiscal aceitou a tarefa",
                "task_refused": "Fiscal recusou a tarefa", "task_withdrawn": "Tarefa retirada do fiscal",
                "assignment_pending": "Sem fiscal disponível: aguardando atribuição",
                "document_issued": "Documento emitido",
                "step_photos": "Fotos registradas depois do passo",
                "notice_prepared": "Notificação impressa para afixar (notificações do dia)",
                "owner_statement": "Declaração do proprietário (a verificar pelo fiscal)",
                "owner_statement_withdrawn": "Proprietário desfez a declaração (não é mais "
                                             "preciso verificar)",
                "evidence_purged": "Arquivos apagados ao fim do prazo de guarda",
                "photo_approve": "Foto aprovada para as páginas públicas (LGPD)",
                "photo_hide": "Foto ocultada das páginas públicas (LGPD)",
                "photo_redact": "Áreas da foto borradas à mão na cópia pública (LGPD)",
                "lgpd_unlinked": "Dados pessoais do cidadão eliminados a pedido (LGPD)",
                followup.ASKED: "Cidadão perguntado se o objeto saiu do local (após o "
                                "encerramento)",
                followup.GONE: "Cidadão confirmou que o objeto saiu do local",
                followup.PHOTO: "Foto do cidadão: o objeto continua no local",
                PAYMENT_ACTION: "Pagamento das taxas do pátio registrado",
                RELEASE_RECORD: "Liberação registrada: quem retirou, valores e pagamentos",
                RECOUNT_ACTION: RECOUNT_LABEL}



#: Labels for event data the lifecycle's fact labels do not cover.
EXTRA_FACT_LABELS = {
    "to": "nova situação", "deadline": "prazo", "photos": "fotos", "category": "categoria",
    "plate": "placa", "address": "endereço", "signs": "sinais de abandono informados",
    "duplicate": "denúncia duplicada", "duplicate_of": "caso original",
    "auction_edital_at": "data do edital de leilão no Diário Oficial",
    "auction_edital_reference": "edição do Diário Oficial (edital de leilão)",
    "auction_split": "divisão do valor arrecadado", "inspector_name": "fiscal",
    "agency": "órgão", "agencies": "órgãos", "task": "tarefa nº",
    "owner_identified": "proprietário identificado", "document": "documento",
    "filename": "arquivo", "needs_verification": "a verificar pelo fiscal",
    "retention_days": "prazo de guarda (dias)", "sha256": "arquivos",
    "number": "número", "day": "para o dia",
    "media_urls": "fotos indicadas por endereço (Open311, media_url)",
    "owner_statement_kind": "tipo de declaração", "submitted_via": "registrado por",
    "owner_cpf": "CPF/CNPJ do proprietário/responsável", "auto_number": "número do auto",
    "appeal_attachments": "anexos do recurso",
    "undoes": "desfaz o registro nº", "previous_due": "vencimento anterior",
    "reason": "motivo", "recounts": "passo que iniciou o prazo", "withdrawn_by": "quem desfez a declaração (Telegram) e "
    "como comprovou ser o proprietário", "deadline_passed": "o prazo legal já tinha vencido",
    # what the citizen told in the report (case.details["report"]), not yet verified
    "make_model": "marca/modelo",
    "colour": "cor",
    "time_there": "tempo no local",
    "location_kind": "tipo de local",
    "status": "situação da foto", "boxes": "áreas borradas à mão (% da imagem)",
    "removed": "dados eliminados",
    # a payment staff recorded (core.services.staff.payment_records)
    "payment_method": "forma de pagamento", "payment_reference": "identificador do PIX ou "
    "número da guia", "paid_amount": "valor pago", "paid_on": "data do pagamento",
    "amount_due": "total devido no dia", "payment_difference": "comparado ao total devido",
    # the reporter asked after the closing (core.services.citizens.followup)
    "asked_by": "perguntado por", "answer": "resposta",
}
#: How the panel words a few coded values (the owner's statement, who submitted a step).
VALUE_LABELS = {"owner_statement_kind": {"removed": "já retirei", "will_remove": "vou retirar",
                                         "withdrawn": "declaração desfeita"},
                "submitted_via": {VIA_OWNER: "o proprietário, pelo Telegram"},
                "asked_by": {"telegram": "Telegram", "contact": "contato informado pelo cidadão"},
                "notice_paper": {"prepared": "notificação impressa do dia (mesmo documento)",
                                 "handwritten": "formulário em branco preenchido à mão"}}
#: What the citizen told in the report, in the order the case page shows it.
REPORT_FACTS = ("make_model", "colour", "time_there", "signs", "location_kind")
#: Event data that is internal plumbing, not for reading (ids, coordinates, hashes).
HIDDEN_FACTS = {"from", "lat", "lon", "inspector", "prior_deadline", "inspector_id"}
#: Facts that hold stored files (hashes or Telegram ids): shown as a count.
FILE_FACTS = {"photos", "removal_photos", "notice_photo", "sha256"}


def fact_label(lc: Lifecycle, key: str) -> str:
    label = EXTRA_FACT_LABELS.get(key) or STEP_LABELS.get(key) or lc.label_fact(key)
    return UNLABELLED if label == key and "_" in key else label  # never a code on the page


UNLABELLED = "outro dado registrado"


def _as_list(value: Any) -> list:
    if value in (None, ""):
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _moment(text: str) -> str | None:
    """An ISO date or date-time as dd/mm/aaaa (às hh:mm), or None if it is not one."""
    if not isinstance(text, str) or len(text) < 10 or text[4:5] != "-" or text[7:8] != "-":
        return None
    try:
        if len(text) == 10:
            return fmt_date(date.fromisoformat(text))
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return fmt_datetime(moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc))


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "sim" if value else "não"
    if value in (None, "", [], {}):
        return "—"
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(_plain(v) for v in value.values())
    return _moment(value) or str(value)


def fact_text(core: Core, lc: Lifecycle, key: str, value: Any) -> str:
    """A fact's value as a clerk reads it: Portuguese labels for codes (abandonment signs,
    categories, missing parts, states, agencies), dd/mm/aaaa dates, R$ amounts; an unknown
    code is shown as it is."""
    law = core.law
    if key in ("abandonment_criteria", "signs"):
        labels = {c.code: c.label for c in law.criteria}
        return "; ".join(labels.get(v, str(v)) for v in _as_list(value)) or "—"
    if key == "category":
        return law.categories[value].label if value in law.categories else _plain(value)
    if key == "missing_parts":
        items = _as_list(value)
        return ", ".join(MISSING_PARTS[v].capitalize() if v in MISSING_PARTS else str(v)
                         for v in items) or "nenhum"
    if key == "to":
        return lc.states[value].label if value in lc.states else _plain(value)
    if key in ("agency", "agencies"):
        return ", ".join(law.agencies[a].name if a in law.agencies else str(a)
                         for a in _as_list(value)) or "—"
    if key in FILE_FACTS:
        n = len(_as_list(value))
        return str(n) if key == "photos" else f"{n} arquivo" + ("s" if n != 1 else "")
    if key == "location_kind":
        return next((loc.label for loc in law.locations if loc.code == value), _plain(value))
    if key in VALUE_LABELS:
        return VALUE_LABELS[key].get(value, _plain(value))
    if key == "document":  # the document's name (core.services.papers.kinds)
        kind = document_kinds(law).get(value) if isinstance(value, str) else None
        return kind.label if kind is not None else _plain(value)
    if isinstance(value, dict) and value.get("due"):  # a deadline, whatever holds it
        due = _moment(str(value.get("due") or "")) or "—"
        art = f" ({value['article']})" if value.get("article") else ""
        return f"{value.get('description') or 'prazo'} até {due}{art}"
    if key == "previous_due":
        return _moment(str(value)) or _plain(value)
    if key == "recounts":
        return lc.step_label(str(value)) or _plain(value)
    if key == "auction_split":
        return "; ".join(f"{who}: {fmt_money(Decimal(str(amount)))}"
                         for who, amount in _as_list(value)) or "—"
    if fact_kind(key) == MONEY or key in ("paid_amount", "amount_due"):  # core.facts names the money facts once
        try:
            return fmt_money(Decimal(str(value)))
        except Exception:
            return _plain(value)
    if isinstance(value, dict):  # each value in words, never the codes it holds
        return "; ".join(fact_text(core, lc, k, v) for k, v in value.items()
                         if k not in HIDDEN_FACTS and v not in (None, "", [], {})) or "—"
    if isinstance(value, (list, tuple)):
        return ", ".join(fact_text(core, lc, key, v) for v in value) or "—"
    return _coded(lc, value) or _plain(value)


def _coded(lc: Lifecycle, value: Any) -> str | None:
    """A state's or a step's code (e.g. "owner_notified", "lapse_deadline") as its label."""
    if not isinstance(value, str):
        return None
    if value in lc.states:
        return lc.states[value].label
    if value in lc.transitions:
        return lc.transitions[value].label
    return None


def fact_rows(core: Core, lc: Lifecycle, data: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, text) pairs of an event's data or a case's facts, without plumbing and empty
    values; labels start with a capital letter."""
    out = []
    for key, value in (data or {}).items():
        if key in HIDDEN_FACTS or value in (None, "", [], {}):
            continue
        label = fact_label(lc, key)
        out.append((label[:1].upper() + label[1:], fact_text(core, lc, key, value)))
    return out




def release_rows(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The release record (core.services.staff.release) as the clerk reads it."""
    who = data.get("collector") or {}
    doc = str(who.get("document", ""))
    # a person's CPF masked, as the owner's data on this page (the termo, in Documentos, has it)
    doc = mask_cpf(doc) if len(doc) == 11 else fmt_cpf_cnpj(doc)
    rows = [("Quem retirou", f"{who.get('name', '')}, CPF/CNPJ {doc}, "
                             f"{who.get('id_kind', '')} nº {who.get('id_number', '')}"),
            ("Na qualidade de", CAPACITY.get(who.get("capacity", ""), "—"))]
    if who.get("power_of_attorney"):
        rows.append(("Procuração", who["power_of_attorney"]))
    rows.append(("Condições conferidas", "; ".join(f"{label} ({art})" for _c, label, art
                                                   in data.get("conditions") or ())))
    stmt = data.get("statement") or {}
    rows += [(f"{ln['label']} ({ln['article']})", fmt_money(Decimal(ln["amount"])))
             for ln in stmt.get("lines") or ()]
    rows.append(("Total devido na liberação", fmt_money(Decimal(stmt.get("total") or 0))))
    rows.append(("Total pago", fmt_money(Decimal(data.get("paid_total") or 0))))
    return rows


def present(core: Core, d: CaseDetail) -> CaseDetail:
    """Word `d` for the case page: each timeline entry's label and readable data, the case's
    facts as (label, text) rows, and each issued document's name."""
    lc = d.lifecycle
    for item in d.timeline:
        release = not item.step and item.label == RELEASE_RECORD
        if not item.step:
            item.label = EVENT_LABELS.get(item.label, item.label)
        item.rows = release_rows(item.data) if release else fact_rows(core, lc, item.data)
    d.fact_rows = fact_rows(core, lc, {k: v for k, v in d.facts.items() if k != "category"})
    told = (d.case.details or {}).get("report") or {}
    d.report_rows = fact_rows(core, lc, {k: told.get(k) for k in REPORT_FACTS})
    d.place = fmt_place(d.case.address, d.case.neighbourhood) or "—"
    kinds = document_kinds(core.law)  # each document's name (core.services.papers.kinds)
    d.document_names = {sha: kinds[code].label if code in kinds else name or "Documento"
                        for sha, (code, name) in d.issued.items()}
    return d
