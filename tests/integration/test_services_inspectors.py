"""Inviting and binding inspectors, and the role/agency check behind every inspector action."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from core.services.errors import Forbidden, InvalidInput
from core.services.inspectors.accounts import (bind_inspector, inspector_for, invite_inspector,
                                      require_inspector, update_location)
from core.services.inspectors.tasks import deactivate_inspector
from core.services.citizens.reports import ReportIn, submit_report
from core.storage.models import InviteCode
from core.storage.timeline import ActorRef

STAFF = ActorRef("staff", "u1", "Maria (Secretaria)")


async def test_invite_code_is_shown_once_and_only_its_hash_is_stored(core):
    code = await invite_inspector(core, "João Pereira", "Fiscalização de Posturas", "maria")
    async with core.db.read() as s:
        row = (await s.execute(select(InviteCode))).scalar_one()
    assert code.replace("-", "") not in repr(row.__dict__)
    assert row.agency == "posturas" and len(row.code_hash) == 64
    assert (row.expires_at - row.created_at).days == 7


async def test_invite_refuses_an_agency_the_law_does_not_name_art_10(core):
    with pytest.raises(InvalidInput) as exc:
        await invite_inspector(core, "João", "Polícia Federal", "maria")
    assert "Órgão desconhecido" in exc.value.message
    assert "Fiscalização de Posturas" in exc.value.message


async def test_bind_with_a_fresh_code_then_the_code_is_used(core):
    code = await invite_inspector(core, "João Pereira", "transito", "maria")
    bound = await bind_inspector(core, 900, code.lower(), "joao")
    assert bound.agency == "transito" and bound.agency_name == "Setor de Trânsito e Transporte"
    assert (await inspector_for(core, 900)).name == "João Pereira"
    with pytest.raises(Forbidden) as exc:
        await bind_inspector(core, 901, code)
    assert "já foi usado" in exc.value.message
    assert await inspector_for(core, 901) is None


async def test_an_expired_code_is_refused(core, clock):
    code = await invite_inspector(core, "João", "posturas", "maria")
    clock.advance(days=7, seconds=1)
    with pytest.raises(Forbidden) as exc:
        await bind_inspector(core, 900, code)
    assert "expirou" in exc.value.message


async def test_five_wrong_codes_cool_the_account_down_even_for_the_right_code(core, clock):
    code = await invite_inspector(core, "João", "posturas", "maria")
    for _ in range(5):
        with pytest.raises(Forbidden) as exc:
            await bind_inspector(core, 900, "AAAA-BBBB-CCCC")
        assert "inválido" in exc.value.message
    with pytest.raises(Forbidden) as exc:
        await bind_inspector(core, 900, code)
    assert "Muitas tentativas" in exc.value.message
    await bind_inspector(core, 777, code.replace("-", " "))  # another account is not affected…
    assert await inspector_for(core, 777) is not None


async def test_cool_down_ends_after_an_hour_and_survives_a_new_core(core, make_core, clock):
    code = await invite_inspector(core, "João", "posturas", "maria")
    for _ in range(5):
        with pytest.raises(Forbidden):
            await bind_inspector(core, 900, "WRONG")
    restarted = await make_core()  # a restart keeps the attempts (they are in the database)
    with pytest.raises(Forbidden, match="Muitas tentativas"):
        await bind_inspector(restarted, 900, code)
    clock.advance(hours=1, seconds=1)
    assert (await bind_inspector(restarted, 900, code)).name == "João"


async def test_four_wrong_codes_do_not_block(core):
    code = await invite_inspector(core, "João", "posturas", "maria")
    for _ in range(4):
        with pytest.raises(Forbidden):
            await bind_inspector(core, 900, "WRONG")
    assert (await bind_inspector(core, 900, code)).agency == "posturas"


async def test_non_inspector_and_deactivated_inspector_are_refused_politely(core):
    with pytest.raises(Forbidden) as exc:
        await require_inspector(core, 123)
    assert "só para fiscais" in exc.value.message
    code = await invite_inspector(core, "João", "posturas", "maria")
    bound = await bind_inspector(core, 900, code)
    assert (await require_inspector(core, 900)).id == bound.inspector_id
    await deactivate_inspector(core, bound.inspector_id, STAFF)
    assert await inspector_for(core, 900) is None
    with pytest.raises(Forbidden):
        await require_inspector(core, 900)


async def test_agency_must_be_allowed_for_the_step_art_5_caput(core, photo):
    """Furniture diligence (Art. 5º, caput: Secretaria de Saúde) is not the Trânsito's."""
    saude = await invite_inspector(core, "Ana Saúde", "saude", "maria")
    transito = await invite_inspector(core, "Rui Trânsito", "transito", "maria")
    await bind_inspector(core, 901, saude)
    await bind_inspector(core, 902, transito)
    done = await submit_report(core, 555, ReportIn("large_furniture", -19.4628, -45.6003,
                                                   [photo(1)]))
    assert (await require_inspector(core, 901, "notify_owner", done.protocol)).name == "Ana Saúde"
    with pytest.raises(Forbidden) as exc:
        await require_inspector(core, 902, "notify_owner", done.protocol)
    assert "Secretaria Municipal de Saúde" in exc.value.message
    assert "Art. 5º, I" in exc.value.message
    with pytest.raises(Forbidden, match="não é feito por fiscais"):
        await require_inspector(core, 901, "release", done.protocol)


async def test_update_location_is_for_inspectors_only(core):
    with pytest.raises(Forbidden):
        await update_location(core, 123, -19.46, -45.60)
    await bind_inspector(core, 900, await invite_inspector(core, "João", "posturas", "m"))
    await update_location(core, 900, -19.46, -45.60)
    me = await inspector_for(core, 900)
    assert (me.last_lat, me.last_lon) == (-19.46, -45.60) and me.last_seen_at is not None
    with pytest.raises(InvalidInput):
        await update_location(core, 900, 123.0, 0.0)
