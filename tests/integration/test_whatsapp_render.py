"""The conversation's questions as WhatsApp shows them (whatsapp/render.py): every question
of both laws, for every category, renders within the Cloud API's limits (3 reply buttons of
20 characters, lists of 10 rows of 24 + 72, bodies of 1,024), nothing a person could choose
is dropped on the way down (buttons → list → numbered text), and each reply id answers only
the question it was shown with."""
from __future__ import annotations

import pytest

from core.laws import get_law
from core.services.citizens.conversation import prompts, states
from core.services.citizens.conversation.prompts import Choice, Prompt
from tests.integration.test_conversation_prompts import ASKED, _draft
from whatsapp import render

TO, KEY = "5537999990001", "a1b2c3.4"


def _choices_shown(msgs: list[dict]) -> list[tuple[str, str]]:
    """(id, words) of every choice the messages offer; numbered lines as ("n", line)."""
    last = msgs[-1]
    if last["type"] == "text":
        return [("n", line) for line in last["text"]["body"].splitlines()
                if line[:1].isdigit()]
    inter = last["interactive"]
    if inter["type"] == "button":
        return [(b["reply"]["id"], b["reply"]["title"]) for b in inter["action"]["buttons"]]
    if inter["type"] == "list":
        return [(r["id"], r["title"] + (" " + r["description"] if "description" in r else ""))
                for s in inter["action"]["sections"] for r in s["rows"]]
    return []


def _within_limits(m: dict) -> None:
    assert m["messaging_product"] == "whatsapp" and m["to"] == TO
    if m["type"] == "text":
        assert 0 < len(m["text"]["body"]) <= render.TEXT_MAX
        return
    inter = m["interactive"]
    assert 0 < len(inter["body"]["text"]) <= render.BODY_MAX
    if inter["type"] == "button":
        buttons = inter["action"]["buttons"]
        assert 1 <= len(buttons) <= 3
        assert all(len(b["reply"]["title"]) <= 20 and len(b["reply"]["id"]) <= 256
                   for b in buttons)
        assert len({b["reply"]["title"] for b in buttons}) == len(buttons)
    elif inter["type"] == "list":
        rows = [r for s in inter["action"]["sections"] for r in s["rows"]]
        assert 1 <= len(rows) <= 10 and len(inter["action"]["button"]) <= 20
        assert all(len(r["title"]) <= 24 and len(r.get("description", "")) <= 72
                   and len(r["id"]) <= 200 for r in rows)
        assert len({r["id"] for r in rows}) == len(rows)
    else:
        assert inter["type"] == "location_request_message"
        assert inter["action"] == {"name": "send_location"}


@pytest.mark.parametrize("slug", ["dores-do-indaia", "dracena"])
async def test_every_question_fits_whatsapp_and_offers_every_choice(make_core, slug):
    core = await make_core(slug)
    for category in get_law(slug).categories:
        for state in ASKED:
            p = prompts.question(core, _draft(category), state)
            msgs = render.messages(TO, p, KEY)
            for m in msgs:
                _within_limits(m)
            shown = _choices_shown(msgs)
            assert len(shown) == len(p.choices), (category, state)
            for (rid, words), choice in zip(shown, p.choices):
                if rid == "n":  # numbered text: read back by its number
                    assert choice.label in words
                else:
                    assert words == choice.label, (category, state)
                    assert render.parse_reply(KEY, rid) == (choice.action, choice.value or "")
            if p.location:
                assert msgs[-1]["interactive"]["type"] == "location_request_message"


def test_a_reply_to_an_earlier_question_is_stale():
    rid = render.reply_id("a1b2c3.3", Choice("Pular", "skip"))
    assert render.parse_reply("a1b2c3.4", rid) is None
    assert render.parse_reply("a1b2c3.3", rid) == ("skip", "")
    assert render.parse_reply(KEY, "not-ours") is None
    assert render.parse_reply(KEY, "") is None


def test_choices_degrade_from_buttons_to_a_list_to_numbered_text():
    def kinds(n: int, label: str = "Tipo {}") -> Prompt:
        return Prompt("Qual?", tuple((Choice(label.format(i), "cat", f"c{i}"),)
                                     for i in range(1, n + 1)))
    assert render.messages(TO, kinds(3), KEY)[0]["interactive"]["type"] == "button"
    assert render.messages(TO, kinds(4), KEY)[0]["interactive"]["type"] == "list"
    long = kinds(2, "Veículo abandonado em via pública número {}")  # over 20: no button
    rows = render.messages(TO, long, KEY)[0]["interactive"]["action"]["sections"][0]["rows"]
    assert [r["title"] + " " + r["description"] for r in rows] == [
        c.label for c in long.choices]
    eleven = render.messages(TO, kinds(11), KEY)
    assert eleven[0]["type"] == "text"
    assert "11. Tipo 11" in eleven[0]["text"]["body"]
    assert prompts.chosen(kinds(11), "11") == kinds(11).choices[10]


def test_a_long_summary_goes_first_as_text_then_its_choices():
    p = Prompt("Resumo\n" + "linha do resumo\n" * 100, ((Choice("✅ Confirmar", "ok"),
                                                         Choice("✏️ Corrigir", "fix")),))
    first, then = render.messages(TO, p, KEY)
    assert first["text"]["body"] == p.text
    assert then["interactive"]["body"]["text"] == render.CHOOSE
    _within_limits(then)


def test_a_location_request_is_the_platforms_own():
    msgs = render.messages(TO, prompts.Prompt("Envie o local.", location=True), KEY)
    assert msgs[-1]["interactive"] == {"type": "location_request_message",
                                       "body": {"text": "Envie o local."},
                                       "action": {"name": "send_location"}}
    assert states.LOCATION  # the state whose question it is
