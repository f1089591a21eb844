"""The confirmation, decided once for every face: the draft as the report submitted
(core.services.citizens.reports.submit_report, which the face calls with its own hook), and
the receipt the citizen reads: the protocol, where the case stands in plain words and what
happens next, as the city's law says it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.services.citizens.guidance import next_steps
from core.services.cases.evidence import EvidenceIn
from core.services.citizens.reports import ReportIn, Submitted
from core.services.context import Core

#: Where the citizen hears of the case's steps (the laws' next steps say it in these words).
UPDATES_HERE = "Você recebe aqui um aviso a cada etapa."


def report(d: dict[str, Any], photos: list[EvidenceIn]) -> ReportIn:
    """The draft confirmed on the summary, with its photos as the face stored them."""
    return ReportIn(category=d["category"], lat=d["lat"], lon=d["lon"], photos=photos,
                    address=d.get("address"), neighbourhood=d.get("neighbourhood"),
                    plate=d.get("plate"), colour=d.get("colour"),
                    make_model=d.get("make_model"), time_there=d.get("time_there"),
                    signs=tuple(d.get("signs", ())), description=d.get("description"))


@dataclass(frozen=True)
class Receipt:
    """What the receipt says, for a face that lays it out itself (the web page)."""
    headline: str  # "✅ Denúncia registrada! Protocolo: …"
    where: str  # where the case stands, in plain words
    steps: tuple[str, ...]  # what happens next, as the city's law says it


def parts(core: Core, d: dict[str, Any], done: Submitted, *, in_chat: bool = True
          ) -> Receipt:
    """The receipt's parts; `core` is the city of the pin (the report's), under its law.
    Not `in_chat` (a web page): without the steps' "you are told here" (UPDATES_HERE)."""
    law = core.law
    steps = done.next_steps or next_steps(law, d["category"])
    if not in_chat:
        steps = tuple(s for s in steps if s != UPDATES_HERE)
    track = law.categories[d["category"]].track
    where = law.state_text(track, law.tracks[track].initial)  # plain words, not a state name
    city = f" na Prefeitura de {core.city.label}" if core.many_cities else ""
    return Receipt(f"✅ Denúncia registrada{city}! Protocolo: {done.protocol}",
                   where.where if where else f"Situação: {done.state_label}", tuple(steps))


def receipt(core: Core, d: dict[str, Any], done: Submitted) -> str:
    """"✅ Denúncia registrada! Protocolo: …", the situation and the next steps; `core` is the
    city of the pin (the report's), under its law."""
    r = parts(core, d, done)
    lines = [r.headline, r.where, "", "O que acontece agora:"]
    lines += [f"{i}. {s}" for i, s in enumerate(r.steps, 1)]
    body = "\n".join(lines)
    footer = [f"Acompanhe com /status {done.protocol} ou /minhas.", UPDATES_HERE,
              "Obrigado por ajudar a cidade!"]
    footer = [f for f in footer if f not in body]  # a sentence the steps already say: once
    return body + "\n\n" + " ".join(footer)
