"""Dores do Indaiá (Lei 3.043/2022), Art. 3º, §3º: what the owner must bring and do to take an
object back from the depot. "Removido do espaço público ao pátio, o veículo abandonado só poderá
ser retirado, se preenchida as seguintes condições: ..."

Decisions where the text is silent:
- I and II apply to every object taken to the depot (I speaks of "objeto"); III and its
  items a) and b) only to motor vehicles (`category.motor_vehicle`), the only ones with a
  registration to transfer or cancel.
- Items a) and b) stay in the checklist once done (transferred / baixa made): the person must
  still bring the proof; only the wording changes.
"""
from __future__ import annotations

from core.laws.base import Category, ReleaseCondition, ReleaseSituation
from core.laws.dores_do_indaia.categories import TRACK_VEHICLE
from core.laws.dores_do_indaia.settings import SETTINGS

ID_DOC = "Documento oficial de identificação com foto (RG, CNH ou equivalente)"
CPF_DOC = "CPF"
REGISTRATION_DOC = "Documento do veículo (CRV ou CRLV) em nome do proprietário"
OWNERSHIP_DOC = "Nota fiscal, recibo de compra ou outro documento que prove a propriedade"
POWER_OF_ATTORNEY = "Procuração pública (lavrada em cartório) com poderes para retirar o bem"
OWNER_ID_COPY = "Cópia do documento de identificação do proprietário"
TERMO = "2ª via do termo de recolhimento, se a tiver recebido (Art. 6º, I, b)"


def _ownership_docs(category: Category) -> tuple[str, ...]:
    return (REGISTRATION_DOC,) if category.motor_vehicle or category.has_plate else (OWNERSHIP_DOC,)


def _deadline(category: Category) -> ReleaseCondition:
    """Until when release is possible: Art. 3º, §3º, I ("No prazo de 60 (sessenta) dias,
    conforme prevê o art. 328 do CTB") for vehicles; for furniture and machinery, until the
    disposal (setting furniture_release_until_disposal: the 60 days are the vehicles')."""
    if category.track != TRACK_VEHICLE and SETTINGS["furniture_release_until_disposal"].value:
        return ReleaseCondition(
            code="within_deadline",
            label="Pedir a retirada antes da destinação do bem (sucata de recicláveis ou "
                  "leilão), que só acontece depois dos 10 dias contados da publicação no Diário "
                  "Oficial.",
            article="Art. 5º, III; Art. 3º, §1º",
        )
    return ReleaseCondition(
        code="within_deadline",
        label="Pedir a retirada em até 60 dias contados do recolhimento; depois disso o bem "
              "vai a leilão.",
        article="Art. 3º, §3º, I",
    )


def release_conditions(category: Category, situation: ReleaseSituation) -> list[ReleaseCondition]:
    """The checklist for releasing `category` in `situation` (Art. 3º, §3º)."""
    conditions = [_deadline(category)]
    if situation.by_attorney:
        # Art. 3º, §3º, I: "ou por procurador devidamente habilitado, por meio de procuração
        # pública, trazendo provas de que o objeto abandonado é de sua propriedade"
        conditions.append(ReleaseCondition(
            code="attorney_identified",
            label="O procurador deve se identificar, apresentar procuração pública e provar "
                  "que o bem é do proprietário que representa.",
            article="Art. 3º, §3º, I",
            documents=(ID_DOC + " do procurador", POWER_OF_ATTORNEY, OWNER_ID_COPY,
                       *_ownership_docs(category), TERMO),
        ))
    else:
        # Art. 3º, §3º, I: "por quem se apresente como o proprietário do objeto, devidamente
        # identificado pelos meios em direito admitido, [...] trazendo provas de que o objeto
        # abandonado é de sua propriedade"
        conditions.append(ReleaseCondition(
            code="owner_identified",
            label="O proprietário deve se identificar e provar que o bem é seu.",
            article="Art. 3º, §3º, I",
            documents=(ID_DOC, CPF_DOC, *_ownership_docs(category), TERMO),
        ))
    # Art. 3º, §3º, II: "pagamento dos custos de reboque até o pátio, bem como das diárias
    # devidas durante o período em que permaneceu no pátio"
    conditions.append(ReleaseCondition(
        code="towing_and_storage_paid",
        label="Pagar o reboque até o pátio e as diárias do período em que o bem ficou no pátio.",
        article="Art. 3º, §3º, II",
        documents=("Comprovante de pagamento da guia de reboque e diárias",),
    ))
    if not category.motor_vehicle:
        return conditions
    # Art. 3º, §3º, III: "Quando [...] se tratar de veículo automotor, será exigido o pagamento
    # das multas, caso tiver registro, seguro obrigatório e demais taxas devidas"
    conditions.append(ReleaseCondition(
        code="fines_insurance_fees_paid",
        label="Pagar as multas registradas, o seguro obrigatório e as demais taxas devidas do "
              "veículo.",
        article="Art. 3º, §3º, III",
        documents=("Comprovantes de pagamento das multas, do seguro obrigatório e das taxas "
                   "(ou CRLV do exercício atual)",),
    ))
    if situation.sale_communicated:
        # Art. 3º, §3º, III, a: "em caso de veículo automotor com registro de venda comunicada,
        # somente se transferida a propriedade"
        conditions.append(ReleaseCondition(
            code="ownership_transferred",
            label=("A venda foi comunicada ao DETRAN e a transferência já foi feita: apresente o "
                   "documento em nome do comprador.") if situation.transferred else
                  ("A venda foi comunicada ao DETRAN: o veículo só é liberado depois da "
                   "transferência para o comprador. Faça a transferência no DETRAN antes."),
            article="Art. 3º, §3º, III, a",
            documents=("CRV/CRLV emitido em nome do comprador (transferência concluída)",),
        ))
    if situation.unrecoverable:
        # Art. 3º, §3º, III, b: "em caso de impossibilidade de recuperação, somente será
        # retirado após a respectiva baixa junto ao órgão de trânsito competente"
        conditions.append(ReleaseCondition(
            code="deregistered",
            label=("O veículo não tem recuperação e a baixa já foi feita: apresente a certidão "
                   "de baixa.") if situation.deregistered else
                  ("O veículo não tem recuperação: ele só é retirado depois da baixa do registro "
                   "no DETRAN. Peça a baixa antes."),
            article="Art. 3º, §3º, III, b",
            documents=("Certidão de baixa do veículo emitida pelo DETRAN",),
        ))
    return conditions
