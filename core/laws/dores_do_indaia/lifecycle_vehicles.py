"""Dores do Indaiá (Lei 3.043/2022): the vehicle, chassis and carriage track ("dores_vehicle").

Art. 4º (diligence, notification, affixed notice, publication, police), Art. 6º (removal,
termo, edital, owner removing himself, recidivism) and Art. 3º (60 days, release, auction),
Art. 8º (auction commission).
"""
from __future__ import annotations

from typing import Any, Mapping

from core.laws.common import (A, COLLECTION, FACT_LABELS, intake_transitions,
                               reopen_transition, tr)
from core.laws.dores_do_indaia.assessment import assess
from core.laws.dores_do_indaia.categories import TRACK_VEHICLE, VEHICLE_FIELD_AGENCIES
from core.laws.dores_do_indaia.settings import SETTINGS
from core.lifecycle import DeadlineRule, Guard, Lifecycle, State, Undo

ART_4_CAPUT = ("Preliminarmente à remoção de veículos, chassis e carrocerias, a prefeitura "
               "municipal diligenciará até o local da ocorrência / denúncia, à fim de "
               "identificar o proprietário/responsável do objeto abandonado")
ART_6_3 = ("A remoção dos objetos elencados no art.1º desta lei deixará de acontecer, caso o "
           "proprietário/responsável se prontifique, de imediato, e dentro do prazo estipulado "
           "pelo agente fiscalizador, a retirar o objeto do espaço público e sanar a "
           "irregularidade antes do início da operação.")
ART_6_2 = ("A mudança de local de deposito do veículo, no mesmo logradouro ou próximo ao local "
           "de registro, não descaracteriza o abandono do mesmo.")
ART_4_III = ("No caso de fundada suspeita de que o bem abandonado seja produto de ato ilícito "
             "(roubo ou furto), as autoridades policiais competentes deverão ser acionadas.")

STATES = [
    State("reported", "Denúncia recebida", in_public_space=True),
    # Art. 4º, III / Art. 5º, IV: a police referral must not attach a suspicion of theft to an
    # identifiable object; the public sees it as the diligence ("Em análise"), which it
    # shares with every case being looked into.
    State("diligence", "Em vistoria", in_public_space=True, public_label="Em análise"),
    State("police_referral", "Encaminhado à polícia (suspeita de roubo ou furto)",
          in_public_space=True, public_as="diligence"),
    State("owner_notified", "Proprietário notificado — prazo de 10 dias", in_public_space=True),
    State("notice_affixed", "Notificação afixada no veículo", in_public_space=True),
    State("published", "Notificação publicada no Diário Oficial — prazo de 10 dias",
          in_public_space=True),
    State("removal_due", "Prazo vencido — remoção autorizada", in_public_space=True),
    State("owner_removing", "Proprietário se comprometeu a retirar", in_public_space=True),
    State("removal_started", "Remoção em andamento"),
    State("in_depot", "No pátio municipal", in_depot=True),
    State("auction_eligible", "No pátio — liberado para leilão", in_depot=True),
    State("released", "Devolvido ao proprietário", final=True),
    State("auctioned", "Leiloado", final=True),
    State("closed_not_abandoned", "Encerrado: abandono não caracterizado", final=True),
    State("closed_unfounded", "Encerrado: denúncia improcedente", final=True),
    State("closed_duplicate", "Encerrado: denúncia duplicada", final=True),
    State("closed_not_competent", "Encerrado: fora da competência desta lei", final=True),
    State("closed_removed_by_owner", "Encerrado: retirado pelo proprietário", final=True),
    # publicly one of the law's closings that names no suspicion: the police took it over,
    # outside this law's procedure
    State("closed_police", "Encerrado: a cargo da polícia", final=True,
          public_as="closed_not_competent"),
]


#: The boxes of DADOS DO VEÍCULO (Anexo I; Art. 4º, II, b: "contendo as características do
#: veículo"), which the inspector confirms, corrects or fills before a step whose paper
#: describes the vehicle (Transition.reviews): make, model and colour start from the citizen's
#: answers; the rest only the inspector fills, when known.
VEHICLE_DATA = ("vehicle_make", "vehicle_model", "vehicle_colour", "vehicle_chassis",
                "vehicle_renavam", "plate_municipality", "plate_uf")
#: Art. 4º, I: the notification "conforme modelo previsto no Anexo I", whose owner box has a
#: contact beside name and CPF/CNPJ (optional).
OWNER_CONTACT = (("owner_document", "owner_contact"),)


