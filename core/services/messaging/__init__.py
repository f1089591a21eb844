"""How people are told: the outbox of messages a change causes (notifications), delivery
and dead letters, the bot's sending limits, the durable conversation, the per-chat order,
the bot's own username, and the contact of a reporter without Telegram.

May import: core's pure rules, core.storage, and core.services.{context, errors, inspectors}."""
