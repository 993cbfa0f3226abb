# hookline — `make demo` and `make test` work on a fresh clone: both set up .venv first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test lint format bench soak install clean test-integrations test-integrations-pi

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(PY) examples/demo.py

test: $(STAMP)
	$(PY) -m pytest -q -n 2

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests examples benchmarks
	$(VENV)/bin/ruff format --check src tests examples benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/mypy --strict examples/hooks

format: $(STAMP)
	$(VENV)/bin/ruff format src tests examples benchmarks
	$(VENV)/bin/ruff check --fix src tests examples benchmarks

bench: $(STAMP)
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache

# Not part of `make test`: 10 000 tool calls through module and command hooks, a tenth
# adversarial; prints RSS growth, fds, stray processes, session entries and time per call.
soak: $(STAMP)
	$(PY) benchmarks/soak.py $(if $(CALLS),--calls $(CALLS),)

# The real pi (pinned in integration_tests/pi/package.json) against hookline, offline on a
# loopback model server. Needs node >= 20.6 and npm; skipped with a message when node is absent.
PI_DIR := .integrations/pi

$(PI_DIR)/.installed: integration_tests/pi/package.json
	mkdir -p $(PI_DIR)
	cp integration_tests/pi/package.json $(PI_DIR)/package.json
	cd $(PI_DIR) && npm install --no-audit --no-fund --ignore-scripts --save-exact
	touch $@

test-integrations-pi: $(STAMP)
	@if command -v node >/dev/null && command -v npm >/dev/null; then \
		$(MAKE) $(PI_DIR)/.installed && \
		$(PY) -m pytest -q -n 2 -p no:cacheprovider integration_tests/pi; \
	else echo "test-integrations-pi: node/npm not found, skipped"; fi

test-integrations: test-integrations-pi
