"""The owner's conversation states (stored in the database by core.services.messaging.conversation).

    idle ──/proprietario──▶ owner:code ──code──▶ owner:answer ──plate / chassis tail / "não tem"──▶ idle (view)
                                ▲                       │ wrong answer (service's message)
                                └───────────────────────┘ cool-down → idle
    view ──"Vou retirar"──▶ owner:date ──dd/mm/aaaa──▶ idle (owner_statement)
    view ──"Já retirei" / "Vou retirar", linked by the code alone──▶ owner:proof
         ──plate / chassis tail / CPF-CNPJ──▶ idle ("Já retirei" recorded) or owner:date
    view ──"Desfazer declaração" (linked by the code alone: owner:proof first)──▶ "Tem certeza?"
         ──"Sim"──▶ idle (withdraw_owner_statement: the state and legal deadline before it)
         ──"Não"──▶ idle (nothing changes; the "Sim" button names the statement, so a stale one
                         changes nothing)
    view ──"Recorrer"──▶ owner:appeal_name ──name──▶ owner:appeal_doc ──CPF/CNPJ (validated)──▶
         owner:appeal ──text / photos / documents──▶ owner:appeal ──"Enviar recurso"──▶ idle
         (Dracena Art. 3º: the autuado or a co-responsible appeals: who, recorded)

"Cancelar" (and the citizen's /cancelar) go back to idle from any of them. The deep link
`/start <case code>` opens the view without touching the user's conversation state."""
from __future__ import annotations

PREFIX = "owner:"
CODE = "owner:code"
ANSWER = "owner:answer"
DATE = "owner:date"
PROOF = "owner:proof"  # the plate / chassis tail / CPF-CNPJ before a statement
APPEAL = "owner:appeal"
APPEAL_NAME = "owner:appeal_name"  # who appeals: the name
APPEAL_DOC = "owner:appeal_doc"  # who appeals: the CPF/CNPJ
