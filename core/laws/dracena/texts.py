"""Dracena (Lei 56/1951): what the owner (the offender) and the citizen are told in each state
of each track — where the seized things are (on the street, in the depot, sold; an auto de
infração seizes nothing) and what comes next — and how the law words its auction edital.
Final states need no text: the case is closed."""
from __future__ import annotations

from core.laws.base import EditalWording, StateText
from core.laws.dracena.categories import TRACK_APPREHENSION, TRACK_INFRACTION

I, A = TRACK_INFRACTION, TRACK_APPREHENSION
NOTHING_SEIZED = "Nada foi apreendido: o caso é de multa."
GOODS_IN_DEPOT = "Os bens estão no depósito municipal."
NOT_SEIZED_YET = ("Nada foi apreendido ainda: a denúncia aponta uma ocorrência na rua, no local "
                  "indicado.")
RETRIEVE = "pagando a multa, os impostos devidos e as despesas de depósito (Art. 7º)"

STATE_TEXTS: dict[tuple[str, str], StateText] = {
    # -- auto de infração: Art. 1º, 2º, 3º ----------------------------------------------------
    (I, "reported"): StateText(
        "Nada foi apreendido: a ocorrência segue na rua, no local denunciado.",
        "Um fiscal vai verificar a ocorrência e, se houver infração, lavrar o auto "
        "(Art. 1º; Art. 2º)."),
    (I, "diligence"): StateText(
        "Nada foi apreendido: a ocorrência segue na rua, no local denunciado.",
        "O fiscal verifica a ocorrência no local e, havendo infração, lavra o auto (Art. 2º)."),
    (I, "awaiting_intimacao"): StateText(
        NOTHING_SEIZED, "O infrator será intimado por escrito; o prazo de 5 dias para recurso "
                        "conta da intimação (Art. 2º, §3º; Art. 3º)."),
    (I, "appeal_window"): StateText(
        NOTHING_SEIZED, "O infrator pode recorrer ao Prefeito em 5 dias; sem recurso, a multa "
                        "é confirmada (Art. 3º; Art. 3º, §1º).",
        "Você pode recorrer ao Prefeito dentro do prazo; sem recurso, a multa é confirmada "
        "(Art. 3º; Art. 3º, §1º)."),
    (I, "appeal_pending"): StateText(
        NOTHING_SEIZED, "O recurso está com o Prefeito para decisão (Art. 3º)."),
    (I, "fine_confirmed"): StateText(
        NOTHING_SEIZED, "A multa foi confirmada: deve ser paga, ou será inscrita em dívida "
                        "ativa e cobrada (Art. 3º, §1º).",
        "Pague a multa para evitar a inscrição em dívida ativa e a cobrança (Art. 3º, §1º)."),
    # -- apprehension: Art. 4º, 6º, 7º ---------------------------------------------------------
    # Before the apprehension nothing is known of where the goods or animals are now (a
    # vendor moves on, an animal wanders): only that nothing was seized yet.
    (A, "reported"): StateText(
        NOT_SEIZED_YET,
        "Um fiscal vai verificar a ocorrência e pode apreender os bens ou animais (Art. 4º)."),
    (A, "diligence"): StateText(
        NOT_SEIZED_YET,
        "O fiscal verifica no local; apreendidos, os bens vão ao depósito municipal "
        "(Art. 4º; Art. 6º)."),
    (A, "apprehended"): StateText(
        GOODS_IN_DEPOT, "Há 48 horas para recorrer ao Prefeito; sem recurso, vão a leilão "
                        "(Art. 4º, §2º; Art. 6º).",
        f"Você pode recorrer ao Prefeito em 48 horas ou retirá-los {RETRIEVE}."),
    (A, "appeal_pending"): StateText(
        GOODS_IN_DEPOT, "O recurso está com o Prefeito, que decide em 48 horas (Art. 4º, §2º).",
        f"O recurso está com o Prefeito (Art. 4º, §2º). Você ainda pode retirá-los {RETRIEVE}."),
    (A, "auction_eligible"): StateText(
        GOODS_IN_DEPOT, "Vão a leilão, anunciado por edital (Art. 6º; Art. 6º, §1º).",
        f"O prazo de recurso terminou. Até o leilão, você ainda pode retirá-los {RETRIEVE}."),
    (A, "auctioned"): StateText(
        "Os bens foram vendidos em leilão.",
        "O saldo da venda, descontados a multa, os impostos e as despesas, é entregue ao "
        "infrator mediante recibo (Art. 6º, §3º).",
        "Procure a prefeitura para receber o saldo da venda, mediante recibo (Art. 6º, §3º)."),
}

EDITAIS: dict[str, EditalWording] = {
    # Art. 6º, §1º: "previamente anunciado por editais afixados no lugar de costume".
    "leilao": EditalWording(
        "Art. 6º, §1º",
        "A {pref}, nos termos do Art. 6º, § 1º, da {law}, TORNA PÚBLICO que os objetos "
        "abaixo, apreendidos e recolhidos ao depósito municipal, julgado improcedente o "
        "recurso ou transcorrido o prazo para sua interposição (Art. 6º), serão levados a "
        "leilão. Até o leilão, podem ser retirados mediante o pagamento da multa, dos impostos "
        "e das despesas de conservação (Art. 7º)."),
}
