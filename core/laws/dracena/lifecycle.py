"""Dracena (Lei 56/1951): the two procedure tracks.

"dracena_infraction": auto de infração (Art. 2º), intimação (§3º), appeal to the Mayor within 5
days (Art. 3º), fine confirmed and debt registered (§1º), voluntary payment (§2º).
"dracena_apprehension": apprehension with formalities waived except depot entry and sale
(Art. 4º), low-value note (§1º), 48-hour appeal and decision (§2º), depot register and auction
(Art. 6º), retrieval before auction (Art. 7º).
"""
from __future__ import annotations

from typing import Any, Mapping

from core.laws.common import A, FACT_LABELS, all_guards, intake_transitions, reopen_transition, \
    tr, truthy, within_deadline
from core.laws.dracena.categories import FIELD_AGENCIES, TRACK_APPREHENSION, TRACK_INFRACTION
from core.laws.dracena.settings import SETTINGS
from core.lifecycle import DeadlineRule, Lifecycle, State

ART_1 = ("Toda e qualquer infração às leis ou posturas municipais, punidas com multa ou "
         "apreensão, será autuada por funcionário competente, na forma desta lei.")
ART_2 = ("Do auto de infração constará: a) nome do infrator; b) o fato constitutivo da "
         "infração, bem como o lugar, o dia e a hora em que se verificou; c) o preceito de lei "
         "violado e a multa imposta; d) a assinatura do autuante, do infrator e de duas "
         "testemunhas.")
ART_3 = ("O infrator autuado ou os seus co-responsáveis poderão recorrer ao Prefeito no prazo de "
         "cinco dias a contar da imposição da multa, quando o auto for lavrado na sua presença, "
         "e da data da intimação no caso do § 3º do artigo anterior.")
ART_3_1 = ("Na falta de recurso, ou sendo este julgado improcedente, será a multa mantida ou "
           "confirmada pelo Prefeito, e ordenada a inscrição da dívida e a sua imediata cobrança "
           "executiva.")
ART_4 = ("Quando além da imposição da multa houver apreensão de mercadoria e semoventes a "
         "infratores indeterminados, desconhecidos ou residentes fora do município [...] serão "
         "dispensadas as formalidades referidas nesta lei, com exceção das que dizem respeito à "
         "entrada de depósito e venda.")
ART_4_2 = ("Nos casos deste artigo, o prazo para recurso será de quarenta e oito horas a contar "
           "da apreensão, e interposto ele, o Prefeito decidirá de plano em igual tempo.")
ART_6 = ("O objeto da apreensão será encaminhado ao depósito municipal, registrado em livro "
         "próprio, com as especificações do artigo 2º e posto em leilão depois de julgado "
         "improcedente o recurso ou de transcorrido o prazo para a sua interposição.")
ART_6_3 = ("O saldo da venda, deduzidas as quantias mencionadas no artigo seguinte, será "
           "entregue mediante recibo ao infrator.")
ART_7 = ("As mercadorias, objetos e semoventes levados ao depósito poderão ser retirados pelos "
         "infratores, antes do leilão, desde que paguem a multa em que tenham incorrido, os "
         "impostos em que porventura incidiram [...] e as despesas com a conservação ou o trato "
         "da coisa apreendida")

#: Who appeals (Art. 3º: "O infrator autuado ou os seus co-responsáveis"): name and CPF/CNPJ.
APPELLANT = ("appellant_name", "appellant_document")

_AUTO_DATA = ("offender_name", "infraction_fact", "place", "occurred_at", "provision_violated",
              "fine_amount", "agent_signature")


def _witnesses(facts: Mapping[str, Any]) -> str | None:
    """Art. 2º, d and Art. 2º, §2º: two witnesses sign (always, or only on refusal — setting)."""
    refused = bool(facts.get("refusal_declaration"))
    if not (refused or SETTINGS["witnesses_always_required"].value):
        return None
    names = [w for w in (facts.get("witnesses") or ()) if str(w).strip()]
    if len(names) < 2:
        return "o auto deve ser assinado por duas testemunhas (Art. 2º, d; §2º)."
    return None


def _signed_or_refused(facts: Mapping[str, Any]) -> str | None:
    """Art. 2º, d and §2º: the offender signs, or the agent declares the refusal."""
    if facts.get("offender_signature") or facts.get("refusal_declaration"):
        return None
    return ("falta a assinatura do infrator ou a declaração do autuante de que ele se recusou "
            "a assinar (Art. 2º, d; §2º).")


