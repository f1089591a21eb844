"""Dracena (Lei 56/1951): every gap the text leaves open, decided explicitly."""
from __future__ import annotations

from core.laws.base import Setting

_ALL = (
    Setting("appeal_days", 5,
            "Days to appeal an auto de infração, counted from the fine (auto drawn in the "
            "offender's presence) or from the intimação (§3º).",
            "Art. 3º, caput"),
    Setting("apprehension_appeal_hours", 48,
            "Hours to appeal an apprehension, counted from the apprehension.", "Art. 4º, §2º"),
    Setting("appeal_decision_hours", 48,
            "Hours the Mayor has to decide an apprehension appeal.", "Art. 4º, §2º"),
    Setting("appeal_decision_lapse", "alert_only",
            "The law sets no consequence when the Mayor misses the 48 hours: no tacit decision; "
            "staff are alerted and the goods stay in the depot (no auction while pending).",
            "Art. 4º, §2º; Art. 6º, caput"),
    Setting("infraction_appeal_decision_days", None,
            "No deadline for the Mayor to decide an appeal against an auto de infração.",
            "Art. 3º (silent)"),
    Setting("witnesses_always_required", True,
            "Art. 2º d lists the signatures of two witnesses among the contents of every auto; "
            "§2º requires them when the offender refuses to sign. The text of d is followed: two "
            "witnesses always. False relaxes it to the refusal case only.",
            "Art. 2º, d; Art. 2º, §2º"),
    Setting("perishables_auction_days", 3,
            "Perishable goods (gêneros) and livestock are auctioned within 3 days, counted from "
            "the apprehension; the auction may happen while an appeal is pending (the Mayor's "
            "decision then bears on the sale balance, Art. 6º §3º).",
            "Art. 6º, §2º vs Art. 4º, §2º (48 h + 48 h exceed 3 days)"),
    Setting("hours_deadline_end_of_day", False,
            "Deadlines in hours end at the same clock time (minute to minute); one ending on a "
            "day without office hours moves to the next business day.",
            "Código Civil art. 132, §4º"),
    Setting("deadline_counting", "lei_9784_art_66",
            "Days: start day excluded, due day included, a due day without office hours moves "
            "to the next business day; days run continuously.",
            "No local rule; Lei 9.784/1999 art. 66 (STJ Súmula 633)"),
    Setting("storage_day_counting", "started_day",
            "Keeping costs per day count each started day.", "Art. 7º, a and b"),
    Setting("storage_cap_days", None,
            "The 1951 law sets no cap on keeping costs.", "Art. 7º (silent)"),
    Setting("keeping_cost_values", "dated_tariffs",
            "The Cr$ 20,00 per animal/day and Cr$ 1,00 per kg/day of 1951 are kept as history "
            "(currency CRZ); current values in BRL are dated tariffs set by the city.",
            "Art. 7º, a and b"),
    Setting("auction_edital_places", ("lugar de costume", "depósito municipal"),
            "Where the auction edicts are posted; the press too when the things are valuable.",
            "Art. 6º, §1º"),
    Setting("low_value_note_categories", ("street_vendor_goods",),
            "Only street vendors' goods of low value may be seized with a signed note instead "
            "of the auto.", "Art. 4º, §1º"),
)

SETTINGS: dict[str, Setting] = {s.code: s for s in _ALL}
