"""What the installation administrator does: the municipalities one installation serves
(municipalities: add, change, list, deactivate), each under its own law module; and what
keeps it running for years: readiness (health), the numbers a monitor scrapes (metrics), the
backup, its restore and the check of every evidence file and timeline chain (backup, restore,
verify).

May import: core's pure rules, core.storage, and core.services.{context, errors, periodic}."""
