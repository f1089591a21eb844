"""Editais for the Diário Oficial do Município: plain text to paste, and a PDF. Each law words
its editais (Law.editais, passed in EditalInfo.wordings); a kind the law does not word gets a
plain wording citing only the law. Dores do Indaiá's (core/laws/dores_do_indaia/texts.py):

- "notificacao" — Dores Art. 4º, II, b: "publicada a notificação no Diário Oficial do
  Município, contendo as características do veículo, chassi ou carroceria e o endereço em
  que se encontra abandonado, iniciando, a partir da data da publicação, o prazo de 10 dias".
- "remocao" — Dores Art. 6º, § 1º: "a) os dados possíveis do veículo; b) o local onde se
  encontrava abandonado; c) o local de destino da remoção".
- "notificacao_bens" — Dores Art. 5º, III (large furniture and machinery removed at once
  because the owner was not identified, Art. 5º, II): "publicada a notificação no Diário
  Oficial do Município, contendo as características do bem móvel e o endereço em que se
  encontra abandonado, iniciando, a partir da data da publicação, o prazo de 10 dias para que
  seu proprietário/responsável o retire"; the notification also gives "endereço de depósito,
  data e hora".
- "leilao" — Dores Art. 3º (60 days unclaimed → hasta pública; CTB art. 328) and Art. 8º
  (comissão de leilão); Dracena's (core/laws/dracena/texts.py): Art. 6º, § 1º ("previamente
  anunciado por editais afixados no lugar de costume, no próprio depósito, ou pela
  imprensa").

Editais carry only what the law requires: EditalEntry has no owner and no reporter field,
and free text is scrubbed of CPF/CNPJ numbers (LGPD)."""
from __future__ import annotations

from core.documents.data import (
    EDITAL_KINDS, EDITAL_LEILAO, EDITAL_NOTIFICACAO, EDITAL_REMOCAO, EditalEntry, EditalInfo,
    ObjectData,
)
from core.documents.fmt import scrub_personal
from core.documents.pdf import DocumentPDF

#: Dores Art. 5º, III: furniture and machinery removed at once (owner not identified).
EDITAL_NOTIFICACAO_BENS = "notificacao_bens"
ALL_KINDS = (*EDITAL_KINDS, EDITAL_NOTIFICACAO_BENS)

TITLES = {
    EDITAL_NOTIFICACAO: "EDITAL DE NOTIFICAÇÃO — OBJETOS EM ESTADO DE ABANDONO",
    EDITAL_NOTIFICACAO_BENS: "EDITAL DE NOTIFICAÇÃO — MÓVEIS DE GRANDE PORTE E MAQUINÁRIOS "
                             "RECOLHIDOS",
    EDITAL_REMOCAO: "EDITAL DE REMOÇÃO — OBJETOS RECOLHIDOS AO PÁTIO",
    EDITAL_LEILAO: "EDITAL DE LEILÃO — OBJETOS NÃO RECLAMADOS",
}


def _intro(kind: str, info: EditalInfo) -> str:
    pref = info.header.prefeitura.title().replace(" De ", " de ").replace(" Do ", " do ")
    if kind in info.wordings:  # the law words it (Law.editais)
        return info.wordings[kind].format(pref=pref, law=info.header.law_title)
    # A law that words none of its own: the kind's plain wording, citing only the law.
    if kind == EDITAL_NOTIFICACAO:
        return (f"A {pref}, nos termos da {info.header.law_title}, NOTIFICA os "
                "proprietários/responsáveis pelos objetos abaixo, encontrados em estado de "
                "abandono e cujo proprietário não foi identificado, a retirá-los no prazo "
                "legal, contado da data desta publicação.")
    if kind == EDITAL_NOTIFICACAO_BENS:
        return (f"A {pref}, nos termos da {info.header.law_title}, NOTIFICA os "
                "proprietários/responsáveis pelos bens abaixo, recolhidos ao depósito por não "
                "ter sido identificado o proprietário, a retirá-los no prazo legal, contado da "
                "data desta publicação.")
    if kind == EDITAL_REMOCAO:
        return (f"A {pref}, nos termos da {info.header.law_title}, TORNA PÚBLICO que os "
                "objetos abaixo, de proprietários não identificados, foram removidos ao "
                "depósito.")
    return (f"A {pref}, nos termos da {info.header.law_title}, TORNA PÚBLICO que os objetos "
            "abaixo, não reclamados no prazo legal, serão levados a leilão.")


