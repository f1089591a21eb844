"""Helpers shared by the law packages: a compact transition builder, guard helpers and the
Portuguese labels of the facts the lifecycles require (the engine names a missing fact by its
label, so what the inspector or staff member sees is Portuguese).

Facts handed to `Lifecycle.check` are the case's accumulated facts merged with the ones the
actor supplies with the action (the guards below read both).
"""
from __future__ import annotations

from datetime import date, datetime
from typing import Any, Iterable, Mapping

from core.lifecycle import Actor, DeadlineRule, Guard, Transition, Undo

A = Actor  # short alias used by the lifecycle modules

#: Portuguese label of every fact a transition may require (shared by all tracks).
FACT_LABELS: dict[str, str] = {
    # diligence and inspection
    "inspection_notes": "relato da vistoria",
    "reviewed_vehicle": "descrição do bem conferida no local (ex.: sofá de 3 lugares, marrom)",
    # the boxes of DADOS DO VEÍCULO (Anexo I), confirmed or filled at the inspection
    "vehicle_make": "marca do veículo (conferida no local)",
    "vehicle_model": "modelo do veículo (conferido no local)",
    "vehicle_colour": "cor do veículo (conferida no local)",
    "vehicle_chassis": "número do chassi (se visível ou conhecido)",
    "vehicle_renavam": "RENAVAM (se conhecido)",
    "plate_municipality": "município da placa (se conhecido)",
    "plate_uf": "UF da placa (sigla, ex.: MG)",
    "abandonment_criteria": "sinais de abandono constatados (Art. 3º, §4º / Art. 1º)",
    "theft_suspicion_reason": "motivo da suspeita de roubo ou furto",
    "police_response": "resposta da autoridade policial",
    "police_report_number": "número do boletim de ocorrência",
    "reason": "motivo",
    "duplicate_of": "número do caso original (duplicado)",
    "previous_case": "número do caso anterior (reincidência)",
    # owner and notices
    "owner_name": "nome do proprietário/responsável",
    "owner_document": "CPF/CNPJ do proprietário/responsável",
    "owner_address": "endereço do proprietário/responsável",
    "notification_number": "número da notificação",
    "notice_photo": "foto da notificação afixada no objeto",
    "publication_date": "data da publicação no Diário Oficial do Município",
    "publication_reference": "edição/página do Diário Oficial do Município",
    "owner_statement": "declaração do proprietário de que vai retirar o objeto",
    "agreed_removal_by": "data marcada para a retirada pelo proprietário",
    "declared_by": "quem fez a declaração (Telegram) e como comprovou ser o proprietário",
    "verification_notes": "constatação de que o objeto foi retirado",
    "citizen_statement": "o que o cidadão informou",
    # removal and depot
    "removal_photos": "fotos ou vídeo do objeto no momento da remoção",
    "removal_started_at": "data e hora do início da remoção",
    "collected_at": "data e hora do recolhimento, se não foi o início da remoção (os prazos "
                    "e as diárias contam daqui)",
    "removal_reason": "motivo da remoção imediata",
    "termo_number": "número do termo de recolhimento (3 vias)",
    "missing_parts": "lista de itens faltantes/avariados do termo de recolhimento",
    "odometer": "número do hodômetro (ou “sem hodômetro”)",
    "item_description": "descrição do bem recolhido",
    "depot": "pátio de destino",
    "edital_date": "data do edital no Diário Oficial do Município",
    "edital_reference": "edição/página do edital no Diário Oficial do Município",
    "release_checklist_confirmed": "conferência das condições de liberação",
    "fees_paid": "comprovante de pagamento das taxas",
    "auction_date": "data do leilão",
    "auction_commission_act": "ato de nomeação da comissão de leilão",
    "auction_proceeds": "valor arrecadado no leilão",
    "scrap_receipt": "comprovante de entrega à sucata de recicláveis",
    # Dracena: auto de infração and appeals
    "offender_name": "nome do infrator",
    "infraction_fact": "fato constitutivo da infração",
    "place": "lugar da infração",
    "occurred_at": "dia e hora da infração",
    "provision_violated": "preceito de lei violado",
    "fine_amount": "valor da multa imposta",
    "taxes_amount": "impostos devidos pelo ato que causou a apreensão (se houver)",
    "animals": "número de animais apreendidos (0 se nenhum)",
    "kilograms": "peso das mercadorias apreendidas, em kg (0 se não se aplica)",
    "agent_signature": "assinatura do funcionário autuante",
    "offender_signature": "assinatura do infrator",
    "refusal_declaration": "declaração do autuante de que o infrator se recusou a assinar",
    "witnesses": "nome e assinatura de duas testemunhas",
    "company_liability": "sócio, empregado ou preposto de companhia, firma ou sociedade",
    "copy_delivered": "entrega da cópia do auto ao infrator",
    "absence_reason": "circunstância que impediu lavrar o auto na presença do infrator",
    "intimacao_date": "data da intimação escrita",
    "appeal_filed_at": "data e hora do recurso",
    "appeal_deadline": "fim do prazo de recurso",
    "appeal_grounds": "razões do recurso",
    "appellant_name": "nome de quem recorre (o autuado ou um corresponsável)",
    "appellant_document": "CPF ou CNPJ de quem recorre",
    "decision_text": "decisão do Prefeito",
    "debt_registration_number": "número da inscrição em dívida ativa",
    "payment_receipt": "comprovante de pagamento da multa",
    "guia_number": "número da guia de recolhimento",
    "goods_description": "especificação das mercadorias, objetos ou semoventes",
    "apprehended_at": "dia e hora da apreensão",
    "depot_register_entry": "registro no livro do depósito municipal",
    "goods_list": "relação das mercadorias apreendidas",
    "note_signed": "nota assinada pelo fiscal",
    "auction_edital_at": "data dos editais do leilão",
    "retrieval_payment_receipt": "comprovante de pagamento da multa, impostos e despesas de depósito",
    "perishable": "confirmação de que são gêneros perecíveis ou semoventes",
    "balance_amount": "saldo da venda",
    "balance_receipt": "recibo do infrator",
    "sale_statement": "demonstrativo da venda (sem saldo)",
}


