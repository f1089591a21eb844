"""The inspector's conversation states (stored by core.services.messaging.conversation).

    idle ──/tarefas──▶ insp:tasks ──📍 location──▶ idle (list again, nearest first)
    idle ──Recusar──▶ insp:refuse ──reason──▶ idle (refuse_task: reassigned)
    card ──action──▶ insp:form ──one answer per required fact──▶ confirmation ──✅──▶ idle
    (affix_notice: ──✅──▶ PDF sent ──▶ insp:after ──📷 notice affixed, Pronto──▶ idle)
                          ▲                                          │ refused: message,
                          └──────────── ✏️ Corrigir ◀────────────────┘ answers kept

/cancelar (the citizen's) goes back to idle from any of them."""
from __future__ import annotations

PREFIX = "insp:"
TASKS = "insp:tasks"
REFUSE = "insp:refuse"
FORM = "insp:form"
AFTER = "insp:after"  # photos of the step's document, asked after it (Art. 4º, II, a)
