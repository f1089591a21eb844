"""Which input each state of the report takes, decided once for every face: a face reads
what the person sent into a `Said` (a text, a photo it has already checked and stored, a pin,
or a choice it showed), and `take` says what the conversation makes of it in the state it is
in — an answer taken (answers.Taken, the location's follow-up settled), a refusal
(answers.Refused), or one of the few outcomes a face acts on itself: `Confirmed` (submit the
report), location.Support (join an open case), `Toggled` (a sign marked), `Menu` (the
"Corrigir" choices). None: a choice that is not one of the question shown now (stale).

A text in a state that waits for a choice is read as the choice it names (its number in the
numbered list, or its words: prompts.chosen), so a channel without buttons, or a person who
types "pular" instead of tapping, is understood the same way. In a state that takes a typed
answer, only the choice's own words count ("Pular"), never a number: "2" may be an answer;
and the summary is confirmed only by its word, never by a number typed."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.services.citizens.conversation import answers, location, photos, report, words
from core.services.citizens.conversation.answers import Refused, Taken
from core.services.citizens.conversation.prompts import (Prompt, chosen, duplicates, named,
                                                         question)
from core.services.citizens.conversation.states import (CATEGORY, COLOUR, DESCRIPTION,
                                                        DUPLICATES, LOCATION, MAKE_MODEL,
                                                        PHOTOS, PLATE, SUMMARY, TIME_THERE,
                                                        button_allowed)
from core.services.context import Core
from core.services.geocoding import Geocoder

TEXT, PHOTO, PIN, CHOICE, OTHER = "text", "photo", "pin", "choice", "other"

#: The choices the conversation answers (each one an action of the state table, states.py).
ACTIONS = frozenset({"cat", "done", "addr", "dup", "skip", "time", "sign", "signs", "ok", "fix"})

#: States whose question is answered by typing (a choice there is named by its words only).
TYPED = (PLATE, COLOUR, MAKE_MODEL, TIME_THERE, DESCRIPTION)


@dataclass(frozen=True)
class Said:
    """What the person sent, read by the face."""
    kind: str  # TEXT, PHOTO, PIN, CHOICE or OTHER (a sticker, a voice note…)
    text: str | None = None
    lat: float | None = None
    lon: float | None = None
    action: str | None = None  # CHOICE: the state table's action and its value
    value: str = ""
    #: PHOTO: as the face checked and stored it ({"sha", "mime", "file_id", "unique_id"})
    photo: dict[str, Any] | None = None


@dataclass(frozen=True)
class Confirmed:
    """"Confirmar" on the summary: the face submits the draft (receipt.report)."""
    draft: dict[str, Any]


@dataclass(frozen=True)
class Toggled:
    """A sign marked or unmarked: store the draft (the state stays SIGNS), say so, show the
    signs again."""
    draft: dict[str, Any]
    marked: bool


@dataclass(frozen=True)
class Menu:
    """"Corrigir" on the summary: the answers it can reopen (the state stays)."""
    prompt: Prompt


Outcome = Taken | Refused | Confirmed | Toggled | Menu | location.Support


def takes_photo(core: Core, state: str, d: dict[str, Any]) -> bool:
    """Does `state` keep a photo sent now (the photos step, before the category, or before
    the pin with several cities served)?"""
    if state in (PHOTOS, CATEGORY):
        return True
    return state == LOCATION and "category" not in d


def photo_refused(core: Core, state: str, d: dict[str, Any], unique_id: str | None
                  ) -> Prompt | None:
    """Why a photo is not kept, known before the face fetches it (the draft is full, the same
    photo again): the refusal to show, or None."""
    text = photos.refused(d, unique_id)
    return None if text is None else photos.refusal(photos.landing(core, state), text)


def shown(core: Core, state: str, d: dict[str, Any]) -> Prompt:
    """The question of `state` as shown (the choice among the cases nearby for DUPLICATES)."""
    return duplicates(d) if state == DUPLICATES else question(core, d, state)


async def take(core: Core, state: str, d: dict[str, Any], said: Said,
               geocoder: Geocoder) -> Outcome | None:
    """What the report conversation in `state`, with the draft `d`, makes of `said`."""
    if said.kind == CHOICE:
        if said.action is None or not button_allowed(state, said.action):
            return None
        return await _choice(core, state, d, said.action, said.value)
    if said.kind == PHOTO and said.photo is not None:
        if not takes_photo(core, state, d):
            return Refused(words.NEED_LOCATION if state == LOCATION else words.NEED_BUTTON)
        landing = photos.landing(core, state)
        d = dict(d, photos=list(d.get("photos", [])) + [said.photo])
        return Taken(d, landing, prompt=photos.kept(core, landing, d))
    if said.kind == PIN and said.lat is not None and said.lon is not None:
        if state not in (LOCATION, CATEGORY):  # in PHOTOS a pin would skip "Pronto"
            return Refused(words.NEED_BUTTON if state not in TYPED else words.NEED_TEXT)
        return await _settled(core, await location.pinned(core, d, state, said.lat, said.lon,
                                                          geocoder))
    if said.kind == TEXT:
        return await _text(core, state, d, said.text or "", geocoder)
    return Refused(words.NEED_LOCATION if state == LOCATION else
                   words.NEED_PHOTO if state == PHOTOS else
                   words.NEED_TEXT if state in TYPED else words.NEED_BUTTON)


async def _text(core: Core, state: str, d: dict[str, Any], text: str,
                geocoder: Geocoder) -> Outcome | None:
    if state == LOCATION:
        return await _settled(core, await location.address_typed(core, d, text, geocoder))
    prompt = shown(core, state, d)
    # by number where a list is read; confirming the report only by its word
    choice = named(prompt, text) if state in (*TYPED, SUMMARY) else chosen(prompt, text)
    if choice is not None:
        return await _choice(core, state, d, choice.action, choice.value or "")
    if state in TYPED:
        return await _settled(core, answers.typed(core, d, state, text))
    if state == PHOTOS:
        return Refused("", again=False, prompt=photos.refusal(PHOTOS, words.NEED_PHOTO))
    return Refused(words.NEED_BUTTON)


async def _settled(core: Core, outcome: Taken | Refused) -> Taken | Refused:
    """A refusal as it is; an answer taken with what follows a location known (settle)."""
    return await location.settle(core, outcome) if isinstance(outcome, Taken) else outcome


async def _choice(core: Core, state: str, d: dict[str, Any], action: str,
                  value: str) -> Outcome | None:
    outcome: Outcome | None
    if action == "cat":
        outcome = report.category_chosen(core, d, value)
    elif action == "done":
        outcome = report.photos_done(d)
        if isinstance(outcome, Refused):
            return Refused(outcome.text, again=True)
    elif action == "addr":
        outcome = location.address_answered(core, d, state, value == "yes")
    elif action == "dup":
        outcome = location.duplicate_chosen(core, d, value)
    elif action == "skip":
        outcome = answers.skipped(core, d, state)
    elif action == "time":
        outcome = answers.time_chosen(core, d, value)
    elif action == "sign":
        toggled = answers.sign_toggled(core, d, value)
        return None if toggled is None else Toggled(*toggled)
    elif action == "signs":
        outcome = answers.signs_done(core, d)
    elif action == "ok":
        return Confirmed(dict(d))
    elif action == "fix":
        if not value:
            return Menu(report.fix_menu(core, d))
        outcome = report.fix_chosen(core, d, value)
        if isinstance(outcome, Taken) and outcome.state == PHOTOS:
            outcome = Taken(outcome.draft, PHOTOS, said=report.PHOTOS_DROPPED + "\n\n")
    else:
        return None
    if isinstance(outcome, Taken):
        return await location.settle(core, outcome)
    return outcome

