"""An early closing, registered in the panel, moves a deadline ending that day (Lei
9.784/1999, art. 66, § 1º: "se o vencimento cair em dia em que não houver expediente ou este
for encerrado antes da hora normal"); a closing hour at or after the normal end is not early
and is refused in Portuguese, nothing stored; a closure's date or act is corrected with the
recount shown, and the page lists, for each day, the deadlines it moved."""
from __future__ import annotations

import re

from sqlalchemy import select

from core.services.staff.accounts import authenticate
from core.services.staff.calendar import moved_by_closures
from core.storage.models import Case, Closure
from tests.support.owner_cases import notified
from tests.support.panel import PASSWORD, post_form


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


async def _due(core, case_id) -> str:
    async with core.db.read() as s:
        return (await s.get(Case, case_id)).deadline_json["due"]


async def _closures(core) -> list[Closure]:
    async with core.db.read() as s:
        return list((await s.execute(select(Closure))).scalars())


async def test_an_early_closing_on_the_due_day_moves_the_deadline_art_66_par_1(panel, photo):
    core = panel.core
    sub = await notified(core, photo)  # Tue 01/12: 10 days (Dores Art. 4º, I), due Fri 11/12
    assert await _due(core, sub.case_id) == "2026-12-11"
    async with panel.client("ana") as c:
        r = await post_form(c, "/tarifas", "/feriados",
                            {"date": "11/12/2026", "name": "Confraternização dos servidores",
                             "kind": "decree", "source": "Decreto nº 102/2026",
                             "closes_at": "12:00"})
        assert r.status == 302
        flash = _text(await (await c.get(r.headers["Location"])).text())
        assert f"1 prazo prorrogado (Lei 9.784/1999, art. 66, § 1º): {sub.protocol} " \
               "(de 11/12/2026 para 14/12/2026)" in flash
        assert "Encerrado às 12:00" in flash  # the registered day, with its hour
        assert f"{sub.protocol} : de 11/12/2026 para 14/12/2026" in flash  # what it moved
    assert await _due(core, sub.case_id) == "2026-12-14"
    async with core.db.read() as s:
        explanation = (await s.get(Case, sub.case_id)).deadline_json["explanation"]
    assert "expediente encerrado às 12:00, antes do horário normal" in explanation
    [closure] = await _closures(core)
    assert closure.closes_at is not None and closure.closes_at.hour == 12


async def test_a_closing_hour_that_is_not_early_is_refused_and_nothing_stored(panel, photo):
    core = panel.core
    sub = await notified(core, photo)
    async with panel.client("ana") as c:
        for hour, said in (("17:00", "não é antecipado"), ("25:00", "Hora inválida")):
            r = await post_form(c, "/tarifas", "/feriados",
                                {"date": "11/12/2026", "name": "Fim do expediente",
                                 "kind": "decree", "source": "Decreto nº 103/2026",
                                 "closes_at": hour})
            assert r.status in (302, 400)
            page = _text(await (await c.get(r.headers["Location"])).text()
                         if r.status == 302 else await r.text())
            assert said in page and "Traceback" not in page
    assert await _closures(core) == []
    assert await _due(core, sub.case_id) == "2026-12-11"


async def test_correcting_a_closures_date_recounts_and_never_shortens(panel, photo):
    core = panel.core
    sub = await notified(core, photo)  # due Fri 11/12
    async with panel.client("ana") as c:
        await post_form(c, "/tarifas", "/feriados",
                        {"date": "11/12/2026", "name": "Ponto facultativo", "kind": "optional",
                         "source": "Decreto nº 11/2026"})
        assert await _due(core, sub.case_id) == "2026-12-14"
        [closure] = await _closures(core)
        # the decree said Monday 14/12: the date is corrected, the deadline moves again
        r = await post_form(c, "/tarifas", f"/feriados/{closure.id}/corrigir",
                            {"date": "14/12/2026", "name": "Ponto facultativo",
                             "source": "Decreto nº 101/2026"})
        flash = _text(await (await c.get(r.headers["Location"])).text())
        assert "Fechamento corrigido." in flash
        assert f"{sub.protocol} (de 14/12/2026 para 15/12/2026)" in flash
    # 11/12 is a business day again, but the date the owner was told is never shortened
    assert await _due(core, sub.case_id) == "2026-12-15"
    [closure] = await _closures(core)
    assert closure.date.isoformat() == "2026-12-14"
    assert closure.source.startswith("Decreto nº 101/2026 (corrigido por ana)")
    moved = await moved_by_closures(core)
    assert [(m.protocol, m.due.isoformat()) for m in moved[closure.date]] == [
        (sub.protocol, "2026-12-15")]


async def test_a_past_closures_act_may_be_corrected_but_not_its_date(panel, photo, clock):
    core = panel.core
    ana = await authenticate(core, "ana", PASSWORD)
    assert ana is not None
    async with panel.client("ana") as c:
        await post_form(c, "/tarifas", "/feriados",
                        {"date": "04/12/2026", "name": "Ponto facultativo", "kind": "optional",
                         "source": "Decreto nº 1O/2026"})
        [closure] = await _closures(core)
        clock.advance(days=10)
        r = await post_form(c, "/tarifas", f"/feriados/{closure.id}/corrigir",
                            {"date": "18/12/2026", "name": "Ponto facultativo",
                             "source": "Decreto nº 10/2026"})
        page = _text(await (await c.get(r.headers["Location"])).text()
                     if r.status == 302 else await r.text())
        assert "A data só pode ser corrigida enquanto o fechamento e a nova data estão no " \
               "futuro" in page
        r = await post_form(c, "/tarifas", f"/feriados/{closure.id}/corrigir",
                            {"date": "04/12/2026", "name": "Ponto facultativo",
                             "source": "Decreto nº 10/2026"})
        assert "Fechamento corrigido." in _text(await (await c.get(r.headers["Location"])).text())
    [closure] = await _closures(core)
    assert closure.date.isoformat() == "2026-12-04"
    assert closure.source.startswith("Decreto nº 10/2026")
