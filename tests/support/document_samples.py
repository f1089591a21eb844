"""Hand-made data for the renderers' unit tests (core/documents: data in, bytes out).
Fictitious people and numbers. The samples in docs/samples are not made from these: they come
from the real flow (python -m docs.samples docs/samples)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from decimal import Decimal

from core.identifiers import format_case_code
from core.documents.data import (
    EDITAL_LEILAO, EDITAL_NOTIFICACAO, EDITAL_REMOCAO, FURNITURE, OWNER_UNIDENTIFIED,
    AffixedNoticeData, AutoInfracaoData, CityHeader, CompanyLiability, DeadlineText, Depot,
    EditalEntry, EditalInfo, Evidence, FeeLine, Inspector, IntimacaoData, LowValueNoteData,
    NotificationData, ObjectData, OwnerLink, OwnerSummaryData, Person, ReleaseItem,
    RemovalTermData, SeizedItem,
)

#: The office's contact as every document prints it on its own header line (OFFICE_ADDRESS,
#: OFFICE_PHONE, OFFICE_HOURS; core.services.papers.placeholders.office_contact).
OFFICE_DORES = ("Setor de fiscalização da Prefeitura Municipal de Dores do Indaiá: Praça do "
                "Rosário, 1, Centro — tel. (37) 3551-0000 — atendimento de segunda a sexta, das "
                "8h às 17h")
OFFICE_DRACENA = ("Setor de fiscalização da Prefeitura Municipal de Dracena: Rua Brasil, 1144, "
                  "Centro — tel. (18) 3821-8200 — atendimento de segunda a sexta, das 8h às 17h")
DORES = CityHeader("Dores do Indaiá", "MG", "Lei Ordinária nº 3.043, de 08 de setembro de 2022",
                   "dores-do-indaia", OFFICE_DORES)
DRACENA = CityHeader("Dracena", "SP", "Lei nº 56, de 09 de outubro de 1951", "dracena",
                     OFFICE_DRACENA)
BOT = "ViaLivreDoresBot"
#: The owner's code as stored (8 characters of Crockford's base 32) and as every document
#: prints it (core.identifiers.format_case_code, as core.services.papers.documents hands it over).
CODE = "K7QM42XD"
CASE = format_case_code(CODE)  # "K7QM-42XD"
LINK = OwnerLink(BOT, CODE)
WHEN = datetime(2026, 11, 30, 14, 40)
INSPECTOR = Inspector("João Pereira", "Secretaria Municipal de Administração", "12.345-6")
OWNER_CPF = "529.982.247-25"  # a valid CPF that must never reach an edital
REPORTER = "Ana Denunciante"  # the reporter: never printed on any edital
GOL = ObjectData("ABC1D23", "Dores do Indaiá", "MG", "Volkswagen", "Gol 1.0", "Prata",
                 "9BWZZZ377VT004251", "00123456789")
DEPOT = Depot("Pátio Municipal", "Av. Brasil, 900, Distrito Industrial",
              "segunda a sexta, das 8h às 17h", "(37) 3551-0001")
DUE_NOTIF = DeadlineText(
    "quinta-feira, 10 de dezembro de 2026", "10/12/2026", "Art. 4º, I",
    "10 dias contados da notificação em 30/11/2026, excluído o dia do início e incluído o do "
    "vencimento; vencimento em dia sem expediente passa ao primeiro dia útil (Lei 9.784/1999, "
    "art. 66).")
DUE_RETRIEVAL = DeadlineText("segunda-feira, 21 de dezembro de 2026", "21/12/2026",
                             "Art. 6º, caput", "10 dias contados da remoção em 11/12/2026.")
DUE_AUCTION = DeadlineText("terça-feira, 9 de fevereiro de 2027", "09/02/2027",
                           "Art. 3º; CTB art. 328", "60 dias contados do recolhimento em 11/12/2026.")


def notification(**kw) -> NotificationData:
    base = dict(header=DORES, number="2026/0042", case_code=CASE, owner_name="Maria da Silva",
                obj=GOL, address="Rua Tiradentes, 120, Centro", deadline=DUE_NOTIF,
                inspector=INSPECTOR, place="Dores do Indaiá/MG", issued_on="30/11/2026",
                issued_at="14:35", link=LINK, generated_at=WHEN)
    base.update(kw)
    return NotificationData(**base)


def notification_unidentified() -> NotificationData:
    return notification(owner_name=None, track=OWNER_UNIDENTIFIED,
                        depot_address=f"{DEPOT.name}, {DEPOT.address}",
                        deadline=DeadlineText("segunda-feira, 14 de dezembro de 2026",
                                              "14/12/2026", "Art. 4º, II, b",
                                              "10 dias contados da publicação no Diário Oficial "
                                              "em 04/12/2026."))


def notification_furniture() -> NotificationData:
    fridge = ObjectData(description="Geladeira branca, duas portas, sem marca visível",
                        is_vehicle=False)
    return notification(track=FURNITURE, obj=fridge, deadline=DeadlineText(
        DUE_NOTIF.due_in_full, DUE_NOTIF.due_date, "Art. 5º, I", DUE_NOTIF.explanation))


def affixed() -> AffixedNoticeData:
    return AffixedNoticeData(
        DORES, CASE, GOL, "Rua Tiradentes, 120, Centro",
        DeadlineText(DUE_NOTIF.due_in_full, DUE_NOTIF.due_date, "Art. 4º, II, a",
                     "10 dias contados da afixação em 30/11/2026."),
        "30/11/2026", "14:35", INSPECTOR, LINK,
        f"{OFFICE_DORES}. Pátio: {DEPOT.address} — {DEPOT.hours}", WHEN)


def removal() -> RemovalTermData:
    return RemovalTermData(
        header=DORES, number="2026/0042", case_code=CASE, owner_name=None, obj=GOL,
        removed_from="Rua Tiradentes, 120, Centro", depot=DEPOT, removed_on="11/12/2026",
        removed_at="09:15", retrieval_deadline=DUE_RETRIEVAL, auction_after=DUE_AUCTION,
        inspector=INSPECTOR, link=LINK, generated_at=datetime(2026, 12, 11, 9, 30),
        object_identified=True, missing=frozenset({"tyres", "glass"}), dented=True,
        others="retrovisores", odometer="123.456 km",
        evidence=(Evidence("foto 1", "3f" * 32), Evidence("foto 2", "a7" * 32),
                  Evidence("vídeo", "0c" * 32)),
        tow_operator="Guincho Indaiá Ltda.",
        dates=term_sentences("motor_vehicle", (DUE_RETRIEVAL, DUE_AUCTION)))


def term_sentences(category: str, dues: tuple[DeadlineText, ...]) -> tuple[str, ...]:
    """The law's depot dates (Law.depot_terms) as the termo prints them, with sample dues."""
    from core.laws import get_law
    terms = get_law(DORES.law_slug).terms_in_depot(category, {})
    return tuple(t.owner.format(date=f"{d.due_in_full} ({d.due_date})" if t.days else "")
                 for t, d in zip(terms, dues))


