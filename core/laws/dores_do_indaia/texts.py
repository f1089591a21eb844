"""Dores do Indaiá (Lei 3.043/2022): what the owner and the citizen are told in each state of
each track — where the object is (on the street, on its way, in the depot) and what comes next
— and how the law words its auction edital.

Per (track, state): the two tracks share state codes with different meanings ("published" is a
vehicle still on the street, Art. 4º, II, b, but furniture already in the depot, Art. 5º, III).
Final states need no text: the case is closed.
"""
from __future__ import annotations

from core.laws.base import EditalWording, StateText
from core.laws.dores_do_indaia.categories import TRACK_FURNITURE, TRACK_VEHICLE

V, F = TRACK_VEHICLE, TRACK_FURNITURE
ON_STREET = "O veículo continua na rua."
IN_DEPOT = "O veículo está no pátio municipal."
THING_ON_STREET = "O objeto continua na rua."
THING_IN_DEPOT = "O objeto está no depósito municipal."
POLICE = ("O caso está com a polícia por suspeita de roubo ou furto; a prefeitura aguarda a "
          "resposta ({article}).")
#: Dores Art. 6º, §4º: once the vehicle starts moving onto the tow platform, §3º no longer
#: lets the owner stop the removal.
TOWING_STARTED = ("A remoção já começou e, pela lei, não pode mais ser interrompida "
                  "(Art. 6º, §4º). Acompanhe aqui as condições para retirar o objeto do pátio.")
RELEASE = "Para retirá-lo, veja abaixo as condições e os valores (Art. 3º, §3º)."

STATE_TEXTS: dict[tuple[str, str], StateText] = {
    # -- vehicles, chassis, carriages: Art. 4º, Art. 6º, Art. 3º ---------------------------------
    (V, "reported"): StateText(
        "O veículo continua na rua, no local denunciado.",
        "A prefeitura vai enviar um fiscal para vistoriar o veículo (Art. 4º, caput)."),
    (V, "diligence"): StateText(
        ON_STREET, "Um fiscal vai ao local verificar o abandono e identificar o proprietário "
                   "(Art. 4º, caput)."),
    (V, "police_referral"): StateText(ON_STREET, POLICE.format(article="Art. 4º, III")),
    (V, "owner_notified"): StateText(
        ON_STREET, "O proprietário foi notificado e tem 10 dias para retirá-lo; vencido o "
                   "prazo, o veículo é removido ao pátio (Art. 4º, I; Art. 6º, caput).",
        "Você foi notificado: retire o veículo da rua dentro do prazo, ou ele será removido ao "
        "pátio (Art. 4º, I; Art. 6º, caput)."),
    (V, "notice_affixed"): StateText(
        "O veículo continua na rua, com a notificação afixada.",
        "A notificação será publicada no Diário Oficial; o prazo de 10 dias para a retirada "
        "conta da publicação (Art. 4º, II).",
        "Retire o veículo da rua: vencidos 10 dias da publicação no Diário Oficial, ele é "
        "removido ao pátio (Art. 4º, II; Art. 6º, caput)."),
    (V, "published"): StateText(
        "O veículo continua na rua; a notificação foi publicada no Diário Oficial.",
        "Vencidos os 10 dias contados da publicação, o veículo é removido ao pátio "
        "(Art. 4º, II, b; Art. 6º, caput).",
        "Retire o veículo da rua antes do fim dos 10 dias contados da publicação; depois, ele "
        "é removido ao pátio (Art. 4º, II, b; Art. 6º, caput)."),
    (V, "removal_due"): StateText(
        "O veículo continua na rua, e a remoção ao pátio está autorizada (Art. 6º, caput).",
        "A prefeitura vai rebocá-lo ao pátio municipal (Art. 6º).",
        "Se você retirar o veículo antes do início da operação de remoção, ela não acontece "
        "(Art. 6º, §3º)."),
    (V, "owner_removing"): StateText(
        "O veículo continua na rua; o proprietário se comprometeu a retirá-lo.",
        "O fiscal vai conferir se ele foi retirado até a data combinada; se não, a remoção ao "
        "pátio segue (Art. 6º, §3º)."),
    (V, "removal_started"): StateText(
        "O veículo está sendo removido da rua para o pátio municipal.",
        "Ao chegar, é registrado no pátio com o termo de recolhimento (Art. 6º, I, b).",
        TOWING_STARTED),
    (V, "in_depot"): StateText(
        IN_DEPOT, "Se ninguém o reclamar em 60 dias contados do recolhimento, ele pode ir a "
                  "leilão (Art. 3º, caput; CTB art. 328).", RELEASE),
    (V, "auction_eligible"): StateText(
        IN_DEPOT, "O prazo de 60 dias terminou: o veículo pode ir a leilão (Art. 3º, caput; "
                  "Art. 8º).",
        "O prazo para retirar terminou: o veículo pode ir a leilão (Art. 3º, caput; Art. 8º)."),
    # -- large furniture and machinery: Art. 5º, Art. 3º, §1º --------------------------------
    (F, "reported"): StateText(
        "O objeto continua na rua, no local denunciado.",
        "A Secretaria de Saúde (ou órgão conveniado) vai ao local verificar (Art. 5º, caput)."),
    (F, "diligence"): StateText(
        THING_ON_STREET, "A fiscalização verifica o abandono e procura o proprietário; se ele "
                         "não for identificado, o objeto é removido de imediato (Art. 5º, II)."),
    (F, "police_referral"): StateText(THING_ON_STREET, POLICE.format(article="Art. 5º, IV")),
    (F, "owner_notified"): StateText(
        THING_ON_STREET, "O proprietário foi notificado e tem 10 dias para retirá-lo; vencido "
                         "o prazo, o objeto é removido ao depósito (Art. 5º, I).",
        "Você foi notificado: retire o objeto da rua em 10 dias, ou ele será removido ao "
        "depósito (Art. 5º, I)."),
    (F, "removal_due"): StateText(
        "O objeto continua na rua, e a remoção ao depósito está autorizada (Art. 5º, I).",
        "A prefeitura vai levá-lo ao depósito municipal (Art. 5º, II).",
        "Se você retirar o objeto antes do início da remoção, ela não acontece "
        "(Art. 6º, §3º)."),
    (F, "owner_removing"): StateText(
        "O objeto continua na rua; o proprietário se comprometeu a retirá-lo.",
        "O fiscal vai conferir se ele foi retirado até a data combinada; se não, a remoção ao "
        "depósito segue (Art. 6º, §3º)."),
    (F, "removal_started"): StateText(
        "O objeto está sendo levado da rua para o depósito municipal.",
        "Ao chegar, é registrado no depósito com o termo de recolhimento (Art. 6º, I, b).",
        "A remoção já começou. Acompanhe aqui as condições para retirar o objeto do depósito "
        "(Art. 3º, §3º)."),
    (F, "in_depot"): StateText(
        THING_IN_DEPOT, "Sem proprietário identificado, a notificação é publicada no Diário "
                        "Oficial, com 10 dias para a retirada (Art. 5º, III).", RELEASE),
    (F, "published"): StateText(
        "O objeto está no depósito municipal; a notificação foi publicada no Diário Oficial.",
        "Vencidos os 10 dias contados da publicação, ele vai à sucata de recicláveis ou a "
        "leilão (Art. 5º, III; Art. 3º, §1º; Art. 8º).",
        "Retire-o em até 10 dias contados da publicação; veja abaixo as condições e os valores "
        "(Art. 5º, III; Art. 3º, §3º)."),
    (F, "disposal_due"): StateText(
        THING_IN_DEPOT, "O prazo para retirar terminou: o objeto aguarda destinação, sucata de "
                        "recicláveis ou leilão (Art. 3º, §1º; Art. 8º)."),
}

