"""The public pages' limits count people, not addresses (core.services.public.access): an
IPv6 client by its /64, an IPv4 client by its address; the owner's cool-down (five wrong
answers within the hour lock for an hour, as in the bot) is not cleared by a right answer;
the photo is rate-limited as the status page; the case code is read as printed (dash, lower
case, spaces) and the plate with or without its dash; a code that cannot be one is answered
and not counted; the owner's view needs the plate (or chassis tail, or the owner's CPF/CNPJ)
on every path."""
from __future__ import annotations

from ipaddress import IPv6Address

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from core.identifiers import parse_case_code
from core.laws import get_law
from core.services.owners import access as owner_access
from core.services.public import access as public_access
from core.services.public.access import client_key
from core.storage.models import Case
from tests.support.lgpd_fixtures import approve_photos
from tests.support.panel import Panel, new_case, to_notice_affixed
from tests.support.public_pages import owner_post

PLATE = "ABC1D23"
OWNER_ONLY = "Retire até"  # the owner's view (core.services.owners.view), never the public one


async def _panel(make_core) -> Panel:
    """A panel behind a trusted proxy (127.0.0.0/8): X-Forwarded-For names the client."""
    return Panel(await make_core(trusted_proxies="127.0.0.0/8"))


async def _case(panel, photo):
    case = await new_case(panel.core, photo, 0, plate=PLATE)
    await to_notice_affixed(panel.core, case.protocol)
    return case


def _printed(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


async def test_forty_wrong_codes_from_one_ipv6_64_are_refused_after_five(make_core, photo):
    panel = await _panel(make_core)
    case = await _case(panel, photo)
    statuses = []
    async with panel.client() as client:
        for i in range(40):  # every try from another address of the same /64
            resp = await client.get("/publico/proprietario/ZZZZ-ZZZZ",
                                    headers={"X-Forwarded-For": f"2001:db8:7:1::{i + 1:x}"})
            statuses.append(resp.status)
        assert statuses[:owner_access.MAX_FAILURES - 1] == [404] * 4
        assert set(statuses[owner_access.MAX_FAILURES - 1:]) == {403}
        # the right code and plate from that /64 wait too; another /64 and IPv4 do not
        locked = await owner_post(client, case.case_code, PLATE, "2001:db8:7:1:ffff::1")
        assert locked.status == 403 and "Muitas tentativas" in await locked.text()
        assert (await owner_post(client, case.case_code, PLATE, "2001:db8:7:2::1")).status == 200
        assert (await owner_post(client, case.case_code, PLATE, "203.0.113.7")).status == 200


async def test_a_right_answer_does_not_reset_the_failure_count(make_core, photo):
    """3 rounds of 4 wrong codes plus one known code used to go on for ever."""
    panel = await _panel(make_core)
    case = await _case(panel, photo)
    async with panel.client() as client:
        for i in range(owner_access.MAX_FAILURES - 1):
            assert (await owner_post(client, "ZZZZ-ZZZ" + "0123456789"[i], PLATE)).status == 404
        assert (await owner_post(client, case.case_code, PLATE)).status == 200
        assert (await client.get(f"/publico/proprietario/{case.case_code}",
                                 headers={"X-Forwarded-For": "203.0.113.9"})).status == 200
        locked = await owner_post(client, "ZZZZ-ZZZZ", PLATE)
        assert locked.status == 403 and "Muitas tentativas" in await locked.text()


async def test_ipv4_clients_are_counted_by_address(make_core, photo):
    panel = await _panel(make_core)
    await _case(panel, photo)
    async with panel.client() as client:
        for _ in range(owner_access.MAX_FAILURES):
            await owner_post(client, "ZZZZ-ZZZZ", PLATE, "198.51.100.1")
        assert (await owner_post(client, "ZZZZ-ZZZZ", PLATE, "198.51.100.1")).status == 403
        assert (await owner_post(client, "ZZZZ-ZZZZ", PLATE, "198.51.100.2")).status == 404


async def test_status_page_and_photo_share_one_rate_limit_per_64(make_core, photo,
                                                                   monkeypatch):
    monkeypatch.setattr(public_access, "RATE_LIMIT", 3)
    panel = await _panel(make_core)
    case = await _case(panel, photo)
    page, foto = f"/publico/protocolo/{case.protocol}", f"/publico/protocolo/{case.protocol}/foto"
    await approve_photos(panel.core)  # public only once staff reviewed it (LGPD)
    async with panel.client() as client:
        def at(i: int) -> dict:
            return {"X-Forwarded-For": f"2001:db8:9:9::{i}"}
        assert (await client.get(page, headers=at(1))).status == 200
        assert (await client.get(foto, headers=at(2))).status == 200
        assert (await client.get(foto, headers=at(3))).status == 200
        refused = await client.get(foto, headers=at(4))
        assert refused.status == 429 and "Muitas consultas" in await refused.text()
        assert (await client.get(page, headers=at(5))).status == 429
        assert (await client.get(foto, headers={"X-Forwarded-For": "2001:db8:9:a::1"})
                ).status == 200


async def test_code_as_printed_and_plate_with_or_without_dash(make_core, photo):
    panel = await _panel(make_core)
    case = await _case(panel, photo)
    code = case.case_code
    async with panel.client() as client:
        for typed, plate in ((_printed(code), "ABC1D23"), (code.lower(), "abc-1d23"),
                             (f" {code[:4].lower()} {code[4:]} ", "ABC 1D23"),
                             (_printed(code).lower(), "abc1d23")):
            resp = await owner_post(client, typed, plate)
            html = await resp.text()
            assert resp.status == 200 and OWNER_ONLY in html, (typed, plate)
            link = await client.get(f"/publico/proprietario/{typed.strip()}",
                                    headers={"X-Forwarded-For": "203.0.113.9"})
            assert link.status == 200 and case.protocol in await link.text()


async def test_the_web_reads_a_code_as_the_bot_does(make_core, photo):
    """The owner's page reads a typed code as core.identifiers.parse_case_code reads it: any
    case, spaces and dashes, O typed for 0 and I or L for 1 (Crockford) — the form and the
    QR code's link alike."""
    panel = await _panel(make_core)
    case = await _case(panel, photo)
    async with panel.core.db.unit_of_work() as s:
        await s.execute(update(Case).where(Case.protocol == case.protocol)
                        .values(case_code="A01112XD"))
    async with panel.client() as client:
        for typed in ("A011-12XD", "a011 12xd", "AO1I-L2XD", " ao1i l2xd ", "a0-11-12-xd"):
            assert parse_case_code(typed) == "A01112XD"
            resp = await owner_post(client, typed, PLATE)
            assert resp.status == 200 and OWNER_ONLY in await resp.text(), typed
            link = await client.get(f"/publico/proprietario/{typed.strip()}",
                                    headers={"X-Forwarded-For": "203.0.113.9"})
            assert link.status == 200 and case.protocol in await link.text(), typed


async def test_a_malformed_code_is_answered_and_not_counted(make_core, photo):
    panel = await _panel(make_core)
    case = await _case(panel, photo)
    async with panel.client() as client:
        for bad in ("nao-existe", "12", "K7QM-42XD-99", "ÇÇÇÇ-ÇÇÇÇ", "<script>", "a" * 39):
            for _ in range(2):
                resp = await owner_post(client, bad, PLATE)
                assert resp.status == 400 and "código de caso" in await resp.text(), bad
                link = await client.get(f"/publico/proprietario/{bad}",
                                        headers={"X-Forwarded-For": "203.0.113.9"})
                assert link.status in (400, 404), bad
        # twelve malformed codes later: not locked, four wrong answers still allowed
        assert (await owner_post(client, case.case_code, PLATE)).status == 200
        for _ in range(owner_access.MAX_FAILURES - 1):
            assert (await owner_post(client, case.case_code, "XYZ9A87")).status == 404


async def test_the_owners_view_needs_the_proof_on_every_path(make_core, photo):
    panel = await _panel(make_core)
    case = await _case(panel, photo)
    async with panel.client() as client:
        link = await client.get(f"/publico/proprietario/{case.case_code}",
                                headers={"X-Forwarded-For": "203.0.113.9"})
        html = await link.text()
        assert link.status == 200 and case.protocol in html  # the public page of the case
        assert OWNER_ONLY not in html and PLATE not in html and "ABC-1D23" not in html
        assert 'name="placa"' in html  # and the proof it asks for
        no_proof = await owner_post(client, case.case_code, "")
        assert no_proof.status == 404 and OWNER_ONLY not in await no_proof.text()
        ok = await owner_post(client, case.case_code, "abc-1d23")
        assert ok.status == 200 and OWNER_ONLY in await ok.text()


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2 ** 64 - 1), st.integers(0, 2 ** 64 - 1), st.integers(0, 2 ** 64 - 1),
       st.integers(0, 2 ** 64 - 1))
