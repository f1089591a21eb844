"""The invariant "an answer is stored for the question it answers", as a property over chats
where any earlier message may be replayed and any earlier button pressed again
(core.services.citizens.conversation.steps): every stored answer is the one the person gave
to that question, and nothing is stored twice."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from core.services.citizens.conversation import steps

QUESTIONS = ["plate", "colour", "make_model", "time_there", "description"]


def _run(events: list[tuple[str, int]]) -> tuple[dict, list[tuple[str, str]]]:
    """A person answering QUESTIONS in order; each event is ("answer", _) — type the answer
    to the question shown —, ("replay", k) — the k-th earlier message again —, or
    ("button", k) — press "Pular" on the k-th question shown so far."""
    draft: dict = {"id": "a1b2c3"}
    state, draft = QUESTIONS[0], steps.advance(draft, "idle", QUESTIONS[0], None)
    order = 0
    sent: list[tuple[int, str]] = []  # the person's messages: (order, text)
    shown: list[tuple[str, str]] = [(state, steps.key(draft))]  # questions and their keys
    stored: list[tuple[str, str]] = []

    def take(value: str, order_: int | None) -> None:
        nonlocal state, draft
        stored.append((state, value))
        i = QUESTIONS.index(state)
        nxt = QUESTIONS[i + 1] if i + 1 < len(QUESTIONS) else "summary"
        draft = steps.advance(draft, state, nxt, order_)
        state = nxt
        shown.append((state, steps.key(draft)))

    for kind, k in events:
        if state == "summary":
            break
        if kind == "answer":
            order += 2  # the question shown took one number, the answer the next
            text = f"answer to {state}"
            sent.append((order, text))
            if not steps.replayed(draft, order):
                take(text, order)
        elif kind == "replay" and sent:
            o, text = sent[k % len(sent)]
            if not steps.replayed(draft, o):
                take(text, o)
        elif kind == "button":
            question, pressed = shown[k % len(shown)]
            if steps.current(draft, pressed):
                take(f"skipped {question}", None)
    return draft, stored


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["answer", "replay", "button"]),
                          st.integers(0, 50)), max_size=40))
def test_every_stored_answer_belongs_to_its_question(events):
    _, stored = _run(events)
    questions = [q for q, _ in stored]
    assert questions == QUESTIONS[:len(questions)]  # each question answered once, in order
    for question, value in stored:
        assert value in (f"answer to {question}", f"skipped {question}"), (question, value)


def test_a_replay_of_the_last_answer_is_not_taken_again():
    draft = steps.advance({"id": "x"}, "idle", "plate", None)
    draft = steps.advance(draft, "plate", "colour", 7)
    assert steps.replayed(draft, 7) and steps.replayed(draft, 3)
    assert not steps.replayed(draft, 9) and not steps.replayed(draft, None)


def test_a_button_is_current_only_for_the_question_it_was_shown_with():
    draft = steps.advance({"id": "x"}, "idle", "plate", None)
    plate_key = steps.key(draft)
    draft = steps.advance(draft, "plate", "plate", 5)  # the same question again: same key
    assert steps.current(draft, plate_key)
    draft = steps.advance(draft, "plate", "colour", 6)
    assert not steps.current(draft, plate_key) and steps.current(draft, steps.key(draft))
    assert not steps.current({}, plate_key)  # no draft: nothing is current
