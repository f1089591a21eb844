"""The WhatsApp face (WhatsApp Business Platform, Cloud API): the citizen's conversation of
the core (core.services.citizens.conversation) rendered within WhatsApp's limits and read
back from its webhooks. It knows nothing of Telegram; what it asks and decides is the core's."""
