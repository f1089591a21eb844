"""A case's own life, whoever moves it: the one place a case changes state (transitions),
a lifecycle step committed with its paper (steps), the deadline sweep and recount, the depot's
dates, the one fee statement, evidence, retention and orphan files.

May import: core's pure rules, core.storage, and core.services.{context, errors, messaging,
papers, inspectors} (a step issues its paper and tells the inspector)."""
