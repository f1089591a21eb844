"""Properties of the web report page over random sequences of what a visitor's browser
posts — answers typed, buttons tapped, photos, pins, an earlier page's form sent again (the
back button, a double tap, an old tab), and the clock moving: no answer is a 5xx, and an
answer is stored only for the question it answers (a colour never kept as the plate, a
form sent from an earlier page never answering a later question), on both engines."""
from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
from aiohttp import FormData
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from admin.app import create_app
from admin.views_report import COOKIE
from core.services.citizens import web_drafts
from core.storage.models import Case
from core.storage.models_web import WebDraft
from tests.integration.test_conversation_step_props import FIELDS, TEXTS, _check
from tests.support.core_fixtures import jpeg
from tests.support.engine_world import EngineWorld
from tests.support.panel import csrf_of

_GO = st.tuples(st.just("go"), st.integers(0, 12))  # what the page asks for, sensibly
ACTIONS = st.lists(st.one_of(
    _GO, _GO, _GO, _GO, _GO, _GO, _GO, _GO,
    st.tuples(st.just("text"), st.sampled_from(TEXTS)),
    st.tuples(st.just("tap"), st.integers(0, 12)),  # the n-th button of the page shown
    st.tuples(st.just("replay"), st.integers(0, 60)),  # an earlier page's form sent again
    st.tuples(st.just("photo"), st.integers(0, 2)),
    st.tuples(st.just("pin"), st.just(0)),
    st.tuples(st.just("wait"), st.integers(1, 20)),  # seconds pass
), min_size=8, max_size=60)


def _state(html: str) -> str:
    m = re.search(r'data-state="([^"]*)"', html)
    return m.group(1) if m else ""


async def _walk(world: EngineWorld, actions) -> tuple[dict, dict, dict | None]:
    core = world.core
    typed_in: dict[str, set[str]] = {f: set() for f in FIELDS.values()}
    sent_forms: list[tuple[list[tuple[str, object]], str]] = []
    async with core.db.read() as s:
        before = (await s.execute(select(Case.id).order_by(Case.id.desc()))).scalars().first()
    async with TestClient(TestServer(create_app(core))) as client:
        html = await (await client.get("/publico/denunciar")).text()
        for kind, n in actions:
            if kind == "wait":
                world.clock.advance(seconds=n)
                continue
            state = _state(html)
            if not re.search(r'name="csrf"', html):
                break
            key = (re.search(r'name="key" value="([^"]*)"', html) or [None, ""])[1]
            fields: list[tuple[str, object]] = [("csrf", csrf_of(html)), ("site", "")]
            if kind == "replay":
                if not sent_forms:
                    continue
                fields, state = sent_forms[n % len(sent_forms)]
            else:
                fields.append(("key", key))
                if kind == "go":  # the answer the page asks for
                    kind = {"report:photos": "photo", "report:location": "pin"}.get(
                        state, "text" if state in FIELDS and n % 3 else "tap")
                    if kind == "photo":
                        fields.append(("choice", "done"))
                    n = TEXTS[n % len(TEXTS)] if kind == "text" else n
                if kind == "text":
                    fields.append(("text", n))
                    if state in FIELDS:
                        typed_in[FIELDS[state]].add(n)
                elif kind == "tap":
                    choices = re.findall(r'name="choice" value="([^"]+)"', html)
                    if not choices:
                        continue
                    fields.append(("choice", choices[n % len(choices)]))
                elif kind == "photo":
                    fields.append(("photos", jpeg((n * 40, 10, 10))))
                else:
                    fields += [("lat", "-19.4628"), ("lon", "-45.6003")]
                sent_forms.append((fields, state))
            data = FormData()
            for name, value in fields:
                if isinstance(value, bytes):
                    data.add_field(name, value, filename="f.jpg", content_type="image/jpeg")
                else:
                    data.add_field(name, str(value))
            resp = await client.post("/publico/denunciar", data=data)
            html = await resp.text()
            assert resp.status < 500, (kind, n, html[-2000:])
        token = next((c.value for c in client.session.cookie_jar if c.key == COOKIE), None)
    async with core.db.read() as s:
        case = (await s.execute(select(Case).where(Case.id > (before or 0))
                                .order_by(Case.id.desc()))).scalars().first()
        row = await s.get(WebDraft, web_drafts.hash_of(token)) if token else None
    draft = row.draft if row is not None and row.draft.get("id") else {}
    confirmed = None
    if case is not None:  # as the case keeps them
        r = case.details["report"]
        confirmed = {"plate": case.plate, "colour": r["colour"], "make_model": r["make_model"],
                     "time_there": r["time_there"], "description": case.description,
                     "photos": [1], "lat": case.lat, "category": case.category}
        confirmed = {k: v for k, v in confirmed.items() if v is not None}
    return draft, typed_in, confirmed


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_the_web_page_stores_an_answer_only_for_its_question(engine, tmp_path):
    from tests.conftest import PG_URL
    if engine == "postgresql" and not PG_URL:
        pytest.skip("TEST_DATABASE_URL not set: PostgreSQL tests skipped")
    world = EngineWorld(engine, tmp_path, datetime(2026, 12, 1, 16, tzinfo=timezone.utc))
    try:
        @settings(max_examples=40, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(actions=ACTIONS)
        def prop(actions):
            draft, typed_in, confirmed = world.run(_walk(world, actions))
            _check(draft, typed_in, None)
            if confirmed is not None:
                _check(confirmed, typed_in, confirmed)

        prop()
    finally:
        world.close()
