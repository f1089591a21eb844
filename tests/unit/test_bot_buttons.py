"""Telegram's callback_data formats live in the bot (bot/buttons.py): core services queue
intents ({"intent": "task.accept", "task": 42}) and owner views carry intents; the bot words
each as the callback_data its handlers read back, within Telegram's 64 bytes."""
from __future__ import annotations

import pytest

from bot.buttons import MAX_CALLBACK_BYTES, SITUATION_FLAGS, callback_data, markup
from bot.owner.view import keyboard
from core.services.owners import OwnerAction

CODE = "x" * 22  # longer than any case code


@pytest.mark.parametrize("intent, refs, data", [
    ("task.accept", {"task": 42}, "task:accept:42"),
    ("task.refuse", {"task": 42}, "task:refuse:42"),
    ("task.open", {"task": 42}, "task:open:42"),
    ("case.open", {"case": "2026-000001"}, "case:open:2026-000001"),
    ("case.unsubscribe", {"case": "2026-000001"}, "unsub:2026-000001"),
    ("owner.view", {"case": "abc"}, "owner:view:abc"),
    ("owner.situation", {"case": "abc", "flag": "by_attorney"}, "owner:sit:attorney:abc"),
    ("followup.gone", {"case": "2026-000001"}, "fup:gone:2026-000001"),
    ("followup.there", {"case": "2026-000001"}, "fup:there:2026-000001"),
    ("followup.no_photo", {"case": "2026-000001"}, "fup:nophoto:2026-000001"),
    ("followup.done", {"case": "2026-000001"}, "fup:done:2026-000001"),
])
def test_intents_become_the_callback_data_the_handlers_read(intent, refs, data):
    assert callback_data({"text": "x", "intent": intent, **refs}) == data


def test_every_owner_action_fits_in_64_bytes():
    actions = [OwnerAction("x", i, CODE) for i in ("owner.removed", "owner.will_remove",
                                                   "owner.appeal", "owner.pdf")]
    actions += [OwnerAction("x", "owner.situation", CODE, flag) for flag in
                SITUATION_FLAGS.values()]
    for a in actions:
        assert len(callback_data(a).encode()) <= MAX_CALLBACK_BYTES


def test_a_payload_queued_before_intents_still_renders():
    kb = markup([[{"text": "Abrir caso", "callback_data": "task:open:7"}],
                 [{"text": "Mapa", "url": "https://www.openstreetmap.org"}]])
    assert kb.inline_keyboard[0][0].callback_data == "task:open:7"
    assert kb.inline_keyboard[1][0].url.startswith("https://")


def test_core_payloads_carry_no_callback_data():
    """No core module writes a Telegram callback_data (nor imports telegram)."""
    from pathlib import Path
    core = Path(__file__).resolve().parents[2] / "core"
    hits = [str(p) for p in core.rglob("*.py") if "callback_data" in p.read_text("utf-8")]
    assert hits == []


def test_owner_view_keyboard_marks_active_toggles():
    class Situation:
        by_attorney, sale_communicated, unrecoverable = True, False, False

    class Depot:
        situation = Situation()

    class View:
        depot = Depot()
        actions = ((OwnerAction("Sou procurador", "owner.situation", "abc", "by_attorney"),
                    OwnerAction("Sem recuperação", "owner.situation", "abc", "unrecoverable")),)

    kb = keyboard(View())
    assert [b.text for b in kb.inline_keyboard[0]] == ["✅ Sou procurador", "Sem recuperação"]
    assert kb.inline_keyboard[0][1].callback_data == "owner:sit:unrecoverable:abc"
