"""The law's dates for an object in the depot on the staff's pages — the case page and the
queue — each with its article, the same the owner's view and the papers state
(core.services.cases.depot_dates): Dores Art. 6º, caput (10 days to retrieve) and Art. 3º, caput
(60 days before auction, vehicles only); Dracena Art. 6º, §2º (gêneros and semoventes
auctioned within three days)."""
from __future__ import annotations


from core.services.cases.evidence import EvidenceIn
from core.services.staff.accounts import create_user
from tests.support.core_fixtures import jpeg
from tests.support.panel import PASSWORD, Panel, new_case, to_depot_furniture
from tests.support.owner_cases import dracena_apprehension, in_depot


async def _panel(core) -> Panel:
    await create_user(core, "bruno", PASSWORD, "staff")
    return Panel(core)


async def test_dracena_livestock_auction_date_on_the_case_page_and_queue_art_6_par_2(
        make_core, clock):
    core = await make_core("dracena")

    def photo_(i: int = 0) -> EvidenceIn:
        sha, _ = core.evidence.put_image(jpeg((i * 7 % 256, 30, 30)))
        return EvidenceIn(sha, "image/jpeg", "photo", f"file-{i}", f"uniq-{i}")

    sub = await dracena_apprehension(core, photo_, clock)  # Tuesday 01/12/2026 13:00
    panel = await _panel(core)
    line = "Leilão de gêneros ou semoventes até 04/12/2026 (Art. 6º, §2º)"
    async with panel.client("bruno") as c:
        page = await (await c.get(f"/casos/{sub.protocol}")).text()
        assert line in page
        assert "excluído o dia do início" in page  # how it was counted (Lei 9.784, art. 66)
        queue = await (await c.get("/fila")).text()
        assert "Prazos da lei para a prefeitura (1)" in queue
        assert line in queue and sub.protocol in queue


async def test_dores_vehicle_dates_on_the_case_page_art_6_and_art_3(core, photo):
    sub, _ = await in_depot(core, photo)  # removed 22/12/2026 10:00
    panel = await _panel(core)
    async with panel.client("bruno") as c:
        page = await (await c.get(f"/casos/{sub.protocol}")).text()
        # 22/12 + 10 = 01/01/2027, a holiday before a weekend → Monday 04/01/2027
        assert "Prazo de retirada avisado ao proprietário: até 04/01/2027 (Art. 6º, caput)" \
            in page
        # 22/12 + 60 = 20/02/2027, a Saturday → Monday 22/02/2027: the running deadline's
        # own line states it, once
        assert "Retirada possível até" not in page
        assert "retirada do pátio antes do leilão até 22/02/2027" in page
        queue = await (await c.get("/fila")).text()
        assert "Prazos da lei para a prefeitura" not in queue  # nothing for staff to act by


async def test_dores_furniture_case_page_has_no_vehicles_60_days_art_5_iii(core, photo):
    case = await new_case(core, photo, 1, category="large_furniture")
    await to_depot_furniture(core, case.protocol)
    panel = await _panel(core)
    async with panel.client("bruno") as c:
        page = await (await c.get(f"/casos/{case.protocol}")).text()
    assert "Retirada: 10 dias contados da publicação no Diário Oficial (Art. 5º, III)" in page
    assert "Art. 3º, caput; CTB art. 328" not in page
