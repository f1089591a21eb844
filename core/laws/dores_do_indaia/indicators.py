"""Dores do Indaiá (Lei 3.043/2022): the steps and endings the panel's indicators count.

Inspection: the inspector's diligence at the place (Art. 4º, caput) ends in one of these
steps; notification: Art. 4º, I (owner identified) or II, a (notice affixed); removal: the
object entering the depot (Art. 6º)."""
from __future__ import annotations

MILESTONES = {
    "inspection": frozenset({"inspect_not_abandoned", "notify_owner", "affix_notice",
                             "refer_to_police", "remove_immediately", "recidivism_removal"}),
    "notification": frozenset({"notify_owner", "affix_notice"}),
    "removal": frozenset({"depot_entry"}),
}

#: Final states: the owner took it away himself (Art. 6º, §3º); removed by the city (then
#: released to the owner, Art. 3º, or discarded); auctioned (Art. 3º, Art. 8º).
OUTCOMES = {
    "closed_removed_by_owner": "owner",
    "released": "removed", "scrapped": "removed",
    "auctioned": "auctioned",
}
