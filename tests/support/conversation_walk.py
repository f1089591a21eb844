"""A fixture that watches the citizen's conversation while a test walks it end to end and
fails the test if the bot moved along an edge that core/services/citizens/conversation/states.py (the table the diagram
in docs/flows/citizen.md is drawn from) does not have. Used by tests/e2e/test_bot_report.py and
tests/e2e/test_conversation_doc.py."""
from __future__ import annotations

import pytest

from core.services.citizens.conversation.states import ANYWHERE_EDGES, FIX, FIX_EDGES, FIXABLE, IDLE, STATES
from bot.router import Turn

TABLE = {(s.state, e.to) for s in STATES for e in s.edges}


def on_the_table(before: str, after: str, fixing: bool) -> bool:
    if (before, after) in TABLE:
        return True
    if after in {e.to for e in ANYWHERE_EDGES}:  # /cancelar
        return True
    if (before, FIX) in TABLE and after in FIXABLE:  # "Corrigir" reopens one answer
        return True
    return fixing and after in {e.to for e in FIX_EDGES}  # ... which leads back


def _citizen(state: str) -> bool:
    return state == IDLE or state.startswith("report:")


@pytest.fixture
def conversation_walk(monkeypatch):
    """The (before, after, fixing) moves the bot made; checked against the table at the end."""
    moves: list[tuple[str, str, bool]] = []
    save, clear = Turn.save, Turn.clear

    async def watched_save(self, state, draft=None):
        before = self.conv
        moves.append((before.state, state, bool(before.draft.get("fixing"))))
        await save(self, state, draft)

    async def watched_clear(self):
        moves.append((self.conv.state, IDLE, False))
        await clear(self)

    monkeypatch.setattr(Turn, "save", watched_save)
    monkeypatch.setattr(Turn, "clear", watched_clear)
    yield moves
    off = [m for m in moves if _citizen(m[0]) and _citizen(m[1])
           and not on_the_table(*m)]
    assert not off, f"the bot moved off the table in core/services/citizens/conversation/states.py: {off}"
