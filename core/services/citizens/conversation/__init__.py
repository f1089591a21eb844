"""The citizen's report conversation, decided once for every face: its states and the order
of its questions (states.py), and which question an answer belongs to (steps.py). The faces
(bot/citizen for Telegram; others beside it) render each step within their platform's limits
and turn what the person sent into the conversation's input."""