def test_one_64_is_one_client_and_two_64s_are_two(net_a, net_b, host_a, host_b):
    a = str(IPv6Address((net_a << 64) | host_a))
    same = str(IPv6Address((net_a << 64) | host_b))
    other = str(IPv6Address((net_b << 64) | host_a))
    assert client_key(a) == client_key(same)
    assert (client_key(a) == client_key(other)) == (net_a == net_b)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(0, 2 ** 32 - 1))
def test_ipv4_addresses_are_each_a_client(a, b):
    from ipaddress import IPv4Address
    ka, kb = client_key(str(IPv4Address(a))), client_key(str(IPv4Address(b)))
    assert (ka == kb) == (a == b)
    assert client_key(f"::ffff:{IPv4Address(a)}") == ka  # IPv4-mapped: the same client


def test_no_public_state_or_step_speaks_of_the_police():
    """Dores Art. 4º, III / Art. 5º, IV: whatever state a case is in, the public reads no
    suspicion of theft (its label, its citizen text, the steps it shows)."""
    words = ("políc", "polic", "roubo", "furto", "suspeita")
    for slug in ("dores-do-indaia", "dracena"):
        law = get_law(slug)
        for track, lc in law.tracks.items():
            for code in lc.states:
                shown = lc.public_state(code)
                text = law.state_text(track, shown.code)
                said = (shown.label + " " + (text.for_citizen() if text else "")).lower()
                assert not any(w in said for w in words), (slug, code, said)
            for t in lc.transitions.values():
                if lc.public_step(t.code):
                    assert not any(w in t.label.lower() for w in words), (slug, t.code)


async def test_a_clients_first_requests_at_once_are_all_counted(core):
    """A page and its photo arrive together: the first requests of a new client create its
    guard once, never a 500 (a unique-key race on PostgreSQL), and each is counted."""
    import asyncio

    from sqlalchemy import select

    from core.storage.models import PublicGuard
    await asyncio.gather(*(public_access.hit(core, f"2001:db8:5:5::{i}") for i in range(8)))
    async with core.db.read() as s:
        guards = (await s.execute(select(PublicGuard))).scalars().all()
    assert [(g.key, g.hits) for g in guards] == [("rate:2001:db8:5:5::/64", 8)]