#: What a deadline counts from, as a paper says it ("contado de 01/12/2026 (recolhimento)"):
#: the facts' form labels above are questions and never reach a paper.
START_EVENTS: dict[str, str] = {
    "collected_at": "recolhimento",
    "removal_started_at": "início da remoção",
    "publication_date": "publicação no Diário Oficial do Município",
    "intimacao_date": "intimação escrita",
    "apprehended_at": "apreensão",
    "occurred_at": "infração",
    "agreed_removal_by": "data combinada com o fiscal",
}


def tr(code: str, sources: Iterable[str], target: str, actors: Iterable[Actor], article: str,
       text: str, label: str, *, requires: Iterable[str] = (), agencies: Iterable[str] = (),
       deadline: DeadlineRule | None = None, guard: Guard | None = None,
       public: bool = True, optional: Iterable[str] = (),
       defaults: Iterable[tuple[str, str]] = (), button: str = "",
       undo: Undo | None = None, document: str = "", reviews: Iterable[str] = (),
       asks_after: Iterable[tuple[str, str]] = (), photo_after: str = "") -> Transition:
    """Build a Transition from plain iterables."""
    return Transition(code=code, sources=frozenset(sources), target=target,
                      actors=frozenset(actors), article=article, text=text, label=label,
                      button=button,
                      requires=tuple(requires), agencies=frozenset(agencies), deadline=deadline,
                      guard=guard, public=public, optional=tuple(optional),
                      defaults=tuple(defaults), undo=undo, document=document,
                      reviews=tuple(reviews), asks_after=tuple(asks_after),
                      photo_after=photo_after)


#: Dores Art. 3º, caput ("contado da data de recolhimento"): the depot entry records when the
#: object was collected; by default the moment its removal started (Art. 6º, §4º).
COLLECTION = {"optional": ("collected_at",),
              "defaults": (("collected_at", "removal_started_at"),)}


def all_guards(*guards: Guard) -> Guard:
    """A guard that refuses with the first reason any of `guards` gives."""

    def combined(facts: Mapping[str, Any]) -> str | None:
        for g in guards:
            reason = g(facts)
            if reason:
                return reason
        return None

    return combined