def low_value_category(category: str | None) -> str | None:
    """Art. 4º, §1º ("Da apreensão de mercadorias de valor medíocre, feita a ambulantes")
    applies to street vendors only (setting low_value_note_categories). The one place this is
    decided: the step's guard below and Law.category_guards (which steps an inspector is
    offered) both call it."""
    if category and category not in SETTINGS["low_value_note_categories"].value:
        return "a nota simplificada só vale para mercadorias de ambulantes (Art. 4º, §1º)."
    return None


def _low_value_category(facts: Mapping[str, Any]) -> str | None:
    return low_value_category(facts.get("category"))


#: Art. 7º: what the retrieval is charged by, recorded with the apprehension — the taxes due
#: and the keeping costs' quantities (a: animals; b: kilograms of goods) — and whether goods
#: are gêneros, auctioned within three days (Art. 6º, §2º). Which apply to which category:
#: terms.CATEGORY_FACTS (Law.category_facts).
FEE_QUANTITIES = ("taxes_amount", "animals", "kilograms", "perishable")


_COMMON_STATES = [
    State("reported", "Denúncia recebida", in_public_space=True),
    State("diligence", "Em verificação pela fiscalização", in_public_space=True),
    State("closed_no_infraction", "Encerrado: infração não constatada", final=True),
    State("closed_unfounded", "Encerrado: denúncia improcedente", final=True),
    State("closed_duplicate", "Encerrado: denúncia duplicada", final=True),
    State("closed_not_competent", "Encerrado: fora da competência desta lei", final=True),
]


def _no_infraction(article: str) -> list:
    return [tr("inspect_no_infraction", ("diligence",), "closed_no_infraction", (A.INSPECTOR,),
               article, ART_1, "Encerrar: infração não constatada",
               requires=("inspection_notes",), agencies=FIELD_AGENCIES,
               button="Sem infração"),
            # Art. 1º: every infraction is written up by a competent official — the object
            # still there after "no infraction" is looked at again. Not after a fine or an
            # apprehension: an infraction after those is a new auto (a new case).
            reopen_transition(("closed_no_infraction",), "Art. 1º", ART_1)]


