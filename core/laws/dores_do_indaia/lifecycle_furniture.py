"""Dores do Indaiá (Lei 3.043/2022): large furniture and machinery track ("dores_furniture").

Art. 5º I–IV and § único (diligence by the Secretaria de Saúde, notification, immediate removal,
publication, police), Art. 6º (removal procedure, owner removing himself: "objetos elencados no
art. 1º"), Art. 3º §1º (unidentified → scrap for recycling), Art. 8º (auction).
"""
from __future__ import annotations

from typing import Any, Mapping

from core.laws.common import (A, COLLECTION, FACT_LABELS, intake_transitions,
                               reopen_transition, tr)
from core.laws.dores_do_indaia.categories import (FURNITURE_DILIGENCE_AGENCIES,
                                                  FURNITURE_REMOVAL_AGENCIES, TRACK_FURNITURE)
from core.laws.dores_do_indaia.lifecycle_vehicles import (OWNER_CONTACT, abandonment_guard,
                                                          owner_transitions,
                                                          police_transitions)
from core.laws.dores_do_indaia.settings import SETTINGS
from core.lifecycle import DeadlineRule, Lifecycle, State

#: Art. 5º, I and III: "qualquer dado que identifique o móvel" — the inspector's own description
#: of the piece, confirmed before a step whose paper describes it (Transition.reviews).
OBJECT_DESCRIPTION = ("reviewed_vehicle",)

ART_5_CAPUT = ("Preliminarmente à remoção de móveis de grande porte ou maquinários, a prefeitura "
               "municipal, através da Secretaria Municipal de Saúde ou a ela conveniada, "
               "diligenciará até o local a ocorrência/denúncia, a fim de identificar o "
               "proprietário/responsável do objeto abandonado")

