"""A city with cases in many states, made through the real services, for the axe-core tests
(no tests here): a vehicle from the report to the depot with its owner's statement, a car
with the notice affixed, a sofa removed to the depot, a case both inspectors refused, an
unfounded report closed, and the photos reviewed, so no page audited is empty."""
from __future__ import annotations

from core.services.cases.transitions import apply_transition
from core.services.inspectors.tasks import refuse_task
from core.storage.timeline import ActorRef
from tests.support.lgpd_fixtures import approve_photos
from tests.support.panel import new_case, to_depot_furniture, to_notice_affixed
from tests.support.panel_cases import lived_case
from tests.support.queue_cases import fiscal, task_of

TILES = "https://tiles.example.test/{z}/{x}/{y}.png"


async def axe_city(core, photo) -> dict[str, str]:
    """The objects the pages' paths name: protocol (the lived case), code (its case code),
    affixed, furniture, refused, closed and inspector (an inspector's id)."""
    lived, inspector = await lived_case(core, photo)
    affixed = await new_case(core, photo, 6, plate="XYZ9A87", address="Av. Brasil, 45")
    await to_notice_affixed(core, affixed.protocol)
    sofa = await new_case(core, photo, 7, category="large_furniture")
    await to_depot_furniture(core, sofa.protocol)
    await fiscal(core, 702, "Pedro Fiscal")
    refused = await new_case(core, photo, 5, address="Rua Pará, 8")
    for _ in range(2):
        task = await task_of(core, refused.protocol)
        tg = 701 if task.inspector_id == inspector else 702
        await refuse_task(core, tg, task.id, "Fora da minha área")
    closed = await new_case(core, photo, 3, neighbourhood="Vila Nova")
    await apply_transition(core, closed.protocol, "close_unfounded",
                           ActorRef("staff", 0, "seed"), {"reason": "nada no local"})
    for i in range(8, 11):
        await new_case(core, photo, i)
    await approve_photos(core)
    return {"protocol": lived.protocol, "code": lived.case_code, "affixed": affixed.protocol,
            "furniture": sofa.protocol, "refused": refused.protocol,
            "closed": closed.protocol, "inspector": str(inspector)}


async def tiles(route) -> None:
    """The network of the audited pages: the local server, and a plain map tile for TILES."""
    from tests.e2e.test_public_browser import _tile
    url = route.request.url
    if url.startswith("https://tiles.example.test/"):
        await route.fulfill(status=200, content_type="image/png", body=_tile())
    elif url.startswith(("http://127.0.0.1", "http://localhost")):
        await route.continue_()
    else:
        await route.abort()