def as_moment(value: Any) -> date | datetime | None:
    """A date/datetime from a fact value (date, datetime or ISO string); None if absent."""
    if value is None or value == "":
        return None
    if isinstance(value, (date, datetime)):
        return value
    text = str(value)
    try:
        return datetime.fromisoformat(text) if "T" in text or " " in text \
            else date.fromisoformat(text)
    except ValueError:
        return None


def not_after(moment: date | datetime, limit: date | datetime) -> bool:
    """True if `moment` is on or before `limit`. A date-only limit covers the whole day."""
    if isinstance(limit, datetime) and isinstance(moment, datetime):
        if (limit.tzinfo is None) != (moment.tzinfo is None):
            return moment.replace(tzinfo=None) <= limit.replace(tzinfo=None)
        return moment <= limit
    m = moment.date() if isinstance(moment, datetime) else moment
    lim = limit.date() if isinstance(limit, datetime) else limit
    return m <= lim


def br(moment: date | datetime) -> str:
    """dd/mm/aaaa (and HH:MM for datetimes)."""
    if isinstance(moment, datetime):
        return moment.strftime("%d/%m/%Y %H:%M")
    return moment.strftime("%d/%m/%Y")


def within_deadline(filed_key: str, deadline_key: str) -> Guard:
    """Refuse when the fact `filed_key` falls after the fact `deadline_key`."""

    def guard(facts: Mapping[str, Any]) -> str | None:
        filed, limit = as_moment(facts.get(filed_key)), as_moment(facts.get(deadline_key))
        if filed is None or limit is None:
            return "não foi possível conferir o prazo (data inválida)."
        if not not_after(filed, limit):
            return f"apresentado fora do prazo, que terminou em {br(limit)}."
        return None

    return guard


def truthy(key: str, reason: str) -> Guard:
    """Refuse with `reason` unless the fact `key` is true."""
    return lambda facts: None if facts.get(key) is True or facts.get(key) == "true" else reason


def intake_transitions(article: str, text: str, open_sources: Iterable[str] = ("reported",),
                       close_sources: Iterable[str] = ("reported", "diligence")
                       ) -> list[Transition]:
    """Open the diligence and the staff's closing answers shared by every track.

    The closing answers are the honest "not us / not real / already known" outcomes a triage
    needs (no article orders them; they implement the duty to answer the complaint)."""
    close_sources = tuple(close_sources)
    return [
        tr("open_diligence", open_sources, "diligence", (A.STAFF, A.SYSTEM), article, text,
           "Encaminhar para vistoria",
           button="Enviar à vistoria"),
        tr("close_unfounded", close_sources, "closed_unfounded", (A.STAFF,), article,
           text, "Encerrar: denúncia improcedente", requires=("reason",),
           button="Improcedente"),
        tr("close_duplicate", close_sources, "closed_duplicate", (A.STAFF,), article,
           text, "Encerrar: denúncia duplicada", requires=("duplicate_of",),
           button="Duplicada"),
        tr("close_not_competent", close_sources, "closed_not_competent", (A.STAFF,), article,
           text, "Encerrar: fora da competência desta lei", requires=("reason",),
           button="Fora da competência"),
    ]


#: The step back to the diligence when the reporter, asked after the closing, answers that the
#: object is still there (core.services.citizens.followup); the code the service looks for.
REOPEN = "reopen"
REOPEN_LABEL = "Vistoria reaberta: o cidadão informou que o objeto continua no local"


def reopen_transition(sources: Iterable[str], article: str, text: str) -> Transition:
    """Back to the diligence from a closing that left the object where it was or rests on a
    declaration (`sources`): the law's duty to go to the place of the complaint and remove
    what is abandoned (`article`, `text`) stands while the object is still there. Taken by the
    reporter's answer in the bot, or by staff recording an answer given by phone or e-mail."""
    return tr(REOPEN, sources, "diligence", (A.CITIZEN, A.STAFF), article, text, REOPEN_LABEL,
              requires=("citizen_statement",), button="Reabrir vistoria")
