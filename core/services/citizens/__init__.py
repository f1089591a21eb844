"""What a citizen does and sees: submit a report (with the questions of its category and
the guidance), support a case nearby, follow a case's status in plain words, and exercise
their LGPD rights over their own data (/meusdados).

May import: core's pure rules, core.storage, and core.services.{context, errors, cases,
inspectors, public, staff}."""