def removal_furniture() -> RemovalTermData:
    """The termo of a sofa: no vehicle's 60 days (setting furniture_release_until_disposal)."""
    sofa = ObjectData(description="Sofá de três lugares, estofado marrom", is_vehicle=False)
    return replace(removal(), obj=sofa, missing=frozenset(), dented=False, others="",
                   odometer="", dates=term_sentences("large_furniture", (DUE_RETRIEVAL,)))


def edital_entries() -> list[EditalEntry]:
    return [
        EditalEntry(CASE, GOL, "Rua Tiradentes, 120, Centro", f"{DEPOT.name}, {DEPOT.address}",
                    "11/12/2026"),
        EditalEntry("DI-2026-0051", ObjectData(make="Fiat", model="Uno", colour="Vermelho",
                                               description="sem placa; contato "
                                                           f"do dono {OWNER_CPF}"),
                    "Rua Goiás, 45, Bairro São José", f"{DEPOT.name}, {DEPOT.address}",
                    "12/12/2026"),
    ]


def edital_info(header: CityHeader = DORES) -> EditalInfo:
    from core.laws import get_law
    wordings = {k: w.intro for k, w in get_law(header.law_slug).editais.items()}
    return EditalInfo(header, "015/2026", "14/12/2026", f"{header.city}/{header.uf}",
                      "Carlos Souza", "Secretário Municipal de Administração, Planejamento e Finanças",
                      datetime(2026, 12, 14, 10, 0), auction_date="15/02/2027, às 9h",
                      auction_place="Pátio Municipal, Av. Brasil, 900",
                      info=header.department,
                      wordings=wordings)