STATES = [
    State("reported", "Denúncia recebida", in_public_space=True),
    # Art. 4º, III / Art. 5º, IV: a police referral must not attach a suspicion of theft to an
    # identifiable object; the public sees it as the diligence ("Em análise"), which it
    # shares with every case being looked into.
    State("diligence", "Em vistoria", in_public_space=True, public_label="Em análise"),
    State("police_referral", "Encaminhado à polícia (suspeita de roubo ou furto)",
          in_public_space=True, public_as="diligence"),
    State("owner_notified", "Proprietário notificado — prazo de 10 dias", in_public_space=True),
    State("removal_due", "Prazo vencido — remoção autorizada", in_public_space=True),
    State("owner_removing", "Proprietário se comprometeu a retirar", in_public_space=True),
    State("removal_started", "Remoção em andamento"),
    State("in_depot", "No depósito municipal", in_depot=True),
    State("published", "No depósito — edital publicado, prazo de 10 dias para retirada",
          in_depot=True),
    State("disposal_due", "No depósito — prazo vencido, aguardando destinação", in_depot=True),
    State("released", "Devolvido ao proprietário", final=True),
    State("auctioned", "Leiloado", final=True),
    State("scrapped", "Destinado à sucata de recicláveis", final=True),
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


def _owner_not_identified(facts: Mapping[str, Any]) -> str | None:
    # Art. 3º, §1º "que não tenham identificação" (setting furniture_scrap_when).
    if facts.get("owner_name"):
        return ("o proprietário foi identificado: o bem vai a leilão (Art. 8º) ou é liberado, "
                "não à sucata (Art. 3º, §1º).")
    return None


def _transitions() -> list:
    diligence = FURNITURE_DILIGENCE_AGENCIES
    removal = FURNITURE_REMOVAL_AGENCIES
    abandoned = abandonment_guard("large_furniture")
    days = SETTINGS["owner_notice_days"].value
    published_days = SETTINGS["published_notice_days"].value
    return [
        *intake_transitions("Art. 5º, caput", ART_5_CAPUT),
        tr("inspect_not_abandoned", ("diligence",), "closed_not_abandoned", (A.INSPECTOR,),
           "Art. 1º, caput; Art. 3º, §4º",
           "Entende-se por abandono o objeto que estiver nas seguintes condições",
           "Encerrar: abandono não caracterizado", requires=("inspection_notes",),
           agencies=diligence,
           button="Não abandonado"),
        *police_transitions(diligence, "Art. 5º, IV", ("diligence", "owner_notified")),
        tr("notify_owner", ("diligence",), "owner_notified", (A.INSPECTOR,), "Art. 5º, I",
           "Será emitida notificação, conforme modelo previsto no Anexo IV desta lei, ao "
           "proprietário, comprador, possuidor ou depositário, determinando a retirada do "
           "objeto do espaço público e sua consequente guarda apropriada no prazo de 10 dias.",
           "Notificar o proprietário",
           requires=("abandonment_criteria", "owner_name", "owner_document",
                     "notification_number"),
           agencies=diligence, guard=abandoned,
           deadline=DeadlineRule(days, "days", "Art. 5º, I",
                                 "retirar o objeto do espaço público",
                                 on_lapse="lapse_deadline"),
           button="Notificar",
           # Art. 5º, I: the notification (Anexo IV) describes the object and its owner.
           document="notificacao", reviews=OBJECT_DESCRIPTION, asks_after=OWNER_CONTACT),
        tr("lapse_deadline", ("owner_notified",), "removal_due", (A.SYSTEM,), "Art. 5º, I",
           "determinando a retirada do objeto do espaço público [...] no prazo de 10 dias",
           "Prazo vencido: remoção autorizada",
           button="Prazo vencido"),
        *owner_transitions(("owner_notified", "removal_due"), removal),
        tr("remove_immediately", ("diligence",), "removal_started", (A.INSPECTOR,),
           "Art. 5º, II; Art. 5º, parágrafo único",
           "Não sendo identificado o proprietário/responsável ou na recusa de identificar-se no "
           "momento da diligência, o bem móvel será imediatamente removido. (Parágrafo único: "
           "[...] estes deverão ser recolhidos de imediato.)",
           "Remover de imediato (proprietário não identificado ou recusou identificar-se)",
           requires=("abandonment_criteria", "removal_reason", "removal_photos",
                     "removal_started_at"),
           agencies=removal, guard=abandoned,
           button="Remover agora"),
        tr("start_removal", ("removal_due", "owner_removing"), "removal_started", (A.INSPECTOR,),
           "Art. 6º, I, a; Art. 6º, §4º",
           "No momento da remoção dos objetos elencados nesta lei, deverá: a) ser fotografado ou "
           "filmado na situação que se encontram, para servir como prova do abandono",
           "Iniciar a remoção", requires=("removal_photos", "removal_started_at"),
           agencies=removal,
           button="Iniciar remoção"),
        tr("depot_entry", ("removal_started",), "in_depot", (A.INSPECTOR, A.STAFF),
           "Art. 6º, I, b",
           "ser preenchido o termo de recolhimento do bem [...] em 3 (três) vias",
           "Registrar entrada no depósito (termo de recolhimento)",
           requires=("termo_number", "item_description", "depot"), agencies=removal,
           **COLLECTION,
           button="Entrada no depósito",
           # Art. 6º, I, b: the termo de recolhimento describes the object.
           document="termo_recolhimento", reviews=OBJECT_DESCRIPTION),
        tr("record_publication", ("in_depot",), "published", (A.STAFF,), "Art. 5º, III",
           "Será emitida notificação [...] contendo qualquer dado que identifique o móvel, "
           "endereço de depósito, data e hora [...] sendo publicada a notificação no Diário "
           "Oficial do Município [...] iniciando, a partir da data da publicação, o prazo de 10 "
           "dias para que seu proprietário/responsável o retire, e acondicione em local adequado.",
           "Registrar publicação no Diário Oficial",
           requires=("publication_date", "publication_reference"),
           deadline=DeadlineRule(published_days, "days", "Art. 5º, III",
                                 "retirar o bem do depósito",
                                 starts_from="publication_date",
                                 on_lapse="retrieval_lapse"),
           button="Publicado no Diário"),
        tr("retrieval_lapse", ("published",), "disposal_due", (A.SYSTEM,), "Art. 5º, III",
           "o prazo de 10 dias para que seu proprietário/responsável o retire",
           "Prazo de retirada vencido: aguardar destinação",
           button="Prazo vencido"),
        tr("release", ("in_depot", "published", "disposal_due"), "released", (A.STAFF,),
           "Art. 3º, §3º, II",
           "pagamento dos custos de reboque até o pátio, bem como das diárias devidas durante o "
           "período em que permaneceu no pátio do Município, conveniado ou contratado",
           "Liberar ao proprietário",
           requires=("release_checklist_confirmed", "fees_paid"),
           button="Liberar"),
        tr("scrap", ("disposal_due",), "scrapped", (A.STAFF,), "Art. 3º, §1º",
           "Os bens móveis de grande porte e maquinários que não tenham identificação serão "
           "removidos para sucata de recicláveis.",
           "Destinar à sucata de recicláveis", requires=("scrap_receipt",),
           guard=_owner_not_identified,
           button="Enviar à sucata"),
        tr("auction", ("disposal_due",), "auctioned", (A.STAFF,), "Art. 8º",
           "Para a alienação dos bens recolhidos em função desta lei o Poder Executivo deverá "
           "nomear comissão de leilão de veículos e objetos abandonados",
           "Registrar leilão",
           requires=("auction_date", "auction_commission_act", "auction_proceeds"),
           button="Registrar leilão"),
        # Art. 5º, caput: the diligence to the place of the complaint, while the object is there
        reopen_transition(("closed_not_abandoned", "closed_removed_by_owner"), "Art. 5º, caput",
                          ART_5_CAPUT),
    ]


LIFECYCLE = Lifecycle.build(TRACK_FURNITURE, "reported", STATES, _transitions(), FACT_LABELS)
