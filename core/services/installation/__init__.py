"""What the installation administrator does: the municipalities one installation serves
(municipalities: add, change, list, deactivate), each under its own law module.

May import: core's pure rules, core.storage, and core.services.{context, errors}."""