def _object_line(obj: ObjectData) -> str:
    if not obj.is_vehicle:
        return scrub_personal(obj.description or "Bem móvel")
    fields = [("placa", obj.plate), ("marca", obj.make), ("modelo", obj.model),
              ("cor", obj.colour), ("chassi", obj.chassis), ("RENAVAM", obj.renavam),
              ("município/UF", "/".join(p for p in (obj.municipality, obj.uf) if p))]
    # Only the reviewed boxes: a free text (the citizen's words) never reaches an edital.
    return "; ".join(f"{k}: {scrub_personal(v)}" for k, v in fields if v) \
        or "veículo sem identificação"


def entry_lines(kind: str, entry: EditalEntry) -> list[str]:
    lines = [f"Caso {entry.case_code} — {_object_line(entry.obj)}."]
    place = scrub_personal(entry.abandoned_at)
    if kind == EDITAL_NOTIFICACAO:
        lines.append(f"Local em que se encontra abandonado: {place}.")
    elif kind == EDITAL_NOTIFICACAO_BENS:
        # Art. 5º, III: "endereço em que se encontra abandonado", "endereço de depósito,
        # data e hora".
        lines.append(f"Endereço em que se encontrava abandonado: {place}.")
        if entry.destination:
            lines.append(f"Endereço do depósito: {scrub_personal(entry.destination)}.")
        if entry.removed_on:
            lines.append(f"Recolhido em: {entry.removed_on}.")
    else:
        lines.append(f"Local onde se encontrava abandonado: {place}.")
        if entry.removed_on:
            lines.append(f"Data do recolhimento: {entry.removed_on}.")
        if entry.destination:
            lines.append(f"Local de destino da remoção: {scrub_personal(entry.destination)}.")
    return lines


def _check(kind: str) -> None:
    if kind not in ALL_KINDS:
        raise ValueError(f"Unknown edital kind {kind!r}; expected one of {ALL_KINDS}")


def _closing(kind: str, info: EditalInfo) -> list[str]:
    out = []
    if kind == EDITAL_LEILAO and (info.auction_date or info.auction_place):
        out.append(f"Leilão: {info.auction_date or 'data a definir'}"
                   + (f", em {info.auction_place}" if info.auction_place else "") + ".")
    if info.info:
        out.append("Informações: " + info.info)
    return out


def edital_text(entries: list[EditalEntry], kind: str, info: EditalInfo) -> str:
    """Plain text to paste into the Diário Oficial."""
    _check(kind)
    parts = [info.header.prefeitura, f"{TITLES[kind]} Nº {info.number}", "", _intro(kind, info), ""]
    for i, entry in enumerate(entries, 1):
        lines = entry_lines(kind, entry)
        parts.append(f"{i}. " + lines[0])
        parts.extend("   " + line for line in lines[1:])
    parts.append("")
    parts.extend(_closing(kind, info))
    parts += [f"{info.place}, {info.issued_on}.", "", info.signer_name, info.signer_role]
    return "\n".join(parts).strip() + "\n"


def edital_pdf(entries: list[EditalEntry], kind: str, info: EditalInfo) -> bytes:
    _check(kind)
    pdf = DocumentPDF(f"Edital {info.number}", info.generated_at, info.header)
    pdf.add_page()
    pdf.city_header()
    pdf.title_line(f"{TITLES[kind]}\nNº {info.number}", size=12)
    pdf.para(_intro(kind, info), size=10)
    for i, entry in enumerate(entries, 1):
        lines = entry_lines(kind, entry)
        pdf.labelled(f"{i}. ", lines[0], 9.5)
        for line in lines[1:]:
            pdf.set_x(pdf.l_margin + 5)
            pdf.multi_cell(0, 4.6, line, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1.5)
    for line in _closing(kind, info):
        pdf.para(line, size=10)
    pdf.para(f"{info.place}, {info.issued_on}.", align="R")
    pdf.signature(info.signer_name, info.signer_role, width=90, x=(pdf.w - 90) / 2)
    return bytes(pdf.output())
