"""Dracena (Lei 56/1951): how the offender gets seized things back (Art. 7º), and the text
printed on the back of the auto (Art. 5º).

Art. 7º: "As mercadorias, objetos e semoventes levados ao depósito poderão ser retirados pelos
infratores, antes do leilão, desde que paguem a multa em que tenham incorrido, os impostos em
que porventura incidiram com a prática do ato, do qual resultou a apreensão, e as despesas com a
conservação ou o trato da coisa apreendida".
"""
from __future__ import annotations

from core.laws.base import Category, ReleaseCondition, ReleaseSituation


def retrieval_conditions(category: Category | None = None,
                         situation: ReleaseSituation | None = None) -> list[ReleaseCondition]:
    """The Art. 7º checklist. Same shape as core.laws.base.Law.release_conditions; the 1951 law
    makes no distinction by category or by who asks, so both arguments are ignored."""
    return [
        # Art. 7º: "poderão ser retirados pelos infratores, antes do leilão"
        ReleaseCondition(
            code="before_auction",
            label="Retirar antes do leilão; depois dele só resta receber o saldo da venda.",
            article="Art. 7º",
        ),
        ReleaseCondition(
            code="offender_identified",
            label="A retirada é feita pelo infrator autuado, que deve se identificar.",
            article="Art. 7º",
            documents=("Documento oficial de identificação com foto",
                       "Cópia do auto de infração e apreensão (Art. 5º, § único)"),
        ),
        # Art. 7º: "desde que paguem a multa em que tenham incorrido"
        ReleaseCondition(
            code="fine_paid",
            label="Pagar a multa aplicada no auto.",
            article="Art. 7º",
            documents=("Comprovante de pagamento da multa",),
        ),
        # Art. 7º: "os impostos em que porventura incidiram com a prática do ato"
        ReleaseCondition(
            code="taxes_paid",
            label="Pagar os impostos devidos pelo ato que causou a apreensão, se houver.",
            article="Art. 7º",
            documents=("Comprovante de pagamento dos impostos, se houver",),
        ),
        # Art. 7º, a e b: "as despesas com a conservação ou o trato da coisa apreendida"
        ReleaseCondition(
            code="keeping_costs_paid",
            label="Pagar as despesas de depósito: por animal, por dia; por quilo de mercadoria, "
                  "por dia, nos valores vigentes fixados pela Prefeitura.",
            article="Art. 7º, a e b",
            documents=("Comprovante de pagamento das despesas de depósito",),
        ),
    ]


#: Art. 5º: the printed auto carries "no verso os textos legais que dispõem sobre os recursos
#: cabíveis, as formalidades a serem preenchidas para a devolução das coisas ou semovente
#: apreendidos, e o seu destino quando não reclamados".
APPEAL_RULES = """\
SEUS DIREITOS E COMO RECUPERAR O QUE FOI APREENDIDO (Lei Municipal nº 56/1951)

1. Recurso (Art. 3º): o autuado, ou quem responde com ele, pode recorrer ao Prefeito em até \
5 (cinco) dias, contados da multa, quando o auto foi lavrado na sua presença, ou da data da \
intimação, quando não foi. Sem recurso, ou se o recurso for negado, a multa é confirmada, \
inscrita em dívida ativa e cobrada judicialmente (Art. 3º, § 1º).

2. Apreensão de bens de infratores desconhecidos, não identificados ou de fora do município \
(ambulantes, anúncios, coisas abandonadas) (Art. 4º, § 2º): o prazo de recurso é de \
48 (quarenta e oito) horas, contadas da apreensão, e o Prefeito decide em igual prazo.

3. Destino do que foi apreendido (Art. 6º): os bens vão ao depósito municipal, são registrados \
em livro próprio e vão a leilão depois de negado o recurso ou de vencido o prazo para \
apresentá-lo. O leilão é anunciado por edital (Art. 6º, § 1º). Gêneros e animais vão a leilão \
em até 3 (três) dias (Art. 6º, § 2º). O saldo da venda, descontados os valores do item 4, é \
entregue ao infrator mediante recibo (Art. 6º, § 3º).

4. Como retirar antes do leilão (Art. 7º): pague a multa, os impostos devidos pelo ato que \
causou a apreensão, se houver, e as despesas de depósito: por animal, por dia, e por quilo de \
mercadoria, por dia, nos valores vigentes fixados pela Prefeitura. Traga documento com foto e \
a sua cópia deste auto (Art. 5º, § único).
"""
