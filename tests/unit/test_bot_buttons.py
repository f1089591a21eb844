"""Telegram's callback_data formats live in the bot (bot/buttons.py): core services queue
intents ({"intent": "task.accept", "task": 42}) and owner views carry intents; the bot words
each as the callback_data its handlers read back, within Telegram's 64 bytes."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot import buttons
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


# -- bot/buttons.py is the only writer of callback data ---------------------------------------

BOT = Path(__file__).resolve().parents[2] / "bot"
#: "<word>:<something>" written as a string: callback data (the logs' "outbox: …" have a space)
_CALLBACK_LIKE = re.compile(r"^[a-z_]+:[^\s]")


def _docstrings(tree: ast.AST) -> set[int]:
    kinds = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {id(n.body[0].value) for n in ast.walk(tree) if isinstance(n, kinds) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}


def _state_names(path: Path, tree: ast.Module) -> set[int]:
    """A states.py module's top-level constants: conversation states, not callback data."""
    if path.name != "states.py":
        return set()
    return {id(n.value) for n in tree.body if isinstance(n, ast.Assign)}


def callback_writers(path: Path) -> list[str]:
    """Strings in a module that look like callback data being written, and every
    InlineKeyboardButton(callback_data=<not a plain name>) built there."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    skip = _docstrings(tree) | _state_names(path, tree)
    inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    found = []
    for n in ast.walk(tree):
        if id(n) in skip or id(n) in inner:
            continue
        head = n.value if isinstance(n, ast.Constant) else None
        if isinstance(n, ast.JoinedStr) and n.values and isinstance(n.values[0], ast.Constant):
            head = n.values[0].value + ("{}" if len(n.values) > 1 else "")  # f"rep:{id}"
        if isinstance(head, str) and _CALLBACK_LIKE.match(head):
            found.append(f"{path.name}:{n.lineno} {ast.unparse(n)}")
        if isinstance(n, ast.Call) and ast.unparse(n.func).endswith("InlineKeyboardButton"):
            for kw in n.keywords:
                if kw.arg == "callback_data" and not isinstance(kw.value, ast.Name):
                    found.append(f"{path.name}:{n.lineno} {ast.unparse(n)}")
    return found


def test_the_checker_sees_callback_data_written_by_hand(tmp_path):
    f = tmp_path / "keyboard.py"
    f.write_text('def kb(d, code):\n'
                 '    """"owner:send:<code>" is read by on_button."""\n'
                 '    return [("Sim", f"owner:send:{code}"), ("Não", "lgpd:no"),\n'
                 '            ("x", f"rep:{d[\'id\']}:ok")]\n'
                 'B = InlineKeyboardButton("x", callback_data="a" + "b")\n'
                 'log = "outbox: %s sent"\n')
    assert sorted(w.split()[0] for w in callback_writers(f)) == [
        "keyboard.py:3", "keyboard.py:3", "keyboard.py:4", "keyboard.py:5"]


def test_bot_buttons_is_the_only_writer_of_callback_data():
    found = [w for p in sorted(BOT.rglob("*.py")) if p != BOT / "buttons.py"
             for w in callback_writers(p)]
    assert found == []


@pytest.mark.parametrize("data, expected", [
    (buttons.report(7, "addr", "yes"), "rep:7:addr:yes"),
    (buttons.report(7, "done"), "rep:7:done"),
    (buttons.step_form(3, "tog", 0), "insp:3:tog:0"),
    (buttons.case_step("again", "2026-000001", "notificacao"), "insp:again:2026-000001:notificacao"),
    (buttons.owner("undo_yes", 4, "abc"), "owner:undo_yes:4:abc"),
    (buttons.notifications("2026-000001", on=False), "notif:off:2026-000001"),
    (buttons.my_data("ask"), "lgpd:ask"),
])
def test_the_bots_own_keyboards_get_the_data_their_handlers_read(data, expected):
    assert data == expected


def test_callback_data_over_64_bytes_is_refused():
    with pytest.raises(ValueError):
        buttons.owner("send", "x" * 60)
