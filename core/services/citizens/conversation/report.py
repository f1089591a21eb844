"""The report's own choices, decided once for every face: the category, "Pronto" after the
photos, and "Corrigir" on the summary (which answer to give again). Each says what was
understood (answers.Taken: the draft and the next state) or None for a choice that is not one
of this question's (a stale button, a category of another city's law)."""
from __future__ import annotations

from typing import Any

from core.services.citizens.conversation import words
from core.services.citizens.conversation.answers import Refused, Taken
from core.services.citizens.conversation.prompts import Choice, Prompt, city_core
from core.services.citizens.conversation.states import (CATEGORY, FIXABLE, LOCATION, PHOTOS,
                                                        PREFIX, SUMMARY, questions)
from core.services.context import Core

#: Not a state: the location is already known, so the next step is what follows it (the open
#: cases nearby, then the category's questions); the face runs that step.
LOCATED = "located"

#: Answers that belong to one category (or one law's criteria): dropped when it changes.
CATEGORY_ANSWERS = ("plate", "colour", "make_model", "signs")

FIX_QUESTION = "O que você quer corrigir?"
PHOTOS_DROPPED = "As fotos anteriores foram descartadas. Envie as novas."


def category_chosen(core: Core, d: dict[str, Any], code: str) -> Taken | None:
    """A category of the city's law (the pin decided the city): the photos come next, or,
    correcting the category of a located report, what follows the location."""
    if code not in city_core(core, d).law.categories:
        return None
    d = dict(d)
    if d.get("category") not in (None, code):  # another category's answers no longer apply
        for key in CATEGORY_ANSWERS:
            d.pop(key, None)
    d["category"] = code
    if d.get("fixing") and "lat" in d:
        d.pop("fixing")
        return Taken(d, LOCATED)
    return Taken(d, PHOTOS)


def photos_done(d: dict[str, Any]) -> Taken | Refused:
    """"Pronto" after the photos: at least one is needed; then the location, or what follows
    it when a pin came first, or back to the summary when correcting the photos."""
    if not d.get("photos"):
        return Refused(words.NEED_PHOTO_FIRST, again=False)
    d = dict(d)
    if d.pop("fixing", None):
        return Taken(d, SUMMARY)
    return Taken(d, LOCATED if "lat" in d else LOCATION)


def fixable(core: Core, d: dict[str, Any]) -> list[str]:
    """The answers "Corrigir" can reopen for this report (its category's questions only)."""
    asked = questions(city_core(core, d).law, d["category"])
    return [s for s in FIXABLE if s in (CATEGORY, PHOTOS, LOCATION) or s in asked]


def fix_menu(core: Core, d: dict[str, Any]) -> Prompt:
    return Prompt(FIX_QUESTION, tuple((Choice(FIXABLE[s], "fix", s.removeprefix(PREFIX)),)
                                      for s in fixable(core, d)))


def fix_chosen(core: Core, d: dict[str, Any], field: str) -> Taken | None:
    """The answer to give again: its question next, then back to the summary (the photos are
    given anew, the earlier ones dropped)."""
    state = PREFIX + field
    if state not in fixable(core, d):
        return None
    d = dict(d, fixing=True)
    if state == PHOTOS:
        d["photos"] = []
    return Taken(d, state)
