"""The law registry: a city's law is one module (a folder of its own), found by its slug;
its steps' papers included."""
from __future__ import annotations

import sys
import textwrap

import pytest

import core.laws as laws
from core.services.owners.text import view_text
from core.laws import get_law, registry


def test_both_laws_registered_by_slug():
    assert set(registry()) >= {"dores-do-indaia", "dracena"}
    assert get_law("dracena").short == "Lei 56/1951"


def test_unknown_municipality_names_the_known_ones():
    with pytest.raises(KeyError) as err:
        get_law("atlantis")
    assert "dores-do-indaia" in str(err.value)


@pytest.mark.parametrize("slug", ["dores-do-indaia", "dracena"])
def test_every_track_tells_the_citizen_what_happens_next(slug):
    law = get_law(slug)
    for track in law.tracks:
        assert law.next_steps.get(track), f"{slug}/{track} has no next steps"


THIRD_LAW = textwrap.dedent('''
    """Testópolis, Lei 1/2030: a third city, as one folder and nothing else."""
    from datetime import date
    from decimal import Decimal

    from core.fees import Statement, storage_days, storage_lines
    from core.laws.base import Agency, Category, EditalWording, Law, StateText, TariffSeed
    from core.laws.common import A, FACT_LABELS, tr
    from core.lifecycle import Lifecycle, State

    TRACK = Lifecycle.build("t", "reported", [
        State("reported", "Recebida", in_public_space=True),
        State("in_depot", "No depósito", in_depot=True),
        State("released", "Devolvida", final=True),
    ], [
        tr("collect", ("reported",), "in_depot", (A.STAFF,), "Art. 2º",
           "recolhe, e entrega recibo", "Recolher ao depósito",
           requires=("item_description", "collected_at"),
           document="recibo"),  # Art. 2º: its own paper, written in papers.py beside it
        tr("release", ("in_depot",), "released", (A.STAFF,), "Art. 3º", "devolve",
           "Devolver", requires=("fees_paid",)),
    ], FACT_LABELS)

    def papers():  # the city's own documents, loaded only when one is issued
        from .papers import DOCUMENTS
        return DOCUMENTS

    def statement(book, facts, collected_at, as_of, law):  # Art. 3º: R$ por dia
        days = storage_days(collected_at, as_of, cap_days=None)
        return Statement.of(storage_lines(book, "day", days), as_of)

    LAW = Law(slug="testopolis", title="Lei 1/2030", short="Lei 1/2030", city="Testópolis",
              uf="SP", centre=(-22.0, -47.0), radius_m=1000,
              agencies={"fisc": Agency("fisc", "Fiscalização", "Art. 1º")},
              categories={"thing": Category("thing", "Coisa", "Art. 1º", "t")},
              tracks={"t": TRACK},
              tariffs=(TariffSeed("day", "Diária do depósito", Decimal("10.00"), "BRL",
                                  date(2030, 1, 1), "day", "Art. 3º", "Lei 1/2030"),),
              fee_statement=statement, fees_article="Art. 3º",
              state_texts={("t", "reported"): StateText("A coisa continua na rua.",
                                                        "A prefeitura vai recolhê-la (Art. 2º)."),
                           ("t", "in_depot"): StateText("A coisa está no depósito.",
                                                        "Retire-a pagando as diárias (Art. 3º).")},
              editais={"leilao": EditalWording("Art. 4º", "A {pref}, pela {law}, leiloa.")},
              papers=papers)
''')
#: The city's own paper, in its folder: the recibo its collection step issues (Art. 2º).
THIRD_LAW_PAPERS = textwrap.dedent('''
    """Testópolis's recibo de recolhimento (Lei 1/2030, Art. 2º: "recolhe, e entrega recibo")."""
    from core.documents.pdf import DocumentPDF
    from core.services.cases.transitions import case_facts, load_case
    from core.services.papers.documents import header, keep
    from core.services.papers.facts import Recorded
    from core.services.papers.kinds import DocumentKind


    async def issue_recibo(core, protocol, by, *, session=None, recorded=None):
        if session is None:
            async with core.db.unit_of_work() as s:
                return await issue_recibo(core, protocol, by, session=s, recorded=recorded)
        case = await load_case(session, protocol, for_update=True)
        basis = recorded or Recorded(case.state, case.deadline_json, core.now())
        pdf = DocumentPDF("Recibo de recolhimento", basis.at, header(core))
        pdf.add_page()
        pdf.city_header()
        pdf.title_line("RECIBO DE RECOLHIMENTO")
        pdf.para(f"Recolhido ao depósito: {case_facts(case)['item_description']} (Art. 2º).")
        return await keep(core, session, case, by, "recibo", f"recibo-{case.protocol}.pdf",
                          bytes(pdf.output()), "Art. 2º", basis=basis)


    DOCUMENTS = (DocumentKind("recibo", "Recibo de recolhimento", "Recibo", issue_recibo),)
''')


@pytest.fixture
def third_law(tmp_path, monkeypatch):
    city = tmp_path / "testopolis"  # its folder: the law, and its own paper beside it
    city.mkdir()
    (city / "__init__.py").write_text(THIRD_LAW, encoding="utf-8")
    (city / "papers.py").write_text(THIRD_LAW_PAPERS, encoding="utf-8")
    monkeypatch.setattr(laws, "__path__", [*laws.__path__, str(tmp_path)])
    for name in ("core.laws.testopolis", "core.laws.testopolis.papers"):  # this test's copy
        monkeypatch.delitem(sys.modules, name, raising=False)
    registry.cache_clear()
    yield get_law("testopolis")
    registry.cache_clear()