def auto(**kw) -> AutoInfracaoData:
    base = dict(
        header=DRACENA, number="0317/2026",
        offender=Person("José Ambulante", "RG 12.345.678-9", "Rua Bahia, 10, Dracena/SP"),
        fact="Comércio ambulante sem licença, com ocupação da calçada por banca de frutas.",
        place="Praça Dr. Luiz Antônio, em frente ao nº 200", day="03/12/2026", hour="10:20",
        provision="Código de Posturas do Município, art. 80 (exemplo)", fine=Decimal("250.00"),
        agent=Inspector("Paula Ramos", "Fiscalização de Posturas", "778"),
        appeal_deadline=DeadlineText("terça-feira, 8 de dezembro de 2026", "08/12/2026",
                                     "Art. 3º", "5 dias contados da imposição da multa em 03/12/2026."),
        depot=Depot("Depósito Municipal", "Rua São Paulo, 1.500, Dracena/SP",
                    "segunda a sexta, das 8h às 16h"),
        generated_at=datetime(2026, 12, 3, 10, 40), link=OwnerLink("ViaLivreDracenaBot", "DR-2026-0317"),
        company=CompanyLiability("Frutas Boa Safra Ltda.", "empregado"),
        seized=(SeizedItem("caixas de laranja", "4 caixas, 80 kg"), SeizedItem("banca desmontável", "1")),
        refused_to_sign=True,
        witnesses=(Person("Pedro Lima", "RG 22.333.444-5"), Person("Rita Alves", "RG 33.444.555-6")),
        dates=_perishable_dates(),
        current_costs=("depósito de animal, por dia: R$ 35,00 (desde 01/01/2026)",
                       "depósito de mercadorias, por quilo, por dia: R$ 0,50 (desde 01/01/2026)"))
    base.update(kw)
    return AutoInfracaoData(**base)


def _perishable_dates() -> tuple[str, ...]:
    """The oranges are gêneros: auctioned within three days (Dracena Art. 6º, §2º); from
    Thursday 03/12/2026 the count ends on a Sunday and moves to Monday."""
    from core.laws import get_law
    terms = get_law(DRACENA.law_slug).terms_in_depot("street_vendor_goods", {"perishable": True})
    return tuple(t.owner.format(date="segunda-feira, 7 de dezembro de 2026 (07/12/2026)")
                 for t in terms)


def low_value_note() -> LowValueNoteData:
    return LowValueNoteData(
        DRACENA, "N-0021/2026", "NÃO IDENTIFICADO",
        (SeizedItem("Óculos de sol", "12 unidades"), SeizedItem("Capinhas de celular", "30 unidades")),
        Decimal("80.00"), "Código de Posturas do Município, art. 80 (exemplo)",
        "Av. José Bonifácio, 300", "03/12/2026", "15:05", Inspector("Paula Ramos", "Fiscalização de Posturas"),
        DeadlineText("sábado, 5 de dezembro de 2026, às 15:05", "05/12/2026", "Art. 4º, § 2º",
                     "48 horas contadas da apreensão, de minuto a minuto (Código Civil, art. 132, § 4º)."),
        Depot("Depósito Municipal", "Rua São Paulo, 1.500", "segunda a sexta, das 8h às 16h"),
        datetime(2026, 12, 3, 15, 10))