EDITAIS: dict[str, EditalWording] = {
    # Art. 4º, II, b: "publicada a notificação no Diário Oficial do Município, contendo as
    # características do veículo, chassi ou carroceria e o endereço em que se encontra
    # abandonado, iniciando, a partir da data da publicação, o prazo de 10 dias".
    "notificacao": EditalWording(
        "Art. 4º, II, b",
        "A {pref}, nos termos do Art. 4º, II, b, da {law}, NOTIFICA os "
        "proprietários/responsáveis pelos objetos abaixo, encontrados em estado de abandono em "
        "espaço público e cujo proprietário não foi identificado, a retirá-los e "
        "acondicioná-los em local adequado no prazo de 10 (dez) dias, contados da data desta "
        "publicação, sob pena de remoção ao pátio, leilão e demais penalidades legais cabíveis.",
        "Notificação a proprietário não identificado"),
    # Art. 5º, III (furniture and machinery removed at once, Art. 5º, II): "as
    # características do bem móvel", "endereço de depósito, data e hora", 10 days.
    "notificacao_bens": EditalWording(
        "Art. 5º, III",
        "A {pref}, nos termos do Art. 5º, III, da {law}, NOTIFICA os "
        "proprietários/responsáveis pelos bens móveis de grande porte e maquinários abaixo, "
        "encontrados em estado de abandono em espaço público e removidos de imediato por não "
        "ter sido identificado o proprietário/responsável (Art. 5º, II), a retirá-los do "
        "depósito e acondicioná-los em local adequado no prazo de 10 (dez) dias, contados da "
        "data desta publicação, mediante o pagamento dos custos de remoção e das diárias "
        "(Art. 3º, § 3º, II), sob pena de destinação à sucata de recicláveis (Art. 3º, § 1º) "
        "ou a leilão (Art. 8º).",
        "Móveis de grande porte e maquinários recolhidos de imediato — notificação"),
    # Art. 6º, §1º: "a) os dados possíveis do veículo; b) o local onde se encontrava
    # abandonado; c) o local de destino da remoção".
    "remocao": EditalWording(
        "Art. 6º, §1º",
        "A {pref}, nos termos do Art. 6º, § 1º, da {law}, TORNA PÚBLICO que os objetos "
        "abaixo, de proprietários não identificados, foram removidos do espaço público; de "
        "cada um constam os dados conhecidos do veículo, o local onde se encontrava abandonado "
        "e o local de destino da remoção. O prazo de 10 (dez) dias para retirada (Art. 6º, "
        "caput) e as condições do Art. 3º, § 3º, aplicam-se à retirada.",
        "Remoção com proprietário não identificado"),
    # Art. 3º, caput (60 days unclaimed → hasta pública; CTB art. 328) and Art. 8º (comissão).
    "leilao": EditalWording(
        "Art. 3º, caput; Art. 8º",
        "A {pref}, nos termos do Art. 3º e do Art. 8º da {law} e do art. 328 do Código de "
        "Trânsito Brasileiro, TORNA PÚBLICO que os objetos abaixo, não reclamados no prazo de "
        "60 (sessenta) dias contados do recolhimento, serão levados à hasta pública pela "
        "comissão de leilão nomeada pelo Poder Executivo (Art. 8º), obedecida a lei de "
        "licitação."),
}
