"""axe-core in the browser tests (no tests here): `sweep` opens each page of a list at a phone
and at a desktop size in one Playwright page, runs axe-core on it (the WCAG 2 A/AA rules and
axe's best practices) and returns every violation as a line a reader can fix from: the page,
the viewport, the rule's id, its impact, the element's selector and what axe says.

axe.min.js beside this file is axe-core 4.14.1 (https://github.com/dequelabs/axe-core), the
npm package's file as published, unchanged; licence MPL-2.0 (its header says so). It is read
from disk and evaluated in the page, so no test reaches the internet. To update it, take the
file from the npm package of the new exact version and change AXE_VERSION and AXE_SHA256.

A page of the list is a path (placeholders such as {protocol} filled from the test's
objects) or a (path, fields) pair: the path opened, the fields filled in (name → value) and
the form sent with Enter, the page reached then checked (an answer to a form)."""
from __future__ import annotations

import hashlib
from pathlib import Path

AXE_JS = Path(__file__).with_name("axe.min.js")
AXE_VERSION = "4.14.1"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
VIEWPORTS = {"celular 390×844": PHONE, "desktop 1280×800": DESKTOP}
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
RUN = """async (tags) => {
  const r = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                     resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '),
                              summary: (n.failureSummary || '').replace(/\\s+/g, ' ')}))}));
}"""


def axe_source() -> str:
    """The vendored axe-core, checked to be the pinned file."""
    data = AXE_JS.read_bytes()
    assert hashlib.sha256(data).hexdigest() == AXE_SHA256, f"{AXE_JS.name} is not axe-core " \
        f"{AXE_VERSION}: take it from the npm package and update AXE_SHA256"
    return data.decode()


async def audit(page, where: str) -> list[str]:
    """axe-core's violations on the page as it is now, one line per element."""
    if not await page.evaluate("() => typeof axe !== 'undefined'"):
        await page.evaluate(axe_source())
    found = await page.evaluate(RUN, TAGS)
    return [f"{where}: {v['id']} ({v['impact']}) at {n['target']}: {v['help']}. "
            f"{n['summary'][:300]}" for v in found for n in v["nodes"]]


async def _open(page, base: str, entry, objects: dict) -> str:
    path, fields = (entry, None) if isinstance(entry, str) else entry
    path = path.format(**objects)
    resp = await page.goto(base + path)
    assert resp is not None and resp.status < 400, f"{path}: HTTP {resp and resp.status}"
    if fields:
        for name, value in fields.items():
            await page.fill(f"[name={name}]", value.format(**objects))
        async with page.expect_navigation():
            await page.press(f"[name={list(fields)[-1]}]", "Enter")
        path += " (após enviar o formulário)"
    await page.wait_for_load_state("networkidle")
    return path


async def sweep(page, base: str, pages: list, objects: dict, shots: Path | None = None
                ) -> list[str]:
    """Every violation of every page at both sizes (an empty list: all pages pass). With
    `shots`, a PNG of each page at each size goes there."""
    out: list[str] = []
    for label, size in VIEWPORTS.items():
        await page.set_viewport_size(size)
        for i, entry in enumerate(pages):
            path = await _open(page, base, entry, objects)
            out += await audit(page, f"{path} [{label}]")
            if shots is not None:
                name = f"axe-{i:02d}-{size['width']}.png"
                await page.screenshot(path=str(shots / name), full_page=True)
    return out


def report(violations: list[str]) -> str:
    return f"{len(violations)} axe-core {AXE_VERSION} violation(s):\n" + "\n".join(violations)


FOCUSED = """() => { const el = document.activeElement;
  return el ? {name: el.name || '', tag: el.tagName, text: (el.textContent || '').trim()} : null; }"""


async def fill_by_keyboard(page, values: dict[str, str], submit: str) -> None:
    """Fill a form with the keyboard alone: Tab from the page's top until each named field has
    the focus and type its value, then Tab to the button saying `submit` and press Enter (the
    report page's keyboard test is this with its fields)."""
    await page.evaluate("() => document.activeElement && document.activeElement.blur()")
    todo = dict(values)
    for _ in range(300):
        await page.keyboard.press("Tab")
        got = await page.evaluate(FOCUSED)
        if got and got["name"] in todo:
            await page.keyboard.type(todo.pop(got["name"]))
        elif got and not todo and got["tag"] == "BUTTON" and submit in got["text"]:
            async with page.expect_navigation():
                await page.keyboard.press("Enter")
            return
    raise AssertionError(f"not reached with Tab: {list(todo) or submit}")
