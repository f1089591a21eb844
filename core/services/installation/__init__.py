"""What the installation administrator does: the municipalities one installation serves
(municipalities: add, change, list), each under its own law module.

May import: core's pure rules and core.storage."""