def intimacao() -> IntimacaoData:
    a = auto(in_presence=False, refused_to_sign=False, seized=(), dates=())
    return IntimacaoData(a, "I-0044/2026", a.offender, "04/12/2026",
                         DeadlineText("quarta-feira, 9 de dezembro de 2026", "09/12/2026", "Art. 3º",
                                      "5 dias contados da intimação em 04/12/2026."),
                         datetime(2026, 12, 4, 9, 0))


def owner_summary() -> OwnerSummaryData:
    fees = (
        FeeLine("Reboque até o pátio", "Art. 3º, § 3º, II", Decimal("1"), Decimal("180.00"),
                "01/01/2026", Decimal("180.00"), "serviço"),
        FeeLine("Diárias no pátio", "Art. 3º, § 3º, II", Decimal("5"), Decimal("25.50"),
                "01/01/2026", Decimal("127.50"), "dias"),
    )
    release = (
        ReleaseItem("Identificar-se como proprietário(a), ou procurador com procuração pública, "
                    "com prova da propriedade", "Art. 3º, § 3º, I",
                    ("Documento de identidade com foto", "CRLV ou outro documento de propriedade",
                     "Procuração pública, se for procurador")),
        ReleaseItem("Pagar o reboque e as diárias", "Art. 3º, § 3º, II", ("Guia paga",)),
        ReleaseItem("Veículo automotor: pagar multas, seguro obrigatório e demais taxas",
                    "Art. 3º, § 3º, III", ("Comprovantes de pagamento",)),
    )
    return OwnerSummaryData(DORES, CASE, GOL, "Removido ao pátio", DUE_RETRIEVAL, release, fees,
                            Decimal("25.50"), "Art. 3º, § 3º, II; Art. 9º, II", DEPOT, DUE_AUCTION,
                            LINK, datetime(2026, 12, 16, 8, 0), fees_as_of="16/12/2026")


def builders() -> dict[str, Callable[[], bytes]]:
    """How to make every document with sample data, by file name (nothing is built yet)."""
    from core import documents as d

    return {
        "notificacao.pdf": lambda: d.notification_pdf(notification()),
        "notificacao-nao-identificado.pdf":
            lambda: d.notification_pdf(notification_unidentified()),
        "notificacao-movel.pdf": lambda: d.notification_pdf(notification_furniture()),
        "notificacao-afixada.pdf": lambda: d.affixed_notice_pdf(affixed()),
        "termo-de-recolhimento.pdf": lambda: d.removal_term_pdf(removal()),
        "termo-de-recolhimento-movel.pdf": lambda: d.removal_term_pdf(removal_furniture()),
        "edital-notificacao.pdf":
            lambda: d.edital_pdf(edital_entries(), EDITAL_NOTIFICACAO, edital_info()),
        "edital-remocao.pdf": lambda: d.edital_pdf(edital_entries(), EDITAL_REMOCAO, edital_info()),
        "edital-leilao.pdf": lambda: d.edital_pdf(edital_entries(), EDITAL_LEILAO, edital_info()),
        "edital-leilao-dracena.pdf":
            lambda: d.edital_pdf(edital_entries(), EDITAL_LEILAO, edital_info(DRACENA)),
        "auto-de-infracao.pdf": lambda: d.auto_infracao_pdf(auto()),
        "nota-de-apreensao.pdf": lambda: d.low_value_note_pdf(low_value_note()),
        "intimacao.pdf": lambda: d.intimacao_pdf(intimacao()),
        "resumo-proprietario.pdf": lambda: d.owner_summary_pdf(owner_summary()),
    }
