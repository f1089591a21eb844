"""Dracena (Lei 56/1951): the steps and endings the panel's indicators count.

Inspection: the inspector's visit (Art. 2º) ends in one of these steps; notification: the
auto de infração or the intimação (Art. 2º, Art. 5º); removal: the apprehension (Art. 4º)."""
from __future__ import annotations

MILESTONES = {
    "inspection": frozenset({"inspect_no_infraction", "pay_voluntarily", "issue_auto",
                             "issue_auto_absent", "apprehend", "low_value_note"}),
    "notification": frozenset({"issue_auto", "serve_intimacao", "apprehend"}),
    "removal": frozenset({"apprehend", "low_value_note"}),
}

#: Final states: the owner settled it (paid the fine, Art. 5º); the goods were apprehended
#: (then taken back, Art. 6º, Art. 7º); sold at auction (Art. 6º, §3º).
OUTCOMES = {
    "closed_paid": "owner", "closed_paid_voluntarily": "owner",
    "retrieved": "removed", "returned": "removed",
    "closed_balance_paid": "auctioned", "closed_sold": "auctioned",
}
