"""Following a case, decided once for every face: a protocol typed alone (read as a status
request), the case as the citizen reads it (/status, /minhas), and the words of the per-case
updates' switch. The views come from core.services.citizens.case_status."""
from __future__ import annotations

import re

from core.formatting import fmt_date
from core.services.citizens.case_status import PublicCaseView

PROTOCOL = re.compile(r"^\d{4}-\d{6}$")

STATUS_USAGE = "Envie o número do protocolo assim: /status 2026-000123"
NO_CASES = "Você ainda não tem denúncias. Use /denunciar para registrar uma."
NOT_FOLLOWING = "Você não acompanha esse caso."
UPDATES_OFF = "Avisos desligados para este caso."
UPDATES_ON = "Avisos retomados."
STOP_UPDATES = "🔕 Parar avisos deste caso"
RESUME_UPDATES = "🔔 Retomar avisos deste caso"


def typed_protocol(text: str | None) -> str | None:
    """A protocol number typed alone (AAAA-NNNNNN), understood as a status request."""
    text = (text or "").strip()
    return text if PROTOCOL.match(text) else None


def mine_header(n: int) -> str:
    return f"Suas denúncias ({n}):"


def switch_label(on: bool) -> str:
    """The choice under a case whose updates are `on` (it turns them off), or off."""
    return STOP_UPDATES if on else RESUME_UPDATES


def case_text(v: PublicCaseView) -> str:
    """The case as the reporter reads it: protocol and kind, the city when several are
    served, where it stands, the place, its steps with their dates, what comes next."""
    lines = [f"Protocolo {v.protocol} — {v.category_label}"]
    if v.city:  # several cities served: whose case it is
        lines.append(f"Município: {v.city}")
    if not (v.is_open and v.situation):  # open: the plain words below say where it stands
        lines.append(f"Situação: {v.state_label}")
    if v.address:
        lines.append(f"Local: {v.address}")
    lines.append(f"Aberto em {fmt_date(v.created)}")
    if v.steps:
        lines.append("Etapas:")
        lines += [f"• {fmt_date(s.day)} — {s.label}" for s in v.steps]
    lines.append(f"Próximo passo: {v.next_step_text()}")
    if v.notify is not None:
        lines.append("Avisos: " + ("ligados" if v.notify else "desligados"))
    return "\n".join(lines)
