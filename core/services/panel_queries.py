"""Read models for the staff panel, by concern (this module gathers their names for the
panel's views):
- core.services.panel_cases: dashboard, the case list (keyset) and CSV rows, a case's staff
  view, the inspectors;
- core.services.panel_depot: the depot inventory with what each object owes today, and the
  auction split;
- core.services.panel_editais: the editais to publish in the Diário Oficial;
- core.services.open311: the public Open311 GeoReport v2 view.
Reads only; every change goes through core.services.cases / staff / tasks / inspectors."""
from __future__ import annotations

from core.services.open311 import (MEDIA_EXT, open311_requests, open311_services,
                                   public_media)
from core.services.panel_cases import (CaseDetail, CaseFilter, CasePage, CaseRow, Dashboard,
                                       InspectorRow, TimelineItem, case_detail, dashboard,
                                       decode_cursor, encode_cursor, evidence_of, inspectors,
                                       iter_cases, list_cases)
from core.services.panel_common import (ACTIVE_TASK, PAGE_SIZE, assignees, depot_pairs,
                                        state_label, today, tz)
from core.services.panel_depot import (DepotItem, auction_split, depot_inventory,
                                       statement_for)
from core.services.panel_editais import (EDITAL_LABELS, EDITAL_STEPS, EditalCase,
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
