"""The panel on a phone (390×844, a common phone's CSS size) in a real headless Chromium:
the dashboard, the staff's queue, a case page and the Diário Oficial page fit the screen's
width (no sideways scrolling) and their main actions are on screen when scrolled to; on the
Diário Oficial page the edital (PDF and text) comes before "Marcar como publicado"."""
from __future__ import annotations

from core.services.inspectors.tasks import refuse_task
from tests.support.browser import login
from tests.support.panel_cases import lived_case
from tests.support.panel import new_case, to_notice_affixed
from tests.support.queue_cases import fiscal, task_of

PHONE = {"width": 390, "height": 844}
#: Elements sticking out of the screen, except inside a box that scrolls sideways on its own
#: (a wide list the clerk swipes) or clips what it holds (the map).
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const inScroller = el => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o !== 'visible') return true;  // scrolls on its own or clips (the map's tiles)
    }
    return false;
  };
  const wide = [...document.querySelectorAll('body *')].filter(el => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.right > width + 1 && !inScroller(el);
  }).map(el => el.tagName + '.' + el.className + ' ' + (el.textContent || '').trim().slice(0, 40));
  return {scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5)};
}"""


async def _fits(page, where: str) -> None:
    got = await page.evaluate(OVERFLOW)
    assert got["scroll"] <= got["width"], f"{where}: page scrolls sideways: {got}"
    assert got["wide"] == [], f"{where}: wider than the screen: {got['wide']}"


async def _visible(page, selector: str) -> None:
    el = page.locator(selector).first
    await el.scroll_into_view_if_needed()
    box = await el.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, \
        f"{selector} is off screen: {box}"
    assert await el.is_visible()


async def test_panel_fits_a_phone_and_keeps_its_main_actions_on_screen(chromium, serve, shots,
                                                                          panel, photo):
    core = panel.core
    lived, _ = await lived_case(core, photo)  # many facts, a long timeline
    refused = await new_case(core, photo, 5, address="Avenida Presidente Juscelino "
                             "Kubitschek de Oliveira, 1234, Bairro Jardim das Palmeiras")
    await refuse_task(core, 701, (await task_of(core, refused.protocol)).id,
                      "Fora da minha área de atuação nesta semana")
    await fiscal(core, 702, "Pedro de Alcântara Fiscal")
    affixed = await new_case(core, photo, 6, plate="XYZ9A87")
    await to_notice_affixed(core, affixed.protocol)
    base = await serve(core)
    page = await chromium.page(viewport=PHONE, is_mobile=True, has_touch=True,
                               device_scale_factor=2)
    await login(page, base, "ana")
    await _fits(page, "painel")
    await _visible(page, "#fila a[href='/fila']")

    await page.goto(f"{base}/fila")
    await _fits(page, "fila")
    row = f"tr[data-protocol='{refused.protocol}']"
    await _visible(page, f"{row} select[name=inspector_id]")
    await _visible(page, f"{row} button:has-text('Atribuir')")

    await page.goto(f"{base}/casos/{lived.protocol}")
    await _fits(page, "caso")
    await _visible(page, "h1")
    await _visible(page, "form[action$='/atribuir'] button")
    await _visible(page, "form[action*='/acao/'] button")
    await _visible(page, "ol.timeline")
    await page.evaluate("window.scrollTo(0, 0)")
    await page.screenshot(path=str(shots / "case-phone.png"))

    await page.goto(f"{base}/casos/{affixed.protocol}")
    await _fits(page, "caso afixado")
    await _visible(page, "form[action$='/acao/record_publication'] button")

    await page.goto(f"{base}/diario-oficial")
    await _fits(page, "diário oficial")
    pdf = page.locator("button:has-text('Edital em PDF')").first
    mark = page.locator("button:has-text('Marcar como publicado')").first
    await _visible(page, "button:has-text('Edital em PDF')")
    await _visible(page, "button:has-text('Texto para colar')")
    await _visible(page, "button:has-text('Marcar como publicado')")
    assert (await pdf.bounding_box())["y"] < (await mark.bounding_box())["y"]

    await page.goto(f"{base}/casos")
    await _fits(page, "casos")
