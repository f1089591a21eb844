"""Dores do Indaiá (Lei 3.043/2022): every gap the text leaves open, decided explicitly.

See docs/law/README.md, "Gaps a program must decide explicitly".
"""
from __future__ import annotations

from core.laws.base import Setting

_ALL = (
    Setting("minimum_days_in_place", 30,
            "An object qualifies only after more than this many days in place; the assessment "
            "requires the 'days_in_place' criterion (or Art. 3º §4º I i, which includes it).",
            "Art. 1º, caput: \"por mais de 30 (trinta) dias no local\""),
    Setting("require_minimum_days", True,
            "If True, assess() refuses abandonment without the >30-days criterion, even with "
            "other signs. False would let the signs of Art. 3º §4º alone qualify.",
            "Art. 1º, caput vs Art. 3º, §4º (the latter lists the 30 days only in item i)"),
    Setting("owner_notice_days", 10,
            "Days the identified owner has to remove the object after the notification.",
            "Art. 4º, I; Art. 5º, I"),
    Setting("published_notice_days", 10,
            "Days counted from the Diário Oficial publication date.",
            "Art. 4º, II, b; Art. 5º, III"),
    Setting("affixed_notice_lapses", False,
            "The 10 days of the notice affixed on the object (Art. 4º II a) are informational; "
            "removal waits for the 10 days counted from the publication (II b), which always "
            "end later, since both notices are required.",
            "Art. 4º, II, a and b"),
    Setting("affixed_notice_annex", "Anexo I (modelo de notificação), adaptado",
            "'Anexo II' names both the affixed notice (Art. 4º II a) and the termo de "
            "recolhimento (Art. 6º I b); the annex printed after Anexo I is the termo. The "
            "affixed notice uses the Anexo I notification with 'NÃO IDENTIFICADO' ticked.",
            "Art. 4º, II, a; Art. 6º, I, b; Anexos I and II"),
    Setting("furniture_notice_annex", "Anexo I (modelo de notificação), adaptado ao bem móvel",
            "Anexo IV (furniture notification) is not printed in the law; the Anexo I model is "
            "adapted until the Executive issues it (Art. 12).",
            "Art. 5º, I and III"),
    Setting("retrieval_notice_days", 10,
            "After removal the owner is told he has 10 days to retrieve; it is a notice period "
            "only, shown on the termo and the edital. The depot keeps the object and release "
            "stays possible until the 60-day auction deadline.",
            "Art. 6º, caput (10 dias) vs Art. 3º, caput and §3º, I (60 dias, CTB art. 328)"),
    Setting("auction_after_days", 60,
            "Days after entry in the depot before the object becomes eligible for auction; "
            "counted from the depot entry (recolhimento).",
            "Art. 3º, caput; CTB art. 328"),
    Setting("release_after_auction_eligible", False,
            "Once the 60 days have passed the object can no longer be released.",
            "Art. 3º, §3º, I: \"No prazo de 60 (sessenta) dias\""),
    Setting("storage_day_counting", "started_day",
            "Daily storage fees count each started day (the day of entry counts as one).",
            "Art. 3º, §3º, II; Art. 9º, II (values set by the municipality)"),
    Setting("storage_cap_days", 180,
            "Storage charges are capped at 6 months.",
            "CTB art. 328, §5º"),
    Setting("deadline_counting", "lei_9784_art_66",
            "Days: start day excluded, due day included, a due day without office hours moves "
            "to the next business day; days run continuously.",
            "No local rule; Lei 9.784/1999 art. 66 (STJ Súmula 633)"),
    Setting("hours_deadline_end_of_day", False,
            "Deadlines in hours end at the same clock time (minute to minute), not at the close "
            "of that day (this law has none in hours; kept for the engine).",
            "Código Civil art. 132, §4º"),
    Setting("owner_removal_deadline", "agreed_date",
            "Once removal is due, an owner who commits to remove the object himself gets a date "
            "(the inspector's, or the owner's own in the bot within 10 days); if it passes, the "
            "case returns to 'removal due'.",
            "Art. 6º, §3º: \"dentro do prazo estipulado pelo agente fiscalizador\""),
    Setting("owner_promise_during_notice", "information_only",
            "While the notice's period of Art. 4º runs, the owner's 'Vou retirar' (or 'Já "
            "retirei') is information beside the legal deadline, recorded for the inspector to "
            "verify; it never shortens that deadline nor makes removal possible before it, "
            "whatever the owner declares or withdraws. The inspector's own 'prazo estipulado' "
            "applies only once removal is due.",
            "Art. 6º, caput (removal only on \"o não cumprimento dos prazos dispostos no Art. "
            "4º\") vs Art. 6º, §3º (\"prazo estipulado pelo agente fiscalizador\")"),
    Setting("furniture_publication_always", True,
            "Every removed piece of furniture/machinery gets the Diário Oficial notice with 10 "
            "days from publication before scrap or auction, owner known or not.",
            "Art. 5º, III"),
    Setting("furniture_scrap_when", "owner_not_identified",
            "'Não tenham identificação' is read as: no owner/responsible identified. Objects "
            "with an identified owner go to auction (Art. 8º) instead of scrap.",
            "Art. 3º, §1º"),
    Setting("human_animal_vehicle_signs", ("visible_bad_conservation", "poor_conservation",
                                           "neighbours_unaware", "missing_tyres"),
            "Human/animal-propelled vehicles qualify only by bad conservation (Art. 1º V → IV) "
            "and the general signs of Art. 3º §4º I c, h, i.",
            "Art. 1º, V; Art. 3º, §4º, I"),
    Setting("location_kinds", ("public_space", "vacant_lot", "abandoned_building"),
            "Art. 7º extends the law to vacant lots and abandoned buildings: a location fact of "
            "the case, same categories and procedures.",
            "Art. 2º; Art. 7º"),
)

SETTINGS: dict[str, Setting] = {s.code: s for s in _ALL}
SETTINGS["furniture_release_until_disposal"] = Setting(
    "furniture_release_until_disposal", True,
    "Furniture/machinery may be released to the owner (paying the fees) until it is actually "
    "scrapped or auctioned; the 60 days of Art. 3º apply to vehicles only.",
    "Art. 3º, caput and §3º (\"o veículo\"); Art. 5º, III")
