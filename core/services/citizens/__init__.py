"""What a citizen does and sees: submit a report (with the questions of its category and
the guidance), support a case nearby, follow a case's status in plain words, and exercise
their LGPD rights over their own data (/meusdados); asked once after the closing whether the
object is gone (followup: a "não" reopens the diligence).

May import: core's pure rules, core.storage, and core.services.{context, errors, cases,
geocoding, inspectors, messaging, public, staff} (geocoding: the report's typed address)."""
