"""The public map in a real headless Chromium (tests/support/browser.py),
without logging in: the map draws the visible area's cases with no console error, a case's
marker opens its popup and the popup's link opens the case's status page; the filters and the
list work. Map tiles are answered locally (a plain tile), never from the internet. With
SAVE_SCREENSHOTS=1 it refreshes docs/screenshots/public_map.png for the README."""
from __future__ import annotations

import io

from PIL import Image

from tests.support.lgpd_fixtures import approve_photos
from tests.support.panel import new_case, to_notice_affixed
TILES = "https://tiles.example.test/{z}/{x}/{y}.png"


def _tile() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (256, 256), (236, 232, 224)).save(buf, "PNG")
    return buf.getvalue()


async def test_public_map_in_chromium(chromium, serve, shots, make_core, photo):
    core = await make_core(map_tile_url=TILES)
    cases = []
    for i in range(8):
        cases.append(await new_case(core, photo, i * 15,
                                    category="large_furniture" if i % 3 == 0 else "motor_vehicle",
                                    neighbourhood="Centro" if i % 2 else "Vila Nova"))
    await to_notice_affixed(core, cases[1].protocol)
    await approve_photos(core)  # public only once staff reviewed them
    tile = _tile()

    async def network(route):
        url = route.request.url
        if url.startswith("https://tiles.example.test/"):
            await route.fulfill(status=200, content_type="image/png", body=tile)
        elif url.startswith(("http://127.0.0.1", "http://localhost")):
            await route.continue_()
        else:
            await route.abort()

    base = await serve(core)
    errors: list[str] = []
    page = await chromium.page(route=network, viewport={"width": 1280, "height": 1000})
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(f"{base}/publico")
    target = cases[1].protocol
    marker = page.locator(f"path.vl-{target}")
    await marker.wait_for(state="attached")
    assert await page.locator("path.vl-case").count() == len(cases)
    assert "8 casos nesta área." in await page.inner_text("#map-status")
    await page.screenshot(path=str(shots / "public_map.png"), full_page=True)

    # a case's marker → its popup → its status page
    await marker.dispatch_event("click")
    link = page.locator(".leaflet-popup a", has_text=target)
    await link.wait_for()
    photo_ok = await page.locator(".leaflet-popup img.popup-photo").evaluate(
        "img => img.complete ? img.naturalWidth : new Promise(r => img.onload = "
        "() => r(img.naturalWidth))")
    assert photo_ok > 0  # the EXIF-free copy of the case's photo
    await link.click()
    await page.wait_for_url(f"{base}/publico/protocolo/{target}")
    assert "Protocolo " + target in await page.inner_text("h1")
    assert "Prazo:" in await page.inner_text("#next-step")
    await page.screenshot(path=str(shots / "public_status.png"), full_page=True)

    # the filter: furniture only, in the list and on the map
    await page.goto(f"{base}/publico")
    await page.select_option("select[name=categoria]", "large_furniture")
    await page.click("button:has-text('Filtrar')")
    await page.wait_for_url("**categoria=large_furniture**")
    furniture = [c.protocol for i, c in enumerate(cases) if i % 3 == 0]
    await page.locator("path.vl-case").first.wait_for(state="attached")
    assert await page.locator("path.vl-case").count() == len(furniture)
    rows = await page.locator("#public-list tbody tr").all_inner_texts()
    assert sorted(r.split("\t")[0].strip() for r in rows) == sorted(furniture)
    assert not errors, errors
