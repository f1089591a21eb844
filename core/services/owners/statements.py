"""Which of the owner's statements ("Vou retirar" / "Já retirei", Dores Art. 6º, §3º) may still
be taken back, read from the case's timeline (core.services.owners.withdrawal takes it back;
core.services.owners.view offers the button)."""
from __future__ import annotations

from collections.abc import Iterator

from core.formatting import fmt_date
from core.lifecycle import Lifecycle
from core.services.errors import InvalidInput
from core.storage.models import Case, Event

#: The owner's statement taken back (core.services.owners.withdrawal): the event's
#: owner_statement_kind, and its action when the statement was a timeline note.
WITHDRAWN = "withdrawn"
NOTE_WITHDRAWN = "owner_statement_withdrawn"
WITHDRAW_BUTTON = "Desfazer declaração"
#: Task routing is not acting on the statement (an inspector accepting the task has not
#: verified anything yet).
ROUTING_EVENTS = frozenset({"task_offered", "task_accepted", "task_refused", "task_withdrawn",
                            "assignment_pending"})


def standing(events: list[Event]) -> Iterator[tuple[Event, str | None]]:
    """The timeline newest first, without the statements taken back and their withdrawals:
    each event with its statement kind ("removed", "will_remove"; None for other events)."""
    withdrawn: set[int] = set()
    for ev in reversed(events):
        data = ev.data or {}
        kind = data.get("owner_statement_kind")
        if kind == WITHDRAWN:
            withdrawn.add(int(data.get("undoes") or 0))
        elif ev.seq not in withdrawn:
            yield ev, kind


def standing_statement(events: list[Event]) -> Event | None:
    """The owner's latest statement still standing (not withdrawn), if any."""
    return next((ev for ev, kind in standing(events) if kind is not None), None)


def statement_to_withdraw(case: Case, events: list[Event], lifecycle: Lifecycle) -> Event:
    """The owner's statement ("Vou retirar" / "Já retirei", Art. 6º, §3º) that may still be
    taken back, or InvalidInput saying why not. It may while the inspector has not acted on
    it: after it there is no lifecycle step (by anyone: the inspector confirming the removal,
    the towing starting, the promised date lapsing) and no event recorded by an inspector
    (photos, documents), task routing aside. Only the owner's own statement (made in the bot,
    not one the inspector recorded on site), on an open case; a withdrawn one lets the one
    before it stand again."""
    if not case.is_open:
        raise InvalidInput("Este caso já foi encerrado.")
    later: list[Event] = []
    for ev, kind in standing(events):
        if kind is None:
            later.append(ev)
            continue
        acted = next((e for e in reversed(later) if lifecycle.is_step(e.action) or (
            e.actor_kind == "inspector" and e.action not in ROUTING_EVENTS)), None)
        if ev.actor_kind != "owner":
            raise InvalidInput("Essa declaração foi registrada pela fiscalização; para "
                               "mudá-la, fale com a fiscalização.")
        if acted is not None:
            what = lifecycle.step_label(acted.action) or "um registro no caso"
            raise InvalidInput(
                f"A fiscalização já agiu depois da sua declaração (“{what}”, em "
                f"{fmt_date(acted.at)}); ela não pode mais ser desfeita (Art. 6º, §3º). "
                "Se precisar, fale com a fiscalização.")
        return ev
    raise InvalidInput("Não há declaração sua para desfazer neste caso.")


def can_withdraw(case: Case, events: list[Event], lifecycle: Lifecycle) -> bool:
    try:
        statement_to_withdraw(case, events, lifecycle)
    except InvalidInput:
        return False
    return True