def abandonment_guard(default_category: str) -> Guard:
    """Refuse unless the ticked signs (fact `abandonment_criteria`) qualify under assess()
    for the case's `category` fact (or `default_category`)."""

    def guard(facts: Mapping[str, Any]) -> str | None:
        criteria = facts.get("abandonment_criteria") or ()
        try:
            result = assess(facts.get("category") or default_category, criteria)
        except (KeyError, ValueError) as exc:
            return f"sinais de abandono inválidos ({exc})."
        return None if result.qualifies else result.explanation

    return guard


def _not_moved_nearby(facts: Mapping[str, Any]) -> str | None:
    # Art. 6º, §2º: moving it nearby does not end the abandonment.
    if facts.get("moved_nearby"):
        return ("o objeto apenas mudou de lugar no mesmo logradouro ou perto dele, o que não "
                "descaracteriza o abandono (Art. 6º, §2º).")
    return None


def _owner_unknown(facts: Mapping[str, Any]) -> str | None:
    # Art. 6º, §1º: "Na hipótese de remoção em que o proprietário não seja identificado"
    if facts.get("owner_name"):
        return "o proprietário foi identificado; o edital de remoção é para proprietário " \
               "não identificado (Art. 6º, §1º)."
    return None


def police_transitions(agencies: frozenset[str], article: str,
                       sources: tuple[str, ...]) -> list:
    """Art. 4º, III / Art. 5º, IV: suspicion of theft → police; back to the diligence or close."""
    return [
        tr("refer_to_police", sources,
           "police_referral", (A.INSPECTOR, A.STAFF), article, ART_4_III,
           "Acionar a polícia (suspeita de roubo ou furto)",
           requires=("theft_suspicion_reason",), agencies=agencies,
           button="Acionar polícia"),
        tr("police_clear", ("police_referral",), "diligence", (A.STAFF, A.INSPECTOR), article,
           ART_4_III, "Polícia devolveu o caso: seguir o procedimento",
           requires=("police_response",), agencies=agencies,
           button="Polícia devolveu"),
        tr("close_police", ("police_referral",), "closed_police", (A.STAFF, A.INSPECTOR),
           article, ART_4_III, "Encerrar: bem recolhido pela polícia",
           requires=("police_report_number",), agencies=agencies,
           button="Encerrar: polícia"),
    ]


#: Where the owner's commitment becomes a step of its own, with the date agreed for it as its
#: deadline (Art. 6º, §3º: "dentro do prazo estipulado pelo agente fiscalizador"): only once
#: removal is due (setting owner_promise_during_notice). While the notice's period of Art. 4º
#: runs the promise is information beside it (core.services.owners.filings records it as a
#: timeline note), so no removal step becomes possible before the legal deadline the owner was
#: given, whatever the owner declares or withdraws (Art. 6º, caput: removal only on "o não
#: cumprimento dos prazos dispostos no Art. 4º").
COMMIT_SOURCES = ("removal_due",)
if SETTINGS["owner_promise_during_notice"].value != "information_only":
    raise ValueError("owner_promise_during_notice: only 'information_only' keeps Art. 6º, caput")


def owner_transitions(confirm_sources: tuple[str, ...], agencies: frozenset[str]) -> list:
    """Art. 6º, §§2º–3º: the owner removes the object himself before the operation starts.
    The inspector may confirm the removal from any of `confirm_sources` (the notice's states
    and removal due); the commitment with its own date is taken only from COMMIT_SOURCES."""
    return [
        tr("owner_commits", COMMIT_SOURCES, "owner_removing", (A.OWNER, A.INSPECTOR),
           "Art. 6º, §3º", ART_6_3, "Proprietário vai retirar o objeto",
           requires=("owner_statement", "agreed_removal_by"), agencies=agencies,
           deadline=DeadlineRule(0, "days", "Art. 6º, §3º",
                                 "retirada do objeto pelo próprio proprietário",
                                 starts_from="agreed_removal_by", on_lapse="owner_failed"),
           button="Dono vai retirar",
           # §3º: the owner's own declaration, so the owner may take it back while the
           # inspector has not acted on it; the case is due again as it was.
           undo=Undo("owner_withdraws", frozenset({A.OWNER}), "Art. 6º, §3º",
                     "Proprietário desfez a declaração de retirada",
                     button="Desfazer declaração")),
        tr("owner_failed", ("owner_removing",), "removal_due", (A.SYSTEM, A.INSPECTOR),
           "Art. 6º, §3º", ART_6_3, "Proprietário não retirou no prazo combinado",
           agencies=agencies,
           button="Dono não retirou"),
        tr("confirm_owner_removed", (*confirm_sources, "owner_removing"),
           "closed_removed_by_owner", (A.INSPECTOR,), "Art. 6º, §3º", ART_6_3 + " " + ART_6_2,
           "Confirmar retirada pelo proprietário", requires=("verification_notes",),
           agencies=agencies, guard=_not_moved_nearby,
           button="Confirmar retirada"),
    ]


