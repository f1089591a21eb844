"""One set-up for the tests in a real headless Chromium (Debian's /usr/bin/chromium driven by
Playwright): the fixtures `chromium` (a launched browser, or the test skipped with the reason
when Chromium or Playwright is absent), `serve` (the panel of a Core on a local port) and
`shots` (where screenshots go), and `login`. tests/conftest.py loads this module as a plugin, so a
browser test in any file just asks for them:

    async def test_x(chromium, serve, shots, panel):
        base = await serve(panel.core)
        page = await chromium.page()
        await login(page, base, "ana")

Each test starts its own Playwright and Chromium: Playwright's objects belong to the event
loop that made them, and pytest-asyncio gives each test a loop of its own (most of the
start-up is Playwright's driver anyway, not Chromium)."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer

from admin.app import create_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run"]
DESKTOP = {"width": 1360, "height": 900}
README_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def missing() -> str | None:
    """Why no browser test can run here, or None."""
    if not os.path.exists(CHROMIUM):
        return f"no browser: {CHROMIUM} not installed (apt-get install chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "no browser: playwright not installed (pip install -e '.[test]')"
    return None


async def offline(route) -> None:
    """No test touches the internet: only the local server answers (map tiles and the like
    from elsewhere are refused)."""
    if route.request.url.startswith(("http://127.0.0.1", "http://localhost")):
        await route.continue_()
    else:
        await route.abort()


async def login(page, base: str, username: str, password: str | None = None) -> None:
    """Log in to the panel through its form (the panel fixture's password by default) and
    land on the dashboard."""
    from tests.support.panel import PASSWORD
    await page.goto(f"{base}/login")
    await page.fill("input[name=username]", username)
    await page.fill("input[name=password]", password or PASSWORD)
    await page.click("button:has-text('Entrar')")
    await page.wait_for_url(f"{base}/")


class Chromium:
    """A launched headless Chromium; `page()` opens a page in a fresh context (its own
    cookies), in Portuguese, with the network limited by `route`."""

    def __init__(self, browser) -> None:
        self.browser = browser

    async def page(self, *, route=offline, viewport: dict | None = None, **context):
        ctx = await self.browser.new_context(viewport=viewport or DESKTOP, locale="pt-BR",
                                             **context)
        await ctx.route("**/*", route)
        return await ctx.new_page()


@pytest.fixture
async def chromium():
    """A headless Chromium for this test (closed after it); the test is skipped, saying why,
    where Chromium or Playwright is absent. Ask for it first, so a skipped test sets up
    nothing else."""
    reason = missing()
    if reason:
        pytest.skip(reason)
    from playwright.async_api import async_playwright
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield Chromium(browser)
        finally:
            await browser.close()


@pytest.fixture
async def serve():
    """`base = await serve(core)`: the panel of `core` on a local port, closed after the
    test; returns its base URL (no trailing slash)."""
    servers: list[TestServer] = []

    async def start(core) -> str:
        server = TestServer(create_app(core))
        await server.start_server()
        servers.append(server)
        return str(server.make_url("")).rstrip("/")

    yield start
    for server in servers:
        await server.close()


@pytest.fixture
def shots(request, tmp_path) -> Path:
    """Where a test's screenshots go: with SAVE_SCREENSHOTS=1, docs/screenshots/ (the
    README's; written by the SQLite run only, so two runs never write one file at once);
    otherwise the test's temporary folder."""
    callspec = getattr(request.node, "callspec", None)
    engine = callspec.params.get("db_factory", "sqlite") if callspec else "sqlite"
    if os.environ.get("SAVE_SCREENSHOTS") and engine == "sqlite":
        README_SHOTS.mkdir(parents=True, exist_ok=True)
        return README_SHOTS
    return tmp_path
