"""What the city staff do in the panel: panel accounts and passwords (accounts), dated tariffs
and closures (calendar), the queue of cases waiting for an inspector (queue), counter and phone
intake (counter_intake), the case pages and list (case_pages, common), merging a duplicate
report (duplicates), the depot and auction (depot), editais (editais) and their publication
recorded (edital_records), payments recorded (payment_records), wrong passwords counted
(login_failures) and the city's numbers (indicators). Every read model and action here keeps
to the Core's city (`Case.municipality == core.municipality`, inspectors' and accounts'
municipality); scope answers another city's object as a missing one and trims the lists other
packages make for the whole installation.

This module gathers the panel's read models' names for the panel's views.
May import: core's pure rules, core.storage, and every other services package."""
from __future__ import annotations

from core.services.public.open311 import (MEDIA_EXT, open311_requests, open311_services,
                                   public_media)
from core.services.staff.case_pages import (CaseDetail, CaseFilter, CasePage, CaseRow, Dashboard,
                                       InspectorRow, TimelineItem, case_detail, dashboard,
                                       decode_cursor, encode_cursor, evidence_of, inspectors,
                                       iter_cases, list_cases)
from core.services.staff.common import (ACTIVE_TASK, PAGE_SIZE, assignees, depot_pairs,
                                        state_label, today, tz)
from core.services.staff.depot import (DepotItem, auction_split, depot_inventory,
                                       statement_for)
from core.services.staff.editais import (EDITAL_LABELS, EDITAL_STEPS, EditalCase,
                                         edital_cases, edital_documents, edital_kinds,
                                         edital_label)

__all__ = [
    "MEDIA_EXT", "open311_requests", "open311_services", "public_media", "CaseDetail",
    "CaseFilter", "CasePage", "CaseRow", "Dashboard", "InspectorRow", "TimelineItem",
    "case_detail", "dashboard", "decode_cursor", "encode_cursor", "evidence_of", "inspectors",
    "iter_cases", "list_cases", "ACTIVE_TASK", "PAGE_SIZE", "assignees", "depot_pairs",
    "state_label", "today", "tz", "DepotItem", "auction_split", "depot_inventory",
    "statement_for", "EDITAL_LABELS", "EDITAL_STEPS", "EditalCase", "edital_cases",
    "edital_documents", "edital_kinds", "edital_label",
]
