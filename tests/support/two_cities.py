"""Two cities served by one installation, each with a case (no tests here): Dores do Indaiá
(MG) and Dracena (SP), for the public pages' and Open311's tests."""
from __future__ import annotations

from dataclasses import dataclass

from core.services.cases.evidence import EvidenceIn
from core.services.citizens.reports import ReportIn, submit_report
from core.services.context import Core
from tests.support.core_fixtures import jpeg
from tests.support.lgpd_fixtures import approve_photos
from tests.support.panel import CENTRE

DRACENA = (-21.4843, -51.5353)


@dataclass
class TwoCities:
    dores: Core
    dracena: Core
    dores_case: object  # core.services.citizens.reports.Submitted
    dracena_case: object


def photo_of(core: Core, i: int) -> EvidenceIn:
    """A distinct JPEG stored as evidence, as the bot stores it on arrival."""
    sha, _ = core.evidence.put_image(jpeg((i * 40 % 256, 60, 90)))
    return EvidenceIn(sha, "image/jpeg", "photo", f"f-{i}", f"u-{i}")


async def report(core: Core, category: str, point: tuple[float, float], i: int,
                 neighbourhood: str):
    return await submit_report(core, 2000 + i, ReportIn(
        category=category, lat=point[0], lon=point[1], photos=[photo_of(core, i)],
        address=f"Rua {i}", neighbourhood=neighbourhood), display_name=f"Cidadão {i}")


async def two_cities(make_two_cities, **settings) -> TwoCities:
    """One open case in each city (neighbourhoods "Centro de Dores" and "Vila Dracena"), their
    photos approved for the public."""
    dores = await make_two_cities(**settings)
    dracena = dores.for_city("dracena")
    a = await report(dores, "motor_vehicle", CENTRE, 1, "Centro de Dores")
    b = await report(dracena, "abandoned_vehicle", DRACENA, 2, "Vila Dracena")
    await approve_photos(dores)
    await approve_photos(dracena)
    return TwoCities(dores, dracena, a, b)