def _infraction() -> Lifecycle:
    days = SETTINGS["appeal_days"].value
    states = [
        *_COMMON_STATES,
        State("awaiting_intimacao", "Auto lavrado — aguardando intimação do infrator"),
        State("appeal_window", f"Auto de infração lavrado — prazo de {days} dias para recurso"),
        State("appeal_pending", "Recurso em análise pelo Prefeito"),
        State("fine_confirmed", "Multa confirmada — aguardando pagamento ou inscrição em dívida"),
        State("closed_paid", "Encerrado: multa paga", final=True),
        State("closed_paid_voluntarily", "Encerrado: multa recolhida voluntariamente",
              final=True),
        State("closed_debt_registered", "Encerrado: multa inscrita em dívida ativa", final=True),
        State("closed_appeal_upheld", "Encerrado: recurso procedente, multa cancelada",
              final=True),
    ]
    appeal_lapse = DeadlineRule(days, "days", "Art. 3º", "apresentar recurso ao Prefeito",
                                on_lapse="confirm_fine")
    transitions = [
        *intake_transitions("Art. 1º", ART_1),
        *_no_infraction("Art. 1º"),
        tr("pay_voluntarily", ("diligence",), "closed_paid_voluntarily", (A.INSPECTOR, A.STAFF),
           "Art. 3º, §2º",
           "O recolhimento voluntário da multa, antes de lavrado o auto, será feito por meio de "
           "guia do funcionário que verificar a infração.",
           "Registrar recolhimento voluntário (guia)", requires=("guia_number", "payment_receipt"),
           agencies=FIELD_AGENCIES,
           button="Pagamento voluntário"),
        tr("issue_auto", ("diligence",), "appeal_window", (A.INSPECTOR,), "Art. 2º",
           ART_2 + " (§1º: sócio, empregado ou preposto consta do auto; §2º: recusa suprida "
           "pela declaração do autuante e duas testemunhas; Art. 5º, § único: uma cópia do auto "
           "será entregue ao infrator.)",
           "Lavrar auto de infração na presença do infrator",
           requires=(*_AUTO_DATA, "copy_delivered"), agencies=FIELD_AGENCIES,
           guard=all_guards(_signed_or_refused, _witnesses), deadline=appeal_lapse,
           button="Lavrar auto",
           # Art. 2º: the auto, a copy of which is delivered (Art. 5º, § único).
           document="auto_infracao"),
        tr("issue_auto_absent", ("diligence",), "awaiting_intimacao", (A.INSPECTOR,),
           "Art. 2º, §3º",
           "Se pela circunstância especial da infração não for o auto lavrado em presença do "
           "infrator, será este intimado por escrito do seu inteiro teor.",
           "Lavrar auto de infração sem a presença do infrator",
           requires=(*_AUTO_DATA, "absence_reason"), agencies=FIELD_AGENCIES, guard=_witnesses,
           button="Auto sem o infrator",
           document="auto_infracao"),  # Art. 2º: the auto, lavrado without the offender
        tr("serve_intimacao", ("awaiting_intimacao",), "appeal_window", (A.INSPECTOR, A.STAFF),
           "Art. 2º, §3º; Art. 3º",
           "será este intimado por escrito do seu inteiro teor. [Art. 3º] [...] e da data da "
           "intimação no caso do § 3º do artigo anterior.",
           "Registrar intimação escrita do infrator", requires=("intimacao_date",),
           agencies=FIELD_AGENCIES,
           deadline=DeadlineRule(days, "days", "Art. 3º", "apresentar recurso ao Prefeito",
                                 starts_from="intimacao_date", on_lapse="confirm_fine"),
           button="Registrar intimação",
           # Art. 2º, §3º: "intimado por escrito" — the intimação, with the address where the
           # absent offender was served (optional) after its date.
           document="intimacao", asks_after=(("intimacao_date", "offender_address"),)),
        tr("file_appeal", ("appeal_window",), "appeal_pending", (A.OWNER, A.STAFF), "Art. 3º",
           ART_3, "Recorrer ao Prefeito",
           requires=("appeal_filed_at", "appeal_deadline", "appeal_grounds", *APPELLANT),
           guard=within_deadline("appeal_filed_at", "appeal_deadline"),
           button="Recorrer"),
        tr("decide_appeal_upheld", ("appeal_pending",), "closed_appeal_upheld", (A.STAFF,),
           "Art. 3º", ART_3, "Julgar recurso procedente (Prefeito)",
           requires=("decision_text",),
           button="Recurso procedente"),
        tr("decide_appeal_rejected", ("appeal_pending",), "fine_confirmed", (A.STAFF,),
           "Art. 3º, §1º", ART_3_1, "Julgar recurso improcedente e confirmar a multa (Prefeito)",
           requires=("decision_text",),
           button="Recurso improcedente"),
        tr("confirm_fine", ("appeal_window",), "fine_confirmed", (A.SYSTEM, A.STAFF),
           "Art. 3º, §1º", ART_3_1, "Confirmar multa (sem recurso no prazo)",
           button="Confirmar multa"),
        tr("pay_fine", ("fine_confirmed",), "closed_paid", (A.STAFF,), "Art. 3º, §1º", ART_3_1,
           "Registrar pagamento da multa", requires=("payment_receipt",),
           button="Multa paga"),
        tr("register_debt", ("fine_confirmed",), "closed_debt_registered", (A.STAFF,),
           "Art. 3º, §1º", ART_3_1, "Inscrever a multa em dívida ativa",
           requires=("debt_registration_number",),
           button="Dívida ativa"),
    ]
    return Lifecycle.build(TRACK_INFRACTION, "reported", states, transitions, FACT_LABELS)


