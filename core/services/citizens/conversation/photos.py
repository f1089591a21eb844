"""The report's photos, decided once for every face: which step a photo lands in (it may
start the report), which are refused (more than MAX_PHOTOS, the same photo twice) and what
is said once they are kept (one acknowledgement per message or album: the face knows when an
album is complete). The face reads the file, checks and stores it (the evidence store), and
keeps in the draft what it needs to send it again ("photos": the SHA-256, the type and the
platform's own references)."""
from __future__ import annotations

from typing import Any

from core.services.citizens.conversation import words
from core.services.citizens.conversation.prompts import DONE, Prompt, category, location_question
from core.services.citizens.conversation.states import CATEGORY, LOCATION, PHOTOS
from core.services.citizens.reports import MAX_PHOTOS
from core.services.context import Core

#: The states in which a photo is taken into the draft (the state stays).
TAKING = (PHOTOS, CATEGORY, LOCATION)


def landing(core: Core, state: str) -> str:
    """The state a photo is kept in: the photos step, or before the category (or, with
    several cities, before the location) when a photo starts the report."""
    if state in TAKING:
        return state
    return LOCATION if core.many_cities else CATEGORY


def refused(d: dict[str, Any], unique_id: str | None) -> str | None:
    """Why this photo is not kept before it is even fetched: the draft holds MAX_PHOTOS, or
    the same photo (the platform's unique id) is there already."""
    if len(d.get("photos", [])) >= MAX_PHOTOS:
        return words.PHOTO_MAX
    if unique_id is not None and any(p.get("unique_id") == unique_id
                                     for p in d.get("photos", [])):
        return words.PHOTO_SEEN
    return None


def refusal(state: str, text: str) -> Prompt:
    """A photo refused: `text`, with "Pronto" in the photos step."""
    return Prompt(text, ((DONE,),)) if state == PHOTOS else Prompt(text)


def kept(core: Core, state: str, d: dict[str, Any]) -> Prompt:
    """What is said once the draft `d` holds its photos (in `state`): the count, then the
    location (several cities: photos before the pin), the category (photos before it) or how
    many more may come, with "Pronto"."""
    n = len(d.get("photos", []))
    got = words.photos_received(n)
    if state == LOCATION:
        return Prompt(f"📷 {got} para a sua denúncia. {location_question(core, d)}",
                      location=True)
    if state == CATEGORY:
        return category(core, d, f"📷 {got} para a sua denúncia. {words.ASK_CATEGORY}")
    more = (f"Pode enviar mais {MAX_PHOTOS - n} ou tocar em Pronto." if n < MAX_PHOTOS
            else "Esse é o máximo; toque em Pronto.")
    return Prompt(f"📷 {got}. {more}", ((DONE,),))
