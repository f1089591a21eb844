"""What kind of value each lifecycle fact holds, for the faces that ask for it: the bot's step
forms (core.services.step_forms) and the panel's forms (admin/forms.py). One table, so both
ask for a fact the same way, and core.parsing.read_fact reads a typed answer by its kind for
both. Facts not listed are free text; a name ending in "_date" is a
date and one ending in "_at" a date and time."""
from __future__ import annotations

CRITERIA, PHOTOS, DATE, DATETIME, BOOL, PARTS = \
    "criteria", "photos", "date", "datetime", "bool", "parts"
CPF, ODOMETER, MONEY, NAMES, CHOICE, GOODS = "cpf", "odometer", "money", "names", "choice", "goods"
LONG, TEXT = "long", "text"
PLATE, COUNT, WEIGHT = "plate", "count", "weight"

KINDS: dict[str, str] = {
    "abandonment_criteria": CRITERIA,
    "notice_photo": PHOTOS, "removal_photos": PHOTOS,
    "agreed_removal_by": DATE, "appeal_deadline": DATE,
    "copy_delivered": BOOL, "note_signed": BOOL, "perishable": BOOL,
    "release_checklist_confirmed": BOOL, "agent_signature": BOOL, "offender_signature": BOOL,
    "refusal_declaration": BOOL,
    "goods_list": GOODS, "goods_description": GOODS,
    "missing_parts": PARTS,
    "owner_document": CPF,
    "plate": PLATE,
    "animals": COUNT,  # Dracena Art. 7º, a: per animal, per day
    "kilograms": WEIGHT, "weight_kg": WEIGHT,  # Dracena Art. 7º, b: per kilogram, per day
    "odometer": ODOMETER,
    "fine_amount": MONEY, "auction_proceeds": MONEY, "balance_amount": MONEY,
    "witnesses": NAMES,
    "previous_case": CHOICE,
    **{f: LONG for f in ("reason", "inspection_notes", "decision_text", "appeal_grounds",
                         "verification_notes", "owner_statement", "theft_suspicion_reason",
                         "police_response", "item_description", "sale_statement")},
}
#: Photo facts that take videos too: Dores Art. 6º, I, a, "ser fotografado ou filmado na
#: situação que se encontram, para servir como prova do abandono".
VIDEO_FACTS = {"removal_photos"}


def fact_kind(fact: str) -> str:
    if fact in KINDS:
        return KINDS[fact]
    if fact.endswith("_date"):
        return DATE
    if fact.endswith("_at"):
        return DATETIME
    return TEXT