def _transitions() -> list:
    field = VEHICLE_FIELD_AGENCIES
    notice_days = SETTINGS["owner_notice_days"].value
    published_days = SETTINGS["published_notice_days"].value
    auction_days = SETTINGS["auction_after_days"].value
    abandoned = abandonment_guard("motor_vehicle")
    return [
        *intake_transitions("Art. 4º, caput", ART_4_CAPUT),
        tr("inspect_not_abandoned", ("diligence",), "closed_not_abandoned", (A.INSPECTOR,),
           "Art. 1º, caput; Art. 3º, §4º",
           "Entende-se por abandono o objeto que estiver nas seguintes condições",
           "Encerrar: abandono não caracterizado", requires=("inspection_notes",),
           agencies=field,
           button="Não abandonado"),
        *police_transitions(field, "Art. 4º, III",
                            ("diligence", "owner_notified", "notice_affixed", "published")),
        tr("notify_owner", ("diligence",), "owner_notified", (A.INSPECTOR,), "Art. 4º, I",
           "Será emitida notificação, conforme modelo previsto no Anexo I desta lei, ao "
           "proprietário, comprador, possuidor ou depositário, determinando a retirada do "
           "objeto do espaço público e sua consequente guarda apropriada no prazo de 10 dias.",
           "Notificar o proprietário (Anexo I)",
           requires=("abandonment_criteria", "owner_name", "owner_document",
                     "notification_number"),
           agencies=field, guard=abandoned,
           deadline=DeadlineRule(notice_days, "days", "Art. 4º, I",
                                 "retirar o veículo do espaço público",
                                 on_lapse="lapse_deadline"),
           button="Notificar",
           # Art. 4º, I: the notification (Anexo I) describes the vehicle and its owner.
           document="notificacao", reviews=VEHICLE_DATA, asks_after=OWNER_CONTACT),
        tr("affix_notice", ("diligence",), "notice_affixed", (A.INSPECTOR,), "Art. 4º, II, a",
           "Não sendo identificado o proprietário/responsável no momento da diligência, será: "
           "a) Afixada uma notificação [...] no vidro ou lataria do veículo, chassi ou "
           "carroceria, para que o proprietário/responsável pelo bem o remova do espaço público "
           "no prazo máximo de 10 dias. (Art. 4º, I, a: na recusa de fornecer dados pessoais, "
           "a ocorrência seguirá os trâmites do inciso II.)",
           "Afixar notificação no veículo (proprietário não identificado ou recusou dados)",
           requires=("abandonment_criteria", "notification_number"),
           agencies=field, guard=abandoned,
           # Informational: removal waits for the publication's 10 days (setting
           # affixed_notice_lapses).
           deadline=DeadlineRule(notice_days, "days", "Art. 4º, II, a",
                                 "prazo da notificação afixada (informativo)"),
           button="Afixar notificação",
           # Art. 4º, II, a: the notice affixed "no vidro ou lataria do veículo" describes
           # it; the photo of the notice affixed comes after the printed notice (it is what
           # is photographed).
           document="notificacao_afixada", reviews=VEHICLE_DATA,
           photo_after="notice_photo"),
        tr("record_publication", ("notice_affixed",), "published", (A.STAFF,), "Art. 4º, II, b",
           "sendo publicada a notificação no Diário Oficial do Município, contendo as "
           "características do veículo, chassi ou carroceria e o endereço em que se encontra "
           "abandonado, iniciando, a partir da data da publicação, o prazo de 10 dias para que "
           "seu proprietário/responsável o retire",
           "Registrar publicação no Diário Oficial",
           requires=("publication_date", "publication_reference"),
           deadline=DeadlineRule(published_days, "days", "Art. 4º, II, b",
                                 "retirar o veículo do espaço público",
                                 starts_from="publication_date", on_lapse="lapse_deadline"),
           button="Publicado no Diário"),
        tr("lapse_deadline", ("owner_notified", "published"), "removal_due", (A.SYSTEM,),
           "Art. 6º, caput",
           "O não cumprimento dos prazos dispostos no Art. 4º desta lei implicará na remoção do "
           "veículo, chassi ou carroceria ao pátio de depósito regular",
           "Prazo vencido: remoção autorizada",
           button="Prazo vencido"),
        *owner_transitions(("owner_notified", "notice_affixed", "published", "removal_due"),
                           field),
        tr("start_removal", ("removal_due", "owner_removing"), "removal_started", (A.INSPECTOR,),
           "Art. 6º, I, a; Art. 6º, §4º",
           "No momento da remoção [...] deverá: a) ser fotografado ou filmado na situação que se "
           "encontram, para servir como prova do abandono. §4º Entende-se por início da "
           "operação de remoção, o momento em que se inicia o deslocamento do veiculo para a "
           "plataforma do reboque",
           "Iniciar a remoção (veículo subindo na plataforma)",
           requires=("removal_photos", "removal_started_at"), agencies=field,
           button="Iniciar remoção"),
        tr("recidivism_removal", ("diligence",), "removal_started", (A.INSPECTOR,),
           "Art. 6º, §5º",
           "O veículo, chassi ou carroceria que for flagrado em situação que caracterize "
           "reincidência, será removido imediatamente, ficando dispensada a aplicação dos "
           "termos previsto no Art. 4º da presente lei.",
           "Remover de imediato (reincidência)",
           requires=("abandonment_criteria", "previous_case", "removal_photos",
                     "removal_started_at"),
           agencies=field, guard=abandoned,
           button="Remover: reincidência"),
        tr("depot_entry", ("removal_started",), "in_depot", (A.INSPECTOR, A.STAFF),
           "Art. 6º, I, b; Art. 3º, caput",
           "ser preenchido o termo de recolhimento do bem, conforme modelo anexo II, em 3 (três) "
           "vias, sendo que a 1ª via será destinada para arquivo do órgão responsável pela "
           "remoção, a 2ª via será destinada ao proprietário/responsável, a 3ª via será "
           "destinada ao pátio responsável pela guarda. (Art. 3º: não reclamado dentro do prazo "
           "de sessenta dias, contado da data de recolhimento, será levado à hasta pública.)",
           "Registrar entrada no pátio (termo de recolhimento)",
           requires=("termo_number", "missing_parts", "odometer", "depot"),
           agencies=field, **COLLECTION,
           deadline=DeadlineRule(auction_days, "days", "Art. 3º, caput",
                                 "retirada do pátio antes do leilão",
                                 starts_from="collected_at", on_lapse="auction_deadline"),
           button="Entrada no pátio",
           # Art. 6º, I, b: the termo de recolhimento (Anexo II) describes the vehicle.
           document="termo_recolhimento", reviews=VEHICLE_DATA),
        tr("publish_removal_edital", ("in_depot",), "in_depot", (A.STAFF,), "Art. 6º, §1º",
           "Na hipótese de remoção em que o proprietário não seja identificado, será publicado "
           "edital no Diário Oficial do Município, contendo: a) os dados possíveis do veículo; "
           "b) o local onde se encontrava abandonado; c) o local de destino da remoção",
           "Registrar edital de remoção no Diário Oficial",
           requires=("edital_date", "edital_reference"), guard=_owner_unknown,
           button="Edital de remoção"),
        tr("release", ("in_depot",), "released", (A.STAFF,), "Art. 3º, §3º",
           "Removido do espaço público ao pátio, o veículo abandonado só poderá ser retirado, se "
           "preenchidas as seguintes condições: I – no prazo de 60 dias [...] II – pagamento dos "
           "custos de reboque [...] e das diárias; III – [veículo automotor] multas, seguro "
           "obrigatório e demais taxas",
           "Liberar ao proprietário",
           requires=("release_checklist_confirmed", "fees_paid"),
           button="Liberar"),
        tr("auction_deadline", ("in_depot",), "auction_eligible", (A.SYSTEM,),
           "Art. 3º, caput; CTB art. 328",
           "O veículo [...] não reclamado por seu proprietário dentro do prazo de sessenta dias, "
           "contado da data de recolhimento será removido ao pátio e levado à hasta pública.",
           "Prazo de 60 dias vencido: liberado para leilão",
           button="Prazo de leilão"),
        tr("auction", ("auction_eligible",), "auctioned", (A.STAFF,), "Art. 8º",
           "Para a alienação dos bens recolhidos em função desta lei o Poder Executivo deverá "
           "nomear comissão de leilão [...] obedecendo sempre aos termos da lei de licitação.",
           "Registrar leilão",
           requires=("auction_date", "auction_commission_act", "auction_proceeds"),
           button="Registrar leilão"),
        # Art. 4º, caput: the city goes to the place of the complaint while the vehicle is
        # there; Art. 6º, §2º: moving it nearby does not end the abandonment. Not from the
        # depot's endings (the city removed it) nor from triage closings.
        reopen_transition(("closed_not_abandoned", "closed_removed_by_owner"),
                          "Art. 4º, caput; Art. 6º, §2º", ART_4_CAPUT + " [Art. 6º, §2º] "
                          + ART_6_2),
    ]


LIFECYCLE = Lifecycle.build(TRACK_VEHICLE, "reported", STATES, _transitions(), FACT_LABELS)
