"""The owner's side of a case, by concern:
- core.services.owners.access: reaching a case (the case code and plate checked, wrong
  answers cooled down) and the link between a Telegram account and the case;
- core.services.owners.linking: what the owner writes to reach a case (QR deep link, or case
  code and plate) and what they say about themselves (the release checklist's situation);
- core.services.owners.view: what the owner sees (deadline, where the object is and what comes
  next, the depot's conditions and fees, the Dracena auto and its appeal window);
- core.services.owners.filings: the owner's statement (Dores Art. 6º, §3º) and the appeal to
  the Mayor (Dracena Art. 3º; Art. 4º, §2º);
- core.services.owners.withdrawal: taking that statement back while the inspector has not
  acted on it;
- core.services.owners.summary: the printable summary;
- core.services.owners.text: the owner's view as plain text, for every chat face;
- proof, statements, payments, reminders: the owner's proof of ownership, the statements'
  standing, the Pix payment offer and the reminders before a deadline lapses.
This module gathers their public names for the faces.

May import: core's pure rules, core.storage, and core.services.{context, errors, cases,
citizens, messaging, papers, staff}."""
from __future__ import annotations

from core.services.context import SessionHook
from core.services.owners.access import COOL_DOWN, MAX_FAILURES, NOT_LINKED, WRONG_ANSWER
from core.services.owners.filings import (MAX_APPEAL_TEXT, PROMISE_MAX_DAYS, STATEMENT_KINDS,
                                         VERIFY_DAYS, AppealResult, StatementResult,
                                         appellant_document, appellant_name, check_appeal,
                                         file_appeal, owner_statement)
from core.services.owners.summary import owner_summary_pdf
from core.services.owners.withdrawal import (WithdrawalResult, withdraw_owner_statement,
                                            withdrawable)
from core.services.owners.linking import (link_by_code, link_by_code_and_plate,
                                         set_owner_situation)
from core.services.owners.view import (TOWING_WARNING, AppealInfo, DepotInfo, FeeItem, Fees,
                                      OwnerAction, OwnerDeadline, OwnerView, owner_cases,
                                      owner_next_step, owner_view)

__all__ = [
    "COOL_DOWN", "MAX_FAILURES", "NOT_LINKED", "WRONG_ANSWER", "SessionHook",
    "MAX_APPEAL_TEXT", "PROMISE_MAX_DAYS", "STATEMENT_KINDS", "VERIFY_DAYS", "AppealResult",
    "StatementResult", "appellant_document", "appellant_name", "check_appeal", "file_appeal", "owner_statement", "owner_summary_pdf",
    "TOWING_WARNING", "AppealInfo", "DepotInfo", "FeeItem", "Fees", "OwnerAction",
    "OwnerDeadline", "OwnerView", "link_by_code", "link_by_code_and_plate", "owner_cases",
    "owner_next_step", "owner_view", "set_owner_situation", "WithdrawalResult",
    "withdraw_owner_statement", "withdrawable",
]