def _apprehension() -> Lifecycle:
    hours = SETTINGS["apprehension_appeal_hours"].value
    states = [
        *_COMMON_STATES,
        State("apprehended", f"Apreendido — no depósito, prazo de {hours} horas para recurso",
              in_depot=True),
        State("appeal_pending", "No depósito — recurso em análise pelo Prefeito", in_depot=True),
        State("auction_eligible", "No depósito — aguardando leilão", in_depot=True),
        State("auctioned", "Leiloado — saldo da venda à disposição do infrator"),
        State("retrieved", "Retirado pelo infrator", final=True),
        State("returned", "Devolvido: recurso procedente", final=True),
        State("closed_balance_paid", "Encerrado: saldo da venda entregue ao infrator",
              final=True),
        State("closed_sold", "Encerrado: leiloado, sem saldo a entregar", final=True),
    ]
    appeal_deadline = DeadlineRule(hours, "hours", "Art. 4º, §2º",
                                   "apresentar recurso ao Prefeito",
                                   starts_from="apprehended_at", on_lapse="appeal_lapse")
    auction_facts = ("auction_edital_at", "auction_date", "auction_proceeds")
    transitions = [
        *intake_transitions("Art. 4º", ART_4),
        *_no_infraction("Art. 1º; Art. 4º"),
        tr("apprehend", ("diligence",), "apprehended", (A.INSPECTOR,), "Art. 4º; Art. 6º",
           ART_4 + " [Art. 6º] " + ART_6, "Apreender e registrar no livro do depósito",
           requires=("goods_description", "place", "apprehended_at", "provision_violated",
                     "fine_amount", "depot_register_entry"),
           optional=FEE_QUANTITIES, agencies=FIELD_AGENCIES, deadline=appeal_deadline,
           button="Apreender",
           # Art. 4º ("com exceção das que dizem respeito à entrada de depósito") and Art. 6º
           # ("registrado em livro próprio"): the auto de infração e apreensão.
           document="registro_apreensao"),
        tr("low_value_note", ("diligence",), "apprehended", (A.INSPECTOR,), "Art. 4º, §1º",
           "Da apreensão de mercadorias de valor medíocre, feita a ambulantes os fiscais se "
           "limitarão a fornecer devidamente assinada, uma nota contendo a relação das "
           "mercadorias apreendidas e mencionando a multa imposta e a lei transgredida, "
           "dispensada a lavratura do respectivo auto.",
           "Apreender com nota simplificada (ambulante, valor baixo)",
           requires=("goods_list", "fine_amount", "provision_violated", "note_signed",
                     "apprehended_at", "depot_register_entry"),
           optional=("taxes_amount", "kilograms", "perishable"), agencies=FIELD_AGENCIES,
           guard=_low_value_category, deadline=appeal_deadline,
           button="Nota simplificada",
           # Art. 4º, §1º: "uma nota contendo a relação das mercadorias apreendidas", with the
           # vendor's name (optional) after the goods.
           document="nota_apreensao", asks_after=(("goods_list", "vendor_name"),)),
        tr("file_appeal", ("apprehended",), "appeal_pending", (A.OWNER, A.STAFF),
           "Art. 4º, §2º", ART_4_2, "Recorrer ao Prefeito",
           requires=("appeal_filed_at", "appeal_deadline", "appeal_grounds", *APPELLANT),
           guard=within_deadline("appeal_filed_at", "appeal_deadline"),
           deadline=DeadlineRule(SETTINGS["appeal_decision_hours"].value, "hours",
                                 "Art. 4º, §2º", "decisão do Prefeito sobre o recurso"),
           button="Recorrer"),
        tr("decide_appeal_upheld", ("appeal_pending",), "returned", (A.STAFF,), "Art. 4º, §2º",
           ART_4_2, "Julgar recurso procedente e devolver (Prefeito)",
           requires=("decision_text",),
           button="Recurso procedente"),
        tr("decide_appeal_rejected", ("appeal_pending",), "auction_eligible", (A.STAFF,),
           "Art. 6º; Art. 4º, §2º", ART_6, "Julgar recurso improcedente (Prefeito)",
           requires=("decision_text",),
           button="Recurso improcedente"),
        tr("appeal_lapse", ("apprehended",), "auction_eligible", (A.SYSTEM,), "Art. 6º", ART_6,
           "Prazo de recurso vencido: liberado para leilão",
           button="Prazo vencido"),
        tr("retrieve", ("apprehended", "appeal_pending", "auction_eligible"), "retrieved",
           (A.STAFF,), "Art. 7º", ART_7, "Devolver ao infrator (multa e despesas pagas)",
           requires=("retrieval_payment_receipt",),
           button="Devolver ao infrator"),
        tr("auction", ("auction_eligible",), "auctioned", (A.STAFF,), "Art. 6º; Art. 6º, §1º",
           ART_6 + " §1º O leilão será previamente anunciado por editais afixados no lugar de "
           "costume, no próprio depósito, ou pela imprensa se houver, e se os objetos ou "
           "semoventes forem de valor.", "Registrar leilão", requires=auction_facts,
           button="Registrar leilão"),
        tr("auction_perishable", ("apprehended", "appeal_pending", "auction_eligible"),
           "auctioned", (A.STAFF,), "Art. 6º, §2º",
           "Quando se tratar de gêneros ou semoventes, o leilão será realizado dentro de três "
           "dias.", "Registrar leilão de gêneros ou semoventes (até 3 dias)",
           requires=("perishable", *auction_facts),
           guard=truthy("perishable", "só gêneros ou semoventes vão a leilão antes do fim do "
                                      "prazo de recurso (Art. 6º, §2º)."),
           button="Leilão de perecíveis"),
        tr("pay_sale_balance", ("auctioned",), "closed_balance_paid", (A.STAFF,),
           "Art. 6º, §3º", ART_6_3, "Entregar saldo da venda ao infrator (recibo)",
           requires=("balance_amount", "balance_receipt"),
           button="Entregar saldo"),
        tr("close_sale", ("auctioned",), "closed_sold", (A.STAFF,), "Art. 6º, §3º", ART_6_3,
           "Encerrar: venda sem saldo a entregar", requires=("sale_statement",),
           button="Encerrar venda"),
    ]
    return Lifecycle.build(TRACK_APPREHENSION, "reported", states, transitions, FACT_LABELS)


INFRACTION = _infraction()
APPREHENSION = _apprehension()
