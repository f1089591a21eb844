"""What an inspector (fiscal de posturas) does: bind an account by invitation, receive
and accept tasks, the task list, the on-site form of a step, the deadline warnings, the
queue that moves by itself, the day's notices to affix and the photo of an affixed notice.

May import: core's pure rules, core.storage, and core.services.{context, errors, cases,
citizens, papers, staff}."""