def test_a_third_law_is_one_new_module(third_law):
    assert get_law("testopolis").city == "Testópolis"
    # its rules load without its papers (they need storage): only issuing one imports them
    assert "core.laws.testopolis.papers" not in sys.modules


@pytest.fixture
async def core(third_law, make_core):
    return await make_core("testopolis")


async def test_a_third_law_works_everywhere_with_no_other_edit(core, photo, clock):
    """Its fees, the owner's view, the panel's case page, documents and the CSV: nothing
    outside its module names it."""
    from datetime import datetime, timezone

    from core.services.cases.transitions import apply_transition
    from core.services.owners import link_by_code, owner_summary_pdf
    from core.services.citizens.reports import ReportIn, submit_report
    from core.services.staff.accounts import create_user
    from core.storage.timeline import ActorRef
    from tests.support.panel import PASSWORD, Panel

    clock.now = datetime(2030, 3, 1, 12, tzinfo=timezone.utc)
    sub = await submit_report(core, 501, ReportIn("thing", -22.0, -47.0, [photo(0)],
                                                  address="Rua 1"), display_name="Cida")
    await apply_transition(core, sub.protocol, "collect", ActorRef("staff", 0, "Bruno"),
                           {"item_description": "sofá", "collected_at": "2030-03-01T08:00:00-03:00"})
    clock.advance(days=2)  # collected 01/03 08:00, now 03/03 09:00: 3 started days × R$ 10
    view = await link_by_code(core, 777, sub.case_code)
    assert view.depot.fees.total == 30 and "A coisa está no depósito." in view.next_step
    assert "Diária do depósito" in view_text(view) and "(Art. 3º" in view_text(view)
    assert (await owner_summary_pdf(core, 777, sub.case_code)).startswith(b"%PDF")
    await create_user(core, "bruno", PASSWORD, "staff")
    async with Panel(core).client("bruno") as c:
        page = await c.get(f"/casos/{sub.protocol}")
        assert page.status == 200 and "Valores devidos hoje" in await page.text()
        depot = await c.get("/patio")
        assert depot.status == 200 and sub.protocol in await depot.text()
        csv = await c.get("/exportar/casos.csv")
        row = next(ln for ln in (await csv.text()).splitlines() if sub.protocol in ln)
        assert csv.status == 200 and row.endswith(";30,00")  # the same statement


def test_citizen_signs_fit_the_category_art_3_par_4():
    """Art. 3º, §4º, I: a citizen reporting a fridge is not asked whether it has an engine."""
    from core.services.citizens.guidance import citizen_signs
    law = get_law("dores-do-indaia")
    car = {c.code for c in citizen_signs(law, "motor_vehicle")}
    fridge = {c.code for c in citizen_signs(law, "large_furniture")}
    assert {"no_engine", "missing_tyres"} <= car
    assert "no_engine" not in fridge and "poor_conservation" in fridge
    assert citizen_signs(get_law("dracena"), "livestock") == ()


async def test_a_third_citys_step_issues_its_own_paper_from_its_folder(core, photo, clock):
    """Testópolis Art. 2º: the collection gives a recibo — a document kind written in the
    city's own folder (papers.py, named by its Law): the step issues it in its transaction, the
    re-issue gives the same document, the inspector's button and the panel name it; nothing
    outside the folder names it."""
    import io
    from datetime import datetime, timezone

    from pypdf import PdfReader

    from core.services.cases.steps import take_step
    from core.services.citizens.reports import ReportIn, submit_report
    from core.services.papers.kinds import SHARED
    from core.services.papers.reissue import issued_documents, reissue
    from core.services.staff.accounts import create_user
    from core.storage.timeline import ActorRef
    from tests.support.panel import PASSWORD, Panel

    clock.now = datetime(2030, 3, 1, 12, tzinfo=timezone.utc)
    bruno = ActorRef("staff", 0, "Bruno")
    sub = await submit_report(core, 502, ReportIn("thing", -22.0, -47.0, [photo(1)],
                                                  address="Rua 2"), display_name="Cida")
    taken = await take_step(core, sub.protocol, "collect", bruno,
                            {"item_description": "geladeira branca",
                             "collected_at": "2030-03-01T08:00:00-03:00"})
    [(sha, filename, blob)] = taken.documents
    text = PdfReader(io.BytesIO(blob)).pages[0].extract_text()
    assert filename == f"recibo-{sub.protocol}.pdf"
    assert "RECIBO DE RECOLHIMENTO" in text and "geladeira branca" in text and "Art. 2º" in text
    [doc] = await issued_documents(core, sub.protocol)
    assert (doc.kind, doc.label, doc.button, doc.sha256) == (
        "recibo", "Recibo de recolhimento", "Recibo", sha)
    assert (await reissue(core, sub.protocol, "recibo", bruno))[0] == sha  # the same paper
    assert "recibo" not in SHARED  # only the city's folder knows it
    await create_user(core, "bruno", PASSWORD, "staff")
    async with Panel(core).client("bruno") as c:
        page = await (await c.get(f"/casos/{sub.protocol}")).text()
    assert "Emitir de novo: Recibo de recolhimento" in page
    assert f'<a href="/evidencias/{sha}">Recibo de recolhimento</a>' in page
