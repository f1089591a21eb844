"""The sandbox: Via Livre's bot without Telegram, and what the tests and benchmarks run it on.

Not part of the product (the wheel holds core/, bot/ and admin/ only, and none of them imports
this package):

- `standin/`: local stand-ins for the Telegram Bot API (checked against the published spec
  kept in `standin/spec/`) and for Nominatim, and a small webhook cluster;
- `harness.py`: the real bot (bot.app) running against the stand-ins;
- `terminal.py` and `chat.py`: the terminal chat (`python -m sandbox`);
- `demo.py`: the demo panel account and the demo clock (`python -m sandbox clock +3d`).

It may import core/ and bot/; nothing there imports it back.
"""
