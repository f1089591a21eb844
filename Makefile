# Via Livre — two commands on a fresh clone: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: run check test bench clean venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# The panel (python -m admin) beside the real bot (python -m bot) when the settings (environment
# or .env) hold TELEGRAM_BOT_TOKEN; otherwise the local sandbox (python -m sandbox: the bot
# against stand-ins, in the terminal, serving the panel itself on its demo clock, with a demo
# panel account). Ctrl-C stops both.
HAS_TOKEN := from core.settings import Settings; raise SystemExit(not Settings().telegram_bot_token.strip())
run: $(STAMP)
	@$(PY) -m core.migrate
	@if $(PY) -c '$(HAS_TOKEN)'; then \
	  $(PY) -m admin & panel=$$!; trap 'kill $$panel 2>/dev/null' EXIT INT TERM; $(PY) -m bot; \
	else $(PY) -m sandbox; fi

# The fast loop (well under 2 minutes): style and likely bugs (ruff), types (mypy, the pydantic
# plugin; rules and the shrinking list of modules not yet clean in pyproject.toml), the unit tests.
check: $(STAMP)
	$(PY) -m ruff check core bot admin sandbox whatsapp benchmarks tests
	$(PY) -m mypy
	$(PY) -m pytest -q -n 2 tests/unit

# Two runs: the suite on TEST_JOBS pytest-xdist workers (mostly I/O and subprocess waits, so
# more workers than the 2 cores pay), then the tests marked `serial` (SIGKILL, fault figures,
# timing under load) alone on the machine. Each run prints its slowest tests (the phases
# included: set-up, call, tear-down), so every CI log says where the minutes go.
TEST_JOBS ?= 3
test: $(STAMP)
	$(PY) -m pytest -q -n $(TEST_JOBS) -m "not serial" --durations=40
	$(PY) -m pytest -q -m serial --durations=10

bench: $(STAMP)
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache
