"""Every question of the conversation, as whatsapp/render.py words it, is accepted by the
strict Cloud API stand-in (Meta's schemas and limits) when sent through whatsapp/graph.py
inside the 24 hours; after them the same message is refused as the platform refuses it
(131047), and the client says it must go as a template."""
from __future__ import annotations

import pytest
from aiohttp import ClientSession

from core.laws import get_law
from core.services.citizens.conversation import prompts
from sandbox.standin.whatsapp.server import WhatsAppStandIn
from tests.integration.test_conversation_prompts import ASKED, _draft
from whatsapp import graph, render

MARIA = "5537999990001"


@pytest.mark.parametrize("slug", ["dores-do-indaia", "dracena"])
async def test_every_rendered_question_is_accepted_then_refused_after_24_hours(make_core,
                                                                               slug):
    core = await make_core(slug)
    async with WhatsAppStandIn() as api, ClientSession() as http:
        client = graph.Graph(http, api.phone_number_id, api.token, api.graph_url)
        await api.user_text(MARIA, "Oi")  # the customer-service window opens
        sent = 0
        for category in get_law(slug).categories:
            for state in ASKED:
                p = prompts.question(core, _draft(category), state)
                for message in render.messages(MARIA, p, "a1b2c3.4"):
                    assert (await client.send(message)).startswith("wamid."), (category, state)
                    sent += 1
        assert len(api.sent_to(MARIA)) == sent
        api.advance(24 * 3600 + 60)
        p = prompts.question(core, _draft(next(iter(get_law(slug).categories))), ASKED[0])
        with pytest.raises(graph.GraphError) as e:
            await client.send(render.messages(MARIA, p, "a1b2c3.4")[0])
        assert (e.value.code, e.value.outcome) == (131047, graph.TEMPLATE)
        assert "24 horas" in e.value.in_words
